#pragma once
// One edit of a model as a value: a verb and named arguments, as a script line names them ("remove-node
// node=/conv1/Conv rewire=input"). The same value is checked against a model without changing it, applied to it
// all-or-nothing, written to and read from a script, and (in the app) kept by an undo command to redo it.
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fb::ir {
class Model;
}

namespace fb::edit {

struct Edit {
  std::string verb;
  std::vector<std::pair<std::string, std::string>> args;  // in the order given; keys are unique

  const std::string* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }
  std::string get(std::string_view key, std::string fallback = {}) const;
  // Sets (or replaces) an argument; returns *this so edits can be built in one expression.
  Edit& set(std::string key, std::string value);
  bool operator==(const Edit&) const = default;
};

// An edit that does not apply to the model (a missing node, a value of the wrong type, an unknown verb): the model
// is as it was. what() is "<script line>: <reason>", or "edit K: <script line>: <reason>" for the K-th (1-based) edit
// of a script.
class EditError : public std::runtime_error {
 public:
  EditError(const Edit& e, const std::string& reason, size_t index = 0);
  const std::string& reason() const { return reason_; }
  const std::string& line() const { return line_; }
  size_t index() const { return index_; }

 private:
  std::string line_, reason_;
  size_t index_ = 0;
};

// What undoing an applied edit needs: a function that puts back what the edit changed, holding only that (the
// nodes it removed, the old attribute, the old tensor's shared bytes), never a copy of the model. It is valid on
// the model as the edit left it, so undo records are reverted newest first.
struct Undo {
  std::function<void(ir::Model&)> revert;
  size_t bytes = 0;  // an estimate of the memory the record holds
};

// An applied edit: its undo record and the lines it has for the Log ("'x' is now a graph input").
struct Applied {
  Undo undo;
  std::vector<std::string> notes;
};

}  // namespace fb::edit
