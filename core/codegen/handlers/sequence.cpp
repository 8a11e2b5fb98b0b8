// Sequences and optionals as plain Python: an ONNX sequence is a list of tensors, an empty optional is None.
// Positions may be negative (counted from the back), as Python's own list indices are.
#include "codegen/handlers/handler_families.h"

namespace fb::codegen {
namespace {

// A Python int for a one-element input: the literal when constant, else `int(x)`.
std::string position(PyNode& p, size_t i) {
  if (auto v = p.constInts(i); v && v->size() == 1) return pyInt((*v)[0]);
  return "int(" + p.in(i) + ")";
}

// Whether an input holds a sequence: from its type when known, else nullopt (decided at run time).
std::optional<bool> isSequence(PyNode& p, size_t i) {
  const ir::Value* v = p.mb.resolve(p.inputValue(i));
  if (!v || v->type.kind == ir::TypeInfo::Kind::None) return std::nullopt;
  return v->type.kind == ir::TypeInfo::Kind::Sequence;
}

void registerSequences(convert::HandlerRegistry& r) {
  addPy(r, "SequenceEmpty", 11, "[]", [](PyNode& p) { p.assign("[]"); });
  addPy(r, "SequenceConstruct", 11, "[a, b, ...]", [](PyNode& p) {
    std::string items;
    for (size_t i = 0; i < p.inputCount(); ++i) items += (i ? ", " : "") + p.in(i);
    p.assign("[" + items + "]");
  });
  addPy(r, "SequenceInsert", 11, "a new list with the tensor inserted (at the end by default)", [](PyNode& p) {
    std::string seq = p.in(0), t = p.in(1);
    if (!p.has(2)) return p.assign(seq + " + [" + t + "]");
    std::string out = p.out(0);
    p.line(out + " = list(" + seq + ")");
    p.line(out + ".insert(" + position(p, 2) + ", " + t + ")");
  });
  addPy(r, "SequenceAt", 11, "seq[position]", [](PyNode& p) { p.assign(p.in(0) + "[" + position(p, 1) + "]"); });
  addPy(r, "SequenceErase", 11, "a new list without the element (the last by default)", [](PyNode& p) {
    std::string seq = p.in(0);
    if (!p.has(1)) return p.assign(seq + "[:-1]");
    std::string out = p.out(0);
    p.line(out + " = list(" + seq + ")");
    p.line("del " + out + "[" + position(p, 1) + "]");
  });
  addPy(r, "SequenceLength", 11, "len(seq) as an int64 scalar",
        [](PyNode& p) { p.assign("T.tensor(len(" + p.in(0) + "), dtype=T.int64)"); });
  addPy(r, "SplitToSequence", 11, "list(T.split(...)) / list(x.unbind(axis))", [](PyNode& p) {
    std::string x = p.in(0);
    const int64_t axis = p.attrInt("axis", 0);
    const std::string dim = pyInt(axis);
    if (!p.has(1)) {
      // Slices of size 1; keepdims=0 drops the split axis.
      if (p.attrInt("keepdims", 1) == 0) return p.assign("list(" + x + ".unbind(" + dim + "))");
      return p.assign("list(T.split(" + x + ", 1, dim=" + dim + "))");
    }
    // A scalar split is a chunk size, a 1-D one the list of sizes: tolist() gives an int or a list.
    std::string split;
    if (auto v = p.constInts(1))
      split = p.constant(1)->dims.empty() ? pyInt((*v)[0]) : pyIntList(*v);
    else
      split = p.in(1) + ".tolist()";
    p.assign("list(T.split(" + x + ", " + split + ", dim=" + dim + "))");
  });
  addPy(r, "ConcatFromSequence", 11, "T.cat(seq) or T.stack(seq) (new_axis)", [](PyNode& p) {
    const std::string dim = pyInt(p.attrInt("axis", 0));
    if (p.attrInt("new_axis", 0) != 0) return p.assign("T.stack(" + p.in(0) + ", dim=" + dim + ")");
    p.assign("T.cat(" + p.in(0) + ", dim=" + dim + ")");
  });
  addPy(r, "SequenceMap", 17, "a for loop over the sequence, the body inline", [](PyNode& p) {
    const ir::Attribute* a = p.attr("body");
    if (!a || a->graphs.empty() || !a->graphs[0]) p.unsupported("no 'body'");
    const ir::Graph& body = *a->graphs[0];
    if (body.outputs().size() != p.outputCount())
      p.unsupported("the body and the node differ in their number of outputs");
    std::string first = p.in(0);
    std::vector<std::string> outs;
    for (size_t k = 0; k < p.outputCount(); ++k) {
      outs.push_back(p.outUsed(k) ? p.out(k) : p.temp("mapped"));
      p.line(outs.back() + " = []");
    }
    std::string i = p.temp("i");
    // Arguments first, so that reading them does not write lines inside the loop for the wrong node.
    std::vector<std::pair<std::string, std::optional<bool>>> args;
    for (size_t k = 0; k < p.inputCount(); ++k)
      args.push_back({p.in(k), k == 0 ? std::optional<bool>(true) : isSequence(p, k)});
    p.line("for " + i + " in range(len(" + first + ")):");
    p.indent();
    std::vector<std::string> inputs;
    for (auto& [e, seq] : args) {
      if (!seq)
        inputs.push_back("(" + e + "[" + i + "] if isinstance(" + e + ", list) else " + e + ")");
      else
        inputs.push_back(*seq ? e + "[" + i + "]" : e);
    }
    auto results = p.body(body, inputs);
    for (size_t k = 0; k < outs.size(); ++k) p.line(outs[k] + ".append(" + results[k] + ")");
    p.dedent();
  });
}

void registerOptionals(convert::HandlerRegistry& r) {
  addPy(r, "Optional", 15, "the value itself, or None when empty", [](PyNode& p) {
    if (p.has(0)) return p.alias(0, p.in(0));
    p.assign("None");
  });
  addPy(r, "OptionalHasElement", 15, "T.tensor(x is not None)", [](PyNode& p) {
    if (!p.has(0)) return p.assign("T.tensor(False)");
    p.assign("T.tensor(" + p.in(0) + " is not None)");
  });
  addPy(r, "OptionalGetElement", 15, "the value itself", [](PyNode& p) { p.alias(0, p.in(0)); });
}

}  // namespace

void registerSequenceCode(convert::HandlerRegistry& r) {
  registerSequences(r);
  registerOptionals(r);
}

}  // namespace fb::codegen
