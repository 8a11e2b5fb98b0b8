#pragma once
// A pickle decoder for the files oneflow.save writes (docs: oneflow-checkpoint-format.md section 1.4), and nothing
// more. It never calls anything: REDUCE/NEWOBJ/BUILD on the few whitelisted globals (OrderedDict, oneflow.Tensor,
// oneflow.nn.Parameter, oneflow._oneflow_internal.dtype, numpy's array and dtype reconstructors) become plain
// Object values for the caller to interpret; _codecs.encode(str, 'latin1') and bytes(), which is how protocol 2
// spells bytes (numpy's array data), become Bytes. Every other global, every opcode outside protocols 2-5's data
// subset, lengths past the end of the input, nesting deeper than kMaxDepth, more than kMaxValues values and memo
// references to nothing are refused with an InputError naming the file, the offset and the opcode or global.
// Byte strings are views into the input.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace fb::oneflow::pickle {

struct Value {
  enum class Kind { None, Bool, Int, Float, String, Bytes, Tuple, List, Dict, Global, Object };
  Kind kind = Kind::None;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  std::string text;                  // String
  std::span<const std::byte> bytes;  // Bytes: a view into the decoded input, or into `owned`
  std::string owned;                 // Bytes decoded from protocol 2's _codecs.encode(str, 'latin1')
  std::vector<const Value*> items;   // Tuple, List
  std::vector<std::pair<const Value*, const Value*>> entries;  // Dict, in insertion order (later keys win)
  std::string module, name;                                    // Global
  const Value* callable = nullptr;                             // Object: the Global that REDUCE/NEWOBJ applied
  const Value* args = nullptr;                                 // Object: its argument tuple
  const Value* state = nullptr;                                // Object: what BUILD gave it (nullptr when none)
  int depth = 0;                                               // containers: 1 + the deepest element

  bool isGlobal(std::string_view m, std::string_view n) const {
    return kind == Kind::Global && module == m && name == n;
  }
  // The entry of a Dict whose key is the string `key` (the last one when repeated), or nullptr.
  const Value* find(std::string_view key) const;
};

const char* kindName(Value::Kind k);

// The decoded values live as long as the document (and the input bytes must outlive it too).
class Document {
 public:
  static constexpr int kMaxDepth = 100;
  // A value costs about 250 bytes against 1 byte of pickle: this keeps a hostile file's memory near 250 MB while
  // allowing state dicts of about 30,000 tensors (about 35 values each).
  static constexpr size_t kMaxValues = size_t{1} << 20;
  const Value& root() const { return *root_; }

 private:
  friend Document decode(std::span<const std::byte>, const std::string&);
  std::deque<Value> arena_;  // values refer to each other by pointer: cycles and deep chains need no recursion
  const Value* root_ = nullptr;
};

// Throws InputError(file, "pickle: <reason> at offset N") for anything outside the accepted subset.
Document decode(std::span<const std::byte> data, const std::string& file);

}  // namespace fb::oneflow::pickle
