#pragma once
// Why a run stopped. The kind decides the CLI's exit code: a model the evaluator cannot run (an op or type it
// lacks) is Unsupported (exit 3); inputs or a model that are wrong (a shape that does not fit, a Loop that does
// not end, a tensor over the memory budget) are BadInput (exit 2); Cancelled is the user's.
#include <stdexcept>
#include <string>

namespace fb::eval {

class RunError : public std::runtime_error {
 public:
  enum class Kind { Unsupported, BadInput, Cancelled };
  RunError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }
  // Set by the runner once the failing node is known ("node 'conv1' (Conv): ...").
  const std::string& node() const { return node_; }
  void setNode(std::string n) { node_ = std::move(n); }

 private:
  Kind kind_;
  std::string node_;
};

[[noreturn]] inline void unsupported(const std::string& why) { throw RunError(RunError::Kind::Unsupported, why); }
[[noreturn]] inline void badInput(const std::string& why) { throw RunError(RunError::Kind::BadInput, why); }

}  // namespace fb::eval
