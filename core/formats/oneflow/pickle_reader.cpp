#include "formats/oneflow/pickle_reader.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>

#include "util/error.h"

namespace fb::oneflow::pickle {
namespace {

using Kind = Value::Kind;

// The globals oneflow.save's pickles reference (module, qualified name).
constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kAllowedGlobals{{
    {"_codecs", "encode"},     // protocol 2's bytes
    {"__builtin__", "bytes"},  // protocol 2's b'' (an empty array's data)
    {"builtins", "bytes"},
    {"collections", "OrderedDict"},
    {"oneflow", "Tensor"},
    {"oneflow.nn", "Parameter"},
    {"oneflow._oneflow_internal", "dtype"},
    {"numpy.core.multiarray", "_reconstruct"},
    {"numpy._core.multiarray", "_reconstruct"},
    {"numpy", "ndarray"},
    {"numpy", "dtype"},
    {"numpy.core.numeric", "_frombuffer"},
    {"numpy._core.numeric", "_frombuffer"},
    {"copyreg", "_reconstructor"},
}};

std::string hexByte(uint8_t b) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

class Decoder {
 public:
  Decoder(std::span<const std::byte> data, const std::string& file, std::deque<Value>& arena)
      : data_(data), file_(file), arena_(arena) {}

  const Value* run() {
    while (true) {
      opOffset_ = pos_;
      const uint8_t op = u8();
      switch (op) {
        case 0x80: {  // PROTO
          const uint8_t v = u8();
          if (v < 2 || v > 5) fail("protocol " + std::to_string(v) + " (only 2-5 are accepted)");
          break;
        }
        case 0x95: {  // FRAME: a length hint; the frame's opcodes follow inline
          const uint64_t n = u64();
          if (n > remaining()) fail("FRAME of " + std::to_string(n) + " bytes runs past the end");
          break;
        }
        case '.': {  // STOP
          if (!marks_.empty() || stack_.size() != 1)
            fail("STOP with " + std::to_string(stack_.size()) + " values on the stack");
          return stack_.back();
        }
        case '(':  // MARK
          if (marks_.size() >= static_cast<size_t>(Document::kMaxDepth))
            fail("MARKs nested deeper than " + std::to_string(Document::kMaxDepth));
          marks_.push_back(stack_.size());
          break;
        case 'N':
          push(make(Kind::None));
          break;
        case 0x88:
        case 0x89: {  // NEWTRUE, NEWFALSE
          Value* v = make(Kind::Bool);
          v->boolean = op == 0x88;
          push(v);
          break;
        }
        case 'J':
          integer(static_cast<int32_t>(u32()));
          break;  // BININT
        case 'K':
          integer(u8());
          break;  // BININT1
        case 'M':
          integer(u16());
          break;      // BININT2
        case 0x8a: {  // LONG1
          const uint8_t n = u8();
          if (n > 8) fail("LONG1 of " + std::to_string(n) + " bytes (integers past 64 bits are not accepted)");
          auto b = take(n);
          uint64_t v = 0;
          for (size_t i = 0; i < n; ++i) v |= uint64_t(std::to_integer<uint8_t>(b[i])) << (8 * i);
          if (n > 0 && n < 8 && (std::to_integer<uint8_t>(b[n - 1]) & 0x80)) v |= ~uint64_t(0) << (8 * n);  // sign
          integer(static_cast<int64_t>(v));
          break;
        }
        case 'G': {  // BINFLOAT: big-endian double
          auto b = take(8);
          uint64_t bits = 0;
          for (size_t i = 0; i < 8; ++i) bits = (bits << 8) | std::to_integer<uint8_t>(b[i]);
          Value* v = make(Kind::Float);
          std::memcpy(&v->real, &bits, 8);
          push(v);
          break;
        }
        case 0x8c:
          string(u8());
          break;  // SHORT_BINUNICODE
        case 'X':
          string(u32());
          break;  // BINUNICODE
        case 0x8d:
          string(u64());
          break;  // BINUNICODE8
        case 'C':
          bytes(u8());
          break;  // SHORT_BINBYTES
        case 'B':
          bytes(u32());
          break;  // BINBYTES
        case 0x8e:
          bytes(u64());
          break;  // BINBYTES8
        case 0x96:
          bytes(u64());
          break;  // BYTEARRAY8 (protocol 5, an in-band PickleBuffer of numpy's data)
        case '}':
          push(make(Kind::Dict));
          break;
        case ']':
          push(make(Kind::List));
          break;
        case ')':
          push(make(Kind::Tuple));
          break;
        case 't': {
          auto items = popMark();
          push(container(Kind::Tuple, std::move(items)));
          break;
        }
        case 0x85:
        case 0x86:
        case 0x87: {  // TUPLE1..3
          const size_t n = op - 0x84;
          need(n);
          std::vector<const Value*> items(stack_.end() - n, stack_.end());
          stack_.resize(stack_.size() - n);
          push(container(Kind::Tuple, std::move(items)));
          break;
        }
        case 'a': {  // APPEND
          need(2);
          const Value* item = pop();
          append(top(), {item});
          break;
        }
        case 'e': {  // APPENDS
          auto items = popMark();
          need(1);
          append(top(), items);
          break;
        }
        case 's': {  // SETITEM
          need(3);
          const Value* v = pop();
          const Value* k = pop();
          setItems(top(), {k, v});
          break;
        }
        case 'u': {  // SETITEMS
          auto items = popMark();
          if (items.size() % 2) fail("SETITEMS with an odd number of values");
          need(1);
          setItems(top(), items);
          break;
        }
        case 'c': {  // GLOBAL "module\nname\n"
          std::string module = line(), name = line();
          push(global(std::move(module), std::move(name)));
          break;
        }
        case 0x93: {  // STACK_GLOBAL
          need(2);
          const Value* name = pop();
          const Value* module = pop();
          if (module->kind != Kind::String || name->kind != Kind::String) fail("STACK_GLOBAL on non-strings");
          push(global(module->text, name->text));
          break;
        }
        case 'R': {  // REDUCE
          need(2);
          const Value* args = pop();
          const Value* callable = pop();
          push(reduce(callable, args));
          break;
        }
        case 0x81: {  // NEWOBJ
          need(2);
          const Value* args = pop();
          const Value* cls = pop();
          push(newObject(cls, args));
          break;
        }
        case 'b': {  // BUILD
          need(2);
          const Value* state = pop();
          build(top(), state);
          break;
        }
        case 'q':
          memoPut(u8());
          break;  // BINPUT
        case 'r':
          memoPut(u32());
          break;  // LONG_BINPUT
        case 0x94:
          memoPut(memo_.size());
          break;  // MEMOIZE
        case 'h':
          memoGet(u8());
          break;  // BINGET
        case 'j':
          memoGet(u32());
          break;  // LONG_BINGET
        default:
          fail("opcode " + hexByte(op) + " is not accepted");
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_, "pickle: " + what + " at offset " + std::to_string(opOffset_));
  }
  size_t remaining() const { return data_.size() - pos_; }
  std::span<const std::byte> take(uint64_t n) {
    if (n > remaining())
      fail("a length of " + std::to_string(n) + " bytes runs past the end of the file (" + std::to_string(remaining()) +
           " left)");
    auto s = data_.subspan(pos_, static_cast<size_t>(n));
    pos_ += static_cast<size_t>(n);
    return s;
  }
  uint64_t le(size_t n) {
    if (pos_ >= data_.size() && n > 0) fail("the pickle is truncated");
    auto b = take(n);
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t(std::to_integer<uint8_t>(b[i])) << (8 * i);
    return v;
  }
  uint8_t u8() {
    if (pos_ >= data_.size()) fail("the pickle is truncated (no STOP)");
    return static_cast<uint8_t>(le(1));
  }
  uint16_t u16() { return static_cast<uint16_t>(le(2)); }
  uint32_t u32() { return static_cast<uint32_t>(le(4)); }
  uint64_t u64() { return le(8); }
  std::string line() {
    const size_t limit = std::min<size_t>(remaining(), 256);
    for (size_t i = 0; i < limit; ++i)
      if (data_[pos_ + i] == std::byte{'\n'}) {
        std::string s(reinterpret_cast<const char*>(data_.data() + pos_), i);
        pos_ += i + 1;
        return s;
      }
    fail("GLOBAL without a newline in its first 256 bytes");
  }

  Value* make(Kind k) {
    if (arena_.size() >= Document::kMaxValues) fail("more than " + std::to_string(Document::kMaxValues) + " values");
    Value& v = arena_.emplace_back();
    v.kind = k;
    return &v;
  }
  void push(const Value* v) { stack_.push_back(v); }
  void need(size_t n) const {
    const size_t floor = marks_.empty() ? 0 : marks_.back();
    if (stack_.size() < floor + n) fail("stack underflow");
  }
  const Value* pop() {
    const Value* v = stack_.back();
    stack_.pop_back();
    return v;
  }
  Value* top() { return const_cast<Value*>(stack_.back()); }
  std::vector<const Value*> popMark() {
    if (marks_.empty()) fail("no MARK to pop to");
    const size_t m = marks_.back();
    marks_.pop_back();
    std::vector<const Value*> items(stack_.begin() + m, stack_.end());
    stack_.resize(m);
    return items;
  }
  void deepen(Value* v, const Value* child) {
    v->depth = std::max(v->depth, child->depth + 1);
    if (v->depth > Document::kMaxDepth) fail("values nested deeper than " + std::to_string(Document::kMaxDepth));
  }
  const Value* container(Kind k, std::vector<const Value*> items) {
    Value* v = make(k);
    for (const Value* i : items) deepen(v, i);
    v->items = std::move(items);
    return v;
  }
  void integer(int64_t i) {
    Value* v = make(Kind::Int);
    v->integer = i;
    push(v);
  }
  void string(uint64_t n) {
    auto b = take(n);
    Value* v = make(Kind::String);
    v->text.assign(reinterpret_cast<const char*>(b.data()), b.size());
    push(v);
  }
  void bytes(uint64_t n) {
    Value* v = make(Kind::Bytes);
    v->bytes = take(n);
    push(v);
  }
  void append(Value* list, const std::vector<const Value*>& items) {
    if (list->kind != Kind::List) fail(std::string("APPEND to a ") + kindName(list->kind));
    for (const Value* i : items) deepen(list, i);
    list->items.insert(list->items.end(), items.begin(), items.end());
  }
  void setItems(Value* dict, const std::vector<const Value*>& kv) {
    if (dict->kind != Kind::Dict) fail(std::string("SETITEM on a ") + kindName(dict->kind));
    for (size_t i = 0; i < kv.size(); i += 2) {
      deepen(dict, kv[i]);
      deepen(dict, kv[i + 1]);
      dict->entries.emplace_back(kv[i], kv[i + 1]);
    }
  }
  const Value* global(std::string module, std::string name) {
    const bool allowed = std::any_of(kAllowedGlobals.begin(), kAllowedGlobals.end(),
                                     [&](const auto& g) { return g.first == module && g.second == name; });
    if (!allowed) fail("global '" + module + "." + name + "' is not allowed");
    Value* v = make(Kind::Global);
    v->module = std::move(module);
    v->name = std::move(name);
    return v;
  }
  const Value* object(const Value* callable, const Value* args) {
    Value* v = make(Kind::Object);
    v->callable = callable;
    v->args = args;
    deepen(v, args);
    return v;
  }
  const Value* reduce(const Value* callable, const Value* args) {
    if (args->kind != Kind::Tuple) fail("REDUCE with arguments that are not a tuple");
    if (callable->isGlobal("_codecs", "encode")) return latin1Bytes(args);
    if (callable->isGlobal("__builtin__", "bytes") || callable->isGlobal("builtins", "bytes")) {
      if (!args->items.empty()) fail("bytes() with arguments");
      return make(Kind::Bytes);
    }
    if (callable->isGlobal("collections", "OrderedDict")) {
      if (!args->items.empty()) fail("REDUCE of OrderedDict with arguments");
      return make(Kind::Dict);
    }
    const bool reconstruct = callable->kind == Kind::Global && callable->name == "_reconstruct";
    const bool frombuffer = callable->kind == Kind::Global && callable->name == "_frombuffer";
    const bool dtype = callable->isGlobal("numpy", "dtype");
    const bool reconstructor = callable->isGlobal("copyreg", "_reconstructor");
    if (!reconstruct && !frombuffer && !dtype && !reconstructor)
      fail("REDUCE of '" +
           (callable->kind == Kind::Global ? callable->module + "." + callable->name
                                           : std::string(kindName(callable->kind))) +
           "' is not accepted");
    if (reconstructor) {  // copyreg._reconstructor(cls, object-base, state): only for the classes NEWOBJ accepts
      if (args->items.empty()) fail("copyreg._reconstructor without a class");
      return newObject(args->items[0], make(Kind::Tuple));
    }
    return object(callable, args);
  }
  // _codecs.encode(text, 'latin1'): every code point of the UTF-8 text is one byte (U+0000-U+00FF).
  const Value* latin1Bytes(const Value* args) {
    if (args->items.size() != 2 || args->items[0]->kind != Kind::String || args->items[1]->kind != Kind::String ||
        args->items[1]->text != "latin1")
      fail("_codecs.encode other than (str, 'latin1')");
    const std::string& text = args->items[0]->text;
    Value* v = make(Kind::Bytes);
    v->owned.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c < 0x80) {
        v->owned.push_back(static_cast<char>(c));
      } else if ((c == 0xc2 || c == 0xc3) && i + 1 < text.size() &&
                 (static_cast<unsigned char>(text[i + 1]) >> 6) == 2) {
        v->owned.push_back(static_cast<char>(((c & 0x1f) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3f)));
      } else {
        fail("_codecs.encode of text outside latin1");
      }
    }
    v->bytes = std::as_bytes(std::span<const char>(v->owned.data(), v->owned.size()));
    return v;
  }
  const Value* newObject(const Value* cls, const Value* args) {
    if (args->kind != Kind::Tuple) fail("NEWOBJ with arguments that are not a tuple");
    if (!(cls->isGlobal("oneflow", "Tensor") || cls->isGlobal("oneflow.nn", "Parameter") ||
          cls->isGlobal("oneflow._oneflow_internal", "dtype")))
      fail("NEWOBJ of '" +
           (cls->kind == Kind::Global ? cls->module + "." + cls->name : std::string(kindName(cls->kind))) +
           "' is not accepted");
    return object(cls, args);
  }
  void build(Value* target, const Value* state) {
    if (target->kind == Kind::Dict) return;  // OrderedDict's instance attributes (_metadata): not needed
    if (target->kind != Kind::Object) fail(std::string("BUILD on a ") + kindName(target->kind));
    if (target->state) fail("a second BUILD on one object");
    target->state = state;
    deepen(target, state);
  }
  void memoPut(uint64_t index) {
    if (stack_.empty()) fail("memo store with an empty stack");
    if (index > data_.size()) fail("memo index " + std::to_string(index) + " out of range");
    memo_[index] = stack_.back();
  }
  void memoGet(uint64_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) fail("memo reference " + std::to_string(index) + " to nothing");
    push(it->second);
  }

  std::span<const std::byte> data_;
  const std::string& file_;
  std::deque<Value>& arena_;
  size_t pos_ = 0, opOffset_ = 0;
  std::vector<const Value*> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, const Value*> memo_;
};

}  // namespace

const Value* Value::find(std::string_view key) const {
  if (kind != Kind::Dict) return nullptr;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (it->first->kind == Kind::String && it->first->text == key) return it->second;
  return nullptr;
}

const char* kindName(Value::Kind k) {
  switch (k) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
    case Kind::Float:
      return "float";
    case Kind::String:
      return "str";
    case Kind::Bytes:
      return "bytes";
    case Kind::Tuple:
      return "tuple";
    case Kind::List:
      return "list";
    case Kind::Dict:
      return "dict";
    case Kind::Global:
      return "global";
    case Kind::Object:
      return "object";
  }
  return "?";
}

Document decode(std::span<const std::byte> data, const std::string& file) {
  Document doc;
  Decoder d(data, file, doc.arena_);
  doc.root_ = d.run();
  return doc;
}

}  // namespace fb::oneflow::pickle
