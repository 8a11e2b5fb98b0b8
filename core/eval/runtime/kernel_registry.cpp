#include "eval/runtime/kernel_registry.h"

#include <algorithm>

#include "eval/runtime/exec_context.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

const Tensor& KernelContext::input(size_t k) const {
  if (!hasInput(k)) badInput("input " + std::to_string(k) + " is missing");
  return inputs[k]->tensor();
}

const Tensor* KernelContext::optionalInput(size_t k) const {
  if (!hasInput(k) || inputs[k]->isNone()) return nullptr;
  return &inputs[k]->tensor();
}

const Value& KernelContext::value(size_t k) const {
  if (!hasInput(k)) badInput("input " + std::to_string(k) + " is missing");
  return *inputs[k];
}

int KernelContext::threads() const { return std::max(1, exec.threads()); }

const KernelRegistry& KernelRegistry::instance() {
  static const KernelRegistry registry = [] {
    KernelRegistry r;
    r.setFamily("elementwise");
    registerElementwiseKernels(r);
    r.setFamily("shape");
    registerShapeKernels(r);
    r.setFamily("reduction");
    registerReductionKernels(r);
    r.setFamily("neural");
    registerNeuralKernels(r);
    r.setFamily("recurrent");
    registerRecurrentKernels(r);
    r.setFamily("image");
    registerImageKernels(r);
    r.setFamily("control_flow");
    registerControlFlowKernels(r);
    r.setFamily("misc");
    registerMiscKernels(r);
    r.setFamily("recent");
    registerRecentOpKernels(r);
    return r;
  }();
  return registry;
}

void KernelRegistry::add(std::string op, int sinceVersion, KernelFn fn, HalfTypes half) {
  KernelEntry e{op, sinceVersion, std::move(fn), half, family_};
  byOp_[op][sinceVersion] = std::move(e);
}

const KernelEntry* KernelRegistry::find(const std::string& op, int64_t opset) const {
  auto it = byOp_.find(op);
  if (it == byOp_.end()) return nullptr;
  auto v = it->second.upper_bound(static_cast<int>(opset));
  if (v == it->second.begin()) return nullptr;
  return &std::prev(v)->second;
}

std::vector<const KernelEntry*> KernelRegistry::entries() const {
  std::vector<const KernelEntry*> out;
  for (const auto& [op, versions] : byOp_)
    for (const auto& [since, e] : versions) out.push_back(&e);
  return out;
}

}  // namespace fb::eval
