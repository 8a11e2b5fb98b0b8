// Sequences of tensors: building, reading and editing them (Sequence*), cutting a tensor into one and joining one
// back (SplitToSequence, ConcatFromSequence), and running a body over their items (SequenceMap). A sequence's
// items share their bytes with the tensors they came from; nothing here computes on elements.
#include <string>

#include "eval/kernels/control_flow.h"
#include "eval/kernels/control_flow_tensors.h"
#include "eval/runtime/exec_context.h"
#include "eval/runtime/kernel_registry.h"
#include "ir/graph.h"

namespace fb::eval {

namespace {

// A position in a sequence of `size` items; `size` itself is allowed when `end` (an insertion point).
size_t positionIn(const Tensor& position, size_t size, bool end) {
  if (position.size() != 1 || (position.dtype() != ir::DataType::Int64 && position.dtype() != ir::DataType::Int32))
    badInput("the position is " + describe(position) + ", not one int32 or int64");
  const int64_t p = position.int64At(0);
  const auto n = static_cast<int64_t>(size);
  if (p < -n || p > (end ? n : n - 1))
    badInput("position " + std::to_string(p) + " is outside a sequence of " + std::to_string(size) + " items");
  return static_cast<size_t>(p < 0 ? p + n : p);
}

ir::DataType elementTypeOf(const Value& sequence, const Tensor* item) {
  const ir::DataType t = sequence.sequenceElementType();
  if (t == ir::DataType::Undefined && item) return item->dtype();
  return t;
}

std::vector<Value> sequenceEmpty(const KernelContext& c) {
  const int64_t dtype = c.node.attrInt("dtype", static_cast<int64_t>(ir::DataType::Float));
  if (!ir::isKnownDataType(static_cast<int32_t>(dtype)))
    badInput("dtype " + std::to_string(dtype) + " is no element type");
  return {Value::sequence({}, static_cast<ir::DataType>(dtype))};
}

std::vector<Value> sequenceConstruct(const KernelContext& c) {
  if (c.inputCount() == 0) badInput("SequenceConstruct has no inputs");
  std::vector<Tensor> items;
  items.reserve(c.inputCount());
  for (size_t k = 0; k < c.inputCount(); ++k) {
    const Tensor& t = c.input(k);
    if (t.dtype() != c.input(0).dtype())
      badInput("items " + describe(c.input(0)) + " and " + describe(t) + " differ in type");
    items.push_back(t);
  }
  return {Value::sequence(std::move(items), c.input(0).dtype())};
}

std::vector<Value> sequenceInsert(const KernelContext& c) {
  const Value& sequence = c.value(0);
  const Tensor& item = c.input(1);
  const ir::DataType type = elementTypeOf(sequence, &item);
  if (item.dtype() != type)
    badInput("inserting " + describe(item) + " into a sequence of " + std::string(ir::dataTypeName(type)));
  std::vector<Tensor> items = sequence.items();
  const Tensor* position = c.optionalInput(2);
  const size_t at = position ? positionIn(*position, items.size(), true) : items.size();
  items.insert(items.begin() + static_cast<std::ptrdiff_t>(at), item);
  return {Value::sequence(std::move(items), type)};
}

std::vector<Value> sequenceAt(const KernelContext& c) {
  const std::vector<Tensor>& items = c.value(0).items();
  return {items[positionIn(c.input(1), items.size(), false)]};
}

std::vector<Value> sequenceErase(const KernelContext& c) {
  const Value& sequence = c.value(0);
  std::vector<Tensor> items = sequence.items();
  if (items.empty()) badInput("erasing from an empty sequence");
  const Tensor* position = c.optionalInput(1);
  const size_t at = position ? positionIn(*position, items.size(), false) : items.size() - 1;
  items.erase(items.begin() + static_cast<std::ptrdiff_t>(at));
  return {Value::sequence(std::move(items), sequence.sequenceElementType())};
}

std::vector<Value> sequenceLength(const KernelContext& c) {
  return {Tensor::int64s({}, {static_cast<int64_t>(c.value(0).items().size())})};
}

std::vector<Value> splitToSequence(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() == 0) badInput("splitting a scalar");
  const size_t axis = normalizedAxis(c.node.attrInt("axis", 0), x.rank(), "axis");
  const int64_t extent = x.dim(axis);
  std::vector<Tensor> items;
  const Tensor* split = c.optionalInput(1);
  if (!split) {  // one item per entry along the axis, that axis dropped unless keepdims
    const bool keep = c.node.attrInt("keepdims", 1) != 0;
    for (int64_t k = 0; k < extent; ++k) items.push_back(sliceAlong(x, axis, k, 1, keep));
    return {Value::sequence(std::move(items), x.dtype())};
  }
  std::vector<int64_t> lengths;
  if (split->rank() == 0) {  // items of this length, the last one shorter when it does not divide
    const int64_t each = split->int64At(0);
    if (each <= 0) badInput("split length " + std::to_string(each) + " is not positive");
    for (int64_t at = 0; at < extent; at += each) lengths.push_back(std::min(each, extent - at));
  } else {
    if (split->rank() != 1) badInput("split is " + describe(*split) + ", neither a scalar nor a list of lengths");
    int64_t total = 0;
    for (int64_t k = 0; k < split->size(); ++k) {
      const int64_t n = split->int64At(k);
      if (n < 0 || n > extent - total)
        badInput("split lengths do not add up to " + std::to_string(extent) + " along axis " + std::to_string(axis));
      lengths.push_back(n);
      total += n;
    }
    if (total != extent)
      badInput("split lengths add up to " + std::to_string(total) + " where the axis has " + std::to_string(extent));
  }
  int64_t at = 0;
  for (int64_t n : lengths) {
    items.push_back(sliceAlong(x, axis, at, n, true));
    at += n;
  }
  return {Value::sequence(std::move(items), x.dtype())};
}

std::vector<Value> concatFromSequence(const KernelContext& c) {
  const std::vector<Tensor>& items = c.value(0).items();
  if (items.empty()) badInput("concatenating an empty sequence");
  if (!c.node.hasAttr("axis")) badInput("the attribute 'axis' is missing");
  const bool newAxis = c.node.attrInt("new_axis", 0) != 0;
  const size_t rank = items.front().rank() + (newAxis ? 1 : 0);
  const size_t axis = normalizedAxis(c.node.attrInt("axis", 0), rank, "axis");
  std::vector<const Tensor*> parts;
  parts.reserve(items.size());
  for (const Tensor& t : items) parts.push_back(&t);
  return {joinAlong(parts, axis, newAxis)};
}

// SequenceMap: the body runs once per item of the first input; sequence inputs give it their item at that
// position, tensor inputs give themselves every time. Each body output becomes a sequence.
std::vector<Value> sequenceMap(const KernelContext& c) {
  const ir::Attribute* a = c.node.attr("body");
  if (!a || a->type != ir::AttrType::Graph || a->graphs.empty() || !a->graphs[0])
    badInput("the graph attribute 'body' is missing");
  const ir::Graph& body = *a->graphs[0];
  const size_t count = c.value(0).items().size();
  for (size_t k = 1; k < c.inputCount(); ++k)
    if (c.value(k).isSequence() && c.value(k).items().size() != count)
      badInput("input " + std::to_string(k) + " has " + std::to_string(c.value(k).items().size()) +
               " items where the first has " + std::to_string(count));
  const Scope& outer = c.exec.currentScope();
  std::vector<std::vector<Tensor>> results(body.outputs().size());
  for (size_t i = 0; i < count; ++i) {
    c.exec.checkCancelled();
    std::vector<Value> feeds;
    feeds.reserve(c.inputCount());
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.value(k);
      feeds.push_back(v.isSequence() ? Value(v.items()[i]) : v);
    }
    std::vector<Value> outs = c.exec.runSubgraph(body, feeds, outer, c.opset);
    for (size_t k = 0; k < results.size(); ++k) results[k].push_back(outs[k].tensor());
  }
  std::vector<Value> out;
  for (size_t k = 0; k < results.size(); ++k) {
    ir::DataType type = ir::DataType::Undefined;
    if (!results[k].empty()) {
      type = results[k].front().dtype();
    } else if (const ir::Value* declared = c.node.output(k); declared && declared->type.inner) {
      type = declared->type.inner->elemType;
    }
    out.push_back(Value::sequence(std::move(results[k]), type));
  }
  return out;
}

}  // namespace

void registerSequenceKernels(KernelRegistry& r) {
  r.add("SequenceEmpty", 11, sequenceEmpty, HalfTypes::AsIs);
  r.add("SequenceConstruct", 11, sequenceConstruct, HalfTypes::AsIs);
  r.add("SequenceInsert", 11, sequenceInsert, HalfTypes::AsIs);
  r.add("SequenceAt", 11, sequenceAt, HalfTypes::AsIs);
  r.add("SequenceErase", 11, sequenceErase, HalfTypes::AsIs);
  r.add("SequenceLength", 11, sequenceLength, HalfTypes::AsIs);
  r.add("SplitToSequence", 11, splitToSequence, HalfTypes::AsIs);
  r.add("ConcatFromSequence", 11, concatFromSequence, HalfTypes::AsIs);
  r.add("SequenceMap", 17, sequenceMap, HalfTypes::AsIs);
}

}  // namespace fb::eval
