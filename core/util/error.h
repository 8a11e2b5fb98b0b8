#pragma once
// Errors that reach the user carry the file they are about, so the CLI can print one line.
#include <stdexcept>
#include <string>

namespace fb {

// The input cannot be read or is not a valid model (CLI exit code 2).
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, const std::string& reason) : std::runtime_error(reason), file_(std::move(file)) {}
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// The output cannot be written (CLI exit code 2 too: nothing was written).
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fb
