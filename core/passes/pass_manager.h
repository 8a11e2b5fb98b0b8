#pragma once
// Runs a list of passes over a model repeatedly until none changes anything (capped), with statistics.
// Before each round it refreshes value types from shape inference, so passes can ask for static shapes.
#include <string>
#include <vector>

#include "passes/pass.h"

namespace fb::passes {

struct PassStats {
  std::string name;
  size_t runs = 0;
  double milliseconds = 0;
  PassChange total;
};

struct PassManagerResult {
  std::vector<PassStats> perPass;  // in pipeline order
  size_t iterations = 0;
  bool reachedFixpoint = true;
  size_t nodesBefore = 0, nodesAfter = 0;
  double milliseconds = 0;
  double typeInferenceMilliseconds = 0;  // libonnx shape inference before each iteration (part of the total)
};

class PassManager {
 public:
  // Throws std::invalid_argument naming an unknown pass.
  explicit PassManager(const std::vector<std::string>& passNames, size_t maxIterations = 16);
  PassManagerResult run(ir::Model& m);

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
  size_t maxIterations_;
};

}  // namespace fb::passes
