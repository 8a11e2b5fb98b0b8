// GatherND exists from 11, with batch_dims from 12. Below (or with batch_dims below 12), with static shapes,
// it is one Gather on the data flattened over its batch and indexed dims: the flat position of each index
// tuple is the batch position times the indexed block's size plus sum(index_j * stride_j). A negative
// index i in [-s, s) becomes i + s - s * ((i + s) / s) (integer division), which is exact at every opset.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

int64_t product(const std::vector<int64_t>& v, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= v[i];
  return p;
}

void flatGather(ir::Node& n, HandlerContext& ctx) {
  const int64_t batchDims = n.attrInt("batch_dims", 0);
  if (ctx.targetOpset >= 12 || (ctx.targetOpset >= 11 && batchDims == 0)) return compatibleVersionStep(n, ctx);
  auto d = ctx.staticShape(n.input(0));
  auto ix = ctx.staticShape(n.input(1));
  if (!d || !ix)
    throw Unsupported("GatherND below opset " + std::string(batchDims ? "12 with batch_dims" : "11") +
                      " needs static shapes of data and indices");
  const size_t b = static_cast<size_t>(batchDims), q = ix->size(), r = d->size();
  if (q < 1 || b >= q || b >= r) throw std::runtime_error("GatherND: batch_dims does not fit the ranks");
  const size_t k = static_cast<size_t>(ix->back());
  if (k < 1 || b + k > r)
    throw Unsupported("GatherND: index tuples of length " + std::to_string(k) + " are not written out below opset 11");
  for (size_t i = 0; i < b; ++i)
    if ((*d)[i] != (*ix)[i]) throw std::runtime_error("GatherND: batch dims of data and indices differ");
  ctx.note = "one Gather on data flattened over " + std::to_string(b + k) + " dims (static shapes)";
  if (!ctx.commit()) return;

  const std::string base = n.name.empty() ? "gathernd" : n.name;
  auto op = [&](const char* type, std::vector<ir::Value*> ins) {
    ir::Value* out = ctx.newValue(base + "_" + type);
    ctx.insertNode(n, type, ins, {out});
    return out;
  };
  std::vector<int64_t> sizes(d->begin() + static_cast<long>(b), d->begin() + static_cast<long>(b + k));
  std::vector<int64_t> strides(k, 1);
  for (size_t j = k; j-- > 1;) strides[j - 1] = strides[j] * sizes[j];
  ir::Value* s = ctx.constantInt64(base + "_sizes", sizes);
  ir::Value* shifted = op("Add", {n.input(1), s});
  ir::Value* wraps = op("Div", {shifted, s});  // 1 for a non-negative index, 0 for a negative one
  ir::Value* normalized = op("Sub", {shifted, op("Mul", {wraps, s})});
  ir::Value* weighted = op("Mul", {normalized, ctx.constantInt64(base + "_strides", strides)});
  ir::Value* flat = ctx.newValue(base + "_flat_index");
  ir::Node* sum = ctx.insertNode(n, "ReduceSum", {weighted}, {flat});
  sum->setAttr(ir::Attribute::makeInts("axes", {static_cast<int64_t>(q - 1)}));
  sum->setAttr(ir::Attribute::makeInt("keepdims", 0));
  if (b > 0) {
    const int64_t block = product(*d, b, b + k);
    std::vector<int64_t> offsets(static_cast<size_t>(product(*d, 0, b)));
    for (size_t i = 0; i < offsets.size(); ++i) offsets[i] = static_cast<int64_t>(i) * block;
    std::vector<int64_t> shape(d->begin(), d->begin() + static_cast<long>(b));
    shape.resize(q - 1, 1);
    ir::Value* off = op("Reshape", {ctx.constantInt64(base + "_batch_offsets", offsets),
                                    ctx.constantInt64(base + "_offset_shape", shape)});
    flat = op("Add", {flat, off});
  }
  std::vector<int64_t> dataShape{product(*d, 0, b + k)};
  dataShape.insert(dataShape.end(), d->begin() + static_cast<long>(b + k), d->end());
  ir::Value* data = op("Reshape", {n.input(0), ctx.constantInt64(base + "_data_shape", dataShape)});
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ctx.insertNode(n, "Gather", {data, flat}, {y})->setAttr(ir::Attribute::makeInt("axis", 0));
  ctx.removeReplaced(n);
}

}  // namespace

void registerGatherNDAdapters(HandlerRegistry& r) {
  add(r, "GatherND", 7,
      "opsets 7-11: static shapes -> one Gather on flattened data (batch_dims below 12, the op below 11)", flatGather);
  add(r, "GatherND", 12, "opset 12+: compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
