// If, Loop and Scan: their bodies run through ExecContext::runSubgraph in the scope of the node that owns them,
// so that names a body takes from outside resolve to the enclosing graphs' values. Values are moved between
// iterations as they are (HalfTypes::AsIs): these ops never compute on elements.
#include "eval/kernels/control_flow.h"

#include <algorithm>
#include <string>

#include "eval/kernels/control_flow_tensors.h"
#include "eval/runtime/exec_context.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"
#include "ir/graph.h"

namespace fb::eval {

namespace {

const ir::Graph& bodyAttribute(const KernelContext& c, const char* name) {
  const ir::Attribute* a = c.node.attr(name);
  if (!a || a->type != ir::AttrType::Graph || a->graphs.empty() || !a->graphs[0])
    badInput(std::string("the graph attribute '") + name + "' is missing");
  return *a->graphs[0];
}

// A single-element tensor read as a truth value or a count.
const Tensor& singleElement(const KernelContext& c, size_t k, const char* what) {
  const Tensor& t = c.input(k);
  if (t.size() != 1 || t.isString()) badInput(std::string(what) + " is " + describe(t) + ", not one number");
  return t;
}

bool truthOf(const Value& v, const char* what) {
  const Tensor& t = v.tensor();
  if (t.size() != 1 || t.isString()) badInput(std::string(what) + " is " + describe(t) + ", not one truth value");
  return t.doubleAt(0) != 0.0;
}

std::vector<Value> ifKernel(const KernelContext& c) {
  const bool cond = singleElement(c, 0, "If's condition").doubleAt(0) != 0.0;
  const ir::Graph& branch = bodyAttribute(c, cond ? "then_branch" : "else_branch");
  std::vector<Value> outs = c.exec.runSubgraph(branch, {}, c.exec.currentScope(), c.opset);
  if (outs.size() < c.node.outputs().size())
    badInput("the " + std::string(cond ? "then" : "else") + " branch computes " + std::to_string(outs.size()) +
             " outputs where the node has " + std::to_string(c.node.outputs().size()));
  return outs;
}

std::vector<Value> loopKernel(const KernelContext& c) {
  const ir::Graph& body = bodyAttribute(c, "body");
  const Scope& outer = c.exec.currentScope();
  const size_t carriedCount = c.inputCount() < 2 ? 0 : c.inputCount() - 2;
  if (body.inputs().size() != carriedCount + 2)
    badInput("the body takes " + std::to_string(body.inputs().size()) + " inputs where the Loop carries " +
             std::to_string(carriedCount) + " values (plus the iteration number and condition)");
  if (body.outputs().size() < carriedCount + 1)
    badInput("the body computes " + std::to_string(body.outputs().size()) + " outputs, fewer than the condition and " +
             std::to_string(carriedCount) + " carried values");
  const size_t scanCount = body.outputs().size() - 1 - carriedCount;

  const bool bounded = c.hasInput(0) && !c.value(0).isNone();
  const int64_t tripCount = bounded ? singleElement(c, 0, "Loop's trip count M").int64At(0) : 0;
  bool cond = true;
  if (c.hasInput(1) && !c.value(1).isNone()) cond = truthOf(c.value(1), "Loop's condition");

  std::vector<Value> carried;
  carried.reserve(carriedCount);
  for (size_t k = 0; k < carriedCount; ++k) carried.push_back(c.hasInput(k + 2) ? c.value(k + 2) : Value::none());
  std::vector<IterationStack> scanned(scanCount);
  const int64_t limit = c.exec.options().maxLoopIterations;
  for (int64_t iteration = 0; (!bounded || iteration < tripCount) && cond; ++iteration) {
    c.exec.checkCancelled();
    if (iteration >= limit)
      badInput("the Loop did not end within " + std::to_string(limit) + " iterations (the maximum for a run)");
    std::vector<Value> feeds;
    feeds.reserve(carriedCount + 2);
    feeds.emplace_back(Tensor::int64s({}, {iteration}));
    feeds.emplace_back(Tensor::scalar(ir::DataType::Bool, cond ? 1.0 : 0.0));
    for (Value& v : carried) feeds.push_back(std::move(v));
    std::vector<Value> outs = c.exec.runSubgraph(body, feeds, outer, c.opset);
    cond = truthOf(outs[0], "the body's condition output");
    for (size_t k = 0; k < carriedCount; ++k) carried[k] = std::move(outs[k + 1]);
    for (size_t k = 0; k < scanCount; ++k) scanned[k].append(outs[carriedCount + 1 + k].tensor());
  }
  std::vector<Value> result = std::move(carried);
  for (size_t k = 0; k < scanCount; ++k)
    result.emplace_back(scanned[k].finish(body.outputs()[carriedCount + 1 + k]->type));
  return result;
}

// What one Scan runs over: the state values, the scan inputs with the axis and direction each is read along,
// and the axis and direction of each scan output.
struct ScanPlan {
  size_t stateCount = 0;
  std::vector<size_t> inputAxes;
  std::vector<bool> inputReversed;
  std::vector<int64_t> outputAxes;  // as given (may be negative: relative to the stacked rank)
  std::vector<bool> outputReversed;
};

std::vector<int64_t> intsOr(const ir::Node& n, const char* name, size_t count, int64_t fill) {
  std::vector<int64_t> v = n.hasAttr(name) ? n.attrInts(name) : std::vector<int64_t>(count, fill);
  if (v.size() != count)
    badInput(std::string("'") + name + "' has " + std::to_string(v.size()) + " entries where " + std::to_string(count) +
             " are needed");
  return v;
}

// Runs the body over `scanInputs` (each already without Scan-8's batch axis) from `states`; returns the final
// states followed by the stacked scan outputs. Scan-8 passes `length` (its sequence_lens entry) and pads the
// outputs with zeros up to the inputs' full length.
std::vector<Value> runScan(const KernelContext& c, const ir::Graph& body, const ScanPlan& plan,
                           std::vector<Value> states, const std::vector<const Tensor*>& scanInputs,
                           std::optional<int64_t> length) {
  const Scope& outer = c.exec.currentScope();
  int64_t steps = -1;
  for (size_t k = 0; k < scanInputs.size(); ++k) {
    const Tensor& t = *scanInputs[k];
    if (plan.inputAxes[k] >= t.rank())
      badInput("scan input " + std::to_string(k) + " " + describe(t) + " has no axis " +
               std::to_string(plan.inputAxes[k]));
    const int64_t extent = t.dim(plan.inputAxes[k]);
    if (steps >= 0 && extent != steps)
      badInput("the scan inputs have different lengths (" + std::to_string(steps) + " and " + std::to_string(extent) +
               ")");
    steps = extent;
  }
  if (steps < 0) badInput("Scan has no scan inputs");
  const int64_t run = length ? *length : steps;
  if (run < 0 || run > steps)
    badInput("sequence length " + std::to_string(run) + " outside [0, " + std::to_string(steps) + "]");
  const size_t scanOutputCount = body.outputs().size() - plan.stateCount;
  std::vector<std::vector<Tensor>> scanned(scanOutputCount);
  for (int64_t step = 0; step < run; ++step) {
    c.exec.checkCancelled();
    std::vector<Value> feeds = std::move(states);
    for (size_t k = 0; k < scanInputs.size(); ++k) {
      const int64_t at = plan.inputReversed[k] ? run - 1 - step : step;
      feeds.emplace_back(sliceAlong(*scanInputs[k], plan.inputAxes[k], at, 1, false));
    }
    std::vector<Value> outs = c.exec.runSubgraph(body, feeds, outer, c.opset);
    states.assign(std::make_move_iterator(outs.begin()),
                  std::make_move_iterator(outs.begin() + static_cast<std::ptrdiff_t>(plan.stateCount)));
    for (size_t k = 0; k < scanOutputCount; ++k) scanned[k].push_back(outs[plan.stateCount + k].tensor());
  }
  std::vector<Value> result = std::move(states);
  for (size_t k = 0; k < scanOutputCount; ++k) {
    std::vector<Tensor>& items = scanned[k];
    if (plan.outputReversed[k]) std::reverse(items.begin(), items.end());
    const ir::TypeInfo& declared = body.outputs()[plan.stateCount + k]->type;
    const size_t rank = items.empty() ? (declared.shape ? declared.shape->size() : 0) : items.front().rank();
    const size_t axis = normalizedAxis(plan.outputAxes[k], rank + 1, "scan_output_axes entry");
    if (items.empty()) {  // no steps ran: no entries, or Scan-8's zeros for a sequence of length 0
      result.emplace_back(zeroStack(declared, axis, steps - run));
      continue;
    }
    if (run < steps) {  // Scan-8: the steps past this sequence's length are zeros
      const Tensor zero = Tensor::zeros(items.front().dtype(), items.front().dims());
      items.resize(static_cast<size_t>(steps), zero);
    }
    std::vector<const Tensor*> parts;
    parts.reserve(items.size());
    for (const Tensor& t : items) parts.push_back(&t);
    result.emplace_back(joinAlong(parts, axis, true));
  }
  return result;
}

ScanPlan scanPlan(const KernelContext& c, const ir::Graph& body, size_t scanInputCount, bool opset9) {
  ScanPlan p;
  if (body.inputs().size() < scanInputCount)
    badInput("num_scan_inputs " + std::to_string(scanInputCount) + " is more than the body's " +
             std::to_string(body.inputs().size()) + " inputs");
  p.stateCount = body.inputs().size() - scanInputCount;
  if (body.outputs().size() < p.stateCount)
    badInput("the body computes fewer outputs than the " + std::to_string(p.stateCount) + " states it carries");
  const size_t scanOutputCount = body.outputs().size() - p.stateCount;
  const std::vector<int64_t> directions =
      intsOr(c.node, opset9 ? "scan_input_directions" : "directions", scanInputCount, 0);
  for (int64_t d : directions) p.inputReversed.push_back(d != 0);
  if (!opset9) {  // Scan-8 reads every scan input along its first axis after the batch axis, forward out
    p.inputAxes.assign(scanInputCount, 0);
    p.outputAxes.assign(scanOutputCount, 0);
    p.outputReversed.assign(scanOutputCount, false);
    return p;
  }
  const std::vector<int64_t> inAxes = intsOr(c.node, "scan_input_axes", scanInputCount, 0);
  for (size_t k = 0; k < scanInputCount; ++k) {
    const Tensor& t = c.input(c.inputCount() - scanInputCount + k);
    p.inputAxes.push_back(normalizedAxis(inAxes[k], t.rank(), "scan_input_axes entry"));
  }
  p.outputAxes = intsOr(c.node, "scan_output_axes", scanOutputCount, 0);
  for (int64_t d : intsOr(c.node, "scan_output_directions", scanOutputCount, 0)) p.outputReversed.push_back(d != 0);
  return p;
}

size_t scanInputCountOf(const KernelContext& c, size_t stateAndScanInputs) {
  const int64_t m = c.node.attrInt("num_scan_inputs", -1);
  if (m < 1 || static_cast<size_t>(m) > stateAndScanInputs)
    badInput("num_scan_inputs is " + std::to_string(m) + " with " + std::to_string(stateAndScanInputs) +
             " state and scan inputs");
  return static_cast<size_t>(m);
}

std::vector<Value> scan9Kernel(const KernelContext& c) {
  const ir::Graph& body = bodyAttribute(c, "body");
  const size_t scanInputCount = scanInputCountOf(c, c.inputCount());
  const ScanPlan plan = scanPlan(c, body, scanInputCount, true);
  if (plan.stateCount + scanInputCount != c.inputCount())
    badInput("the body takes " + std::to_string(body.inputs().size()) + " inputs where the node gives " +
             std::to_string(c.inputCount()));
  std::vector<Value> states;
  for (size_t k = 0; k < plan.stateCount; ++k) states.push_back(c.value(k));
  std::vector<const Tensor*> scanInputs;
  for (size_t k = plan.stateCount; k < c.inputCount(); ++k) scanInputs.push_back(&c.input(k));
  return runScan(c, body, plan, std::move(states), scanInputs, std::nullopt);
}

// Scan-8: every state and scan input has a leading batch axis, each batch entry is scanned on its own (for its
// sequence_lens entry of steps when given) and the results are stacked again along that axis.
std::vector<Value> scan8Kernel(const KernelContext& c) {
  const ir::Graph& body = bodyAttribute(c, "body");
  if (c.inputCount() < 1) badInput("Scan-8 has no inputs");
  const size_t scanInputCount = scanInputCountOf(c, c.inputCount() - 1);
  const ScanPlan plan = scanPlan(c, body, scanInputCount, false);
  if (plan.stateCount + scanInputCount + 1 != c.inputCount())
    badInput("the body takes " + std::to_string(body.inputs().size()) + " inputs where the node gives " +
             std::to_string(c.inputCount() - 1) + " states and scan inputs");
  int64_t batch = -1;
  for (size_t k = 1; k < c.inputCount(); ++k) {
    const Tensor& t = c.input(k);
    if (t.rank() < 1 || (batch >= 0 && t.dim(0) != batch))
      badInput("input " + std::to_string(k) + " " + describe(t) + " does not have the batch size of the others");
    batch = t.dim(0);
  }
  const Tensor* lengths = c.optionalInput(0);
  if (lengths && lengths->size() != batch)
    badInput("sequence_lens has " + std::to_string(lengths->size()) + " entries for a batch of " +
             std::to_string(batch));
  const size_t outputCount = body.outputs().size();
  std::vector<std::vector<Tensor>> perBatch(outputCount);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Value> states;
    for (size_t k = 0; k < plan.stateCount; ++k) states.emplace_back(sliceAlong(c.input(k + 1), 0, b, 1, false));
    std::vector<Tensor> slices;
    slices.reserve(scanInputCount);
    for (size_t k = 0; k < scanInputCount; ++k)
      slices.push_back(sliceAlong(c.input(1 + plan.stateCount + k), 0, b, 1, false));
    std::vector<const Tensor*> scanInputs;
    for (const Tensor& t : slices) scanInputs.push_back(&t);
    std::optional<int64_t> length;
    if (lengths) length = lengths->int64At(b);
    std::vector<Value> outs = runScan(c, body, plan, std::move(states), scanInputs, length);
    for (size_t k = 0; k < outputCount; ++k) perBatch[k].push_back(outs[k].tensor());
  }
  std::vector<Value> result;
  for (size_t k = 0; k < outputCount; ++k) {
    if (batch == 0) {  // the states as given, the scan outputs [0, steps, ...]
      if (k < plan.stateCount) {
        result.push_back(c.value(k + 1));
        continue;
      }
      const Tensor& first = c.input(1 + plan.stateCount);
      const int64_t steps = first.rank() > 1 ? first.dim(1) : 0;
      Tensor none = zeroStack(body.outputs()[k]->type, 0, 0);
      std::vector<int64_t> dims = none.dims();
      dims.insert(dims.begin() + 1, steps);
      result.emplace_back(Tensor::empty(none.dtype(), dims));
      continue;
    }
    std::vector<const Tensor*> parts;
    for (const Tensor& t : perBatch[k]) parts.push_back(&t);
    result.emplace_back(joinAlong(parts, 0, true));
  }
  return result;
}

}  // namespace

void registerControlFlowKernels(KernelRegistry& r) {
  r.add("If", 1, ifKernel, HalfTypes::AsIs);
  r.add("Loop", 1, loopKernel, HalfTypes::AsIs);
  r.add("Scan", 8, scan8Kernel, HalfTypes::AsIs);
  r.add("Scan", 9, scan9Kernel, HalfTypes::AsIs);
  registerSequenceKernels(r);
  registerOptionalKernels(r);
}

}  // namespace fb::eval
