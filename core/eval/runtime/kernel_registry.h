#pragma once
// The evaluator's kernels, one per (op, since-version) of the default ONNX domain, as the converter's handlers
// are: for a model importing opset N the kernel with the highest since-version <= N runs, so the same node means
// what it meant at the opset the model imports. Each family of ops registers itself from its own file
// (kernels/*.cpp) through the functions listed in kernel_families.h; the table is data (`flowbridge-cli ops --eval`).
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "eval/runtime/value.h"
#include "ir/node.h"

namespace fb::ir {
class Graph;
}

namespace fb::eval {

class ExecContext;

// What a kernel sees: the node (attributes), its inputs (nullptr for an omitted optional one), the opset the model
// imports, and the run (threads, subgraphs for If/Loop/Scan).
struct KernelContext {
  const ir::Node& node;
  std::span<const Value* const> inputs;
  int64_t opset;
  ExecContext& exec;

  size_t inputCount() const { return inputs.size(); }
  bool hasInput(size_t k) const { return k < inputs.size() && inputs[k] != nullptr; }
  // The tensor at input k; throws RunError(BadInput) when it is missing or not a tensor.
  const Tensor& input(size_t k) const;
  // Null when the optional input is omitted (or absent, or an empty optional).
  const Tensor* optionalInput(size_t k) const;
  const Value& value(size_t k) const;  // any kind; throws when missing
  // Threads the run may use in this kernel (>= 1).
  int threads() const;
};

using KernelFn = std::function<std::vector<Value>(const KernelContext&)>;

// How a kernel wants float16 / bfloat16 inputs: as they are, or widened to float with its float results rounded
// back to the input's type (what other runtimes do for elementwise math; one rounding per op).
enum class HalfTypes { AsIs, ViaFloat };

struct KernelEntry {
  std::string op;
  int sinceVersion;
  KernelFn fn;
  HalfTypes half = HalfTypes::ViaFloat;
  std::string family;  // the file that registered it ("elementwise", "nn", ...)
};

class KernelRegistry {
 public:
  static const KernelRegistry& instance();

  void add(std::string op, int sinceVersion, KernelFn fn, HalfTypes half = HalfTypes::ViaFloat);
  // Family of the kernels added from now on (for the printed table).
  void setFamily(std::string family) { family_ = std::move(family); }
  // The kernel for `op` at `opset`: the highest since-version <= opset; null when none.
  const KernelEntry* find(const std::string& op, int64_t opset) const;
  // Every entry, by op then since-version.
  std::vector<const KernelEntry*> entries() const;

 private:
  std::map<std::string, std::map<int, KernelEntry>> byOp_;
  std::string family_;
};

}  // namespace fb::eval
