#pragma once
// Runs an ONNX model on the evaluator's kernels: the reference FlowBridge checks conversions with (`run`,
// `convert --verify`, `compare`, the app's Verify) and the kernels constant folding uses.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "eval/runtime/memory_budget.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/value.h"
#include "ir/model.h"

namespace fb::eval {

struct RunOptions {
  // Which intermediate values the result keeps: none (each value is freed after its last reader), those named in
  // `keepValues`, or all of them (main graph only).
  enum class Keep { None, Listed, All };
  Keep keep = Keep::None;
  std::set<std::string> keepValues;
  int threads = 0;                      // 0: every hardware thread
  int64_t maxLoopIterations = 1 << 24;  // a Loop whose trip count and condition never stop it: BadInput
  uint64_t maxLiveBytes = 0;            // 0: defaultRunMemoryBytes()
  // Called after each main-graph node: nodes done, nodes in all. Runs on the evaluating thread.
  std::function<void(size_t done, size_t total)> progress;
  // Checked between nodes (and between Loop iterations); set from any thread to stop with RunError(Cancelled).
  const std::atomic<bool>* cancel = nullptr;
};

struct RunResult {
  std::vector<std::pair<std::string, Value>> outputs;  // in the graph's output order
  std::vector<std::pair<std::string, Value>> kept;     // in the order they were computed
  uint64_t peakBytes = 0;                              // most tensor bytes the run held at once (inputs excluded)
};

// Inputs by graph-input name; an input with an initializer may be omitted (its initializer is used).
// Throws RunError naming the node and the reason.
RunResult runModel(const ir::Model& m, const std::map<std::string, Value>& inputs, const RunOptions& o = {});

}  // namespace fb::eval
