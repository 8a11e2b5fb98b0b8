#pragma once
// Values a run of the open model computed (Run > Run Model), by the name of the main-graph value that holds them:
// what the Tensor panel shows for a selected value or node. Owned by the Document; dropped with its model.
#include <QString>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/runtime/value.h"

namespace fb::ui {

struct RunValues {
  std::unordered_map<std::string, eval::Value> byName;  // inputs, intermediates and outputs of the main graph
  QString inputs;                                       // where the inputs came from ("seeded, seed 0", a folder)
  std::vector<std::string> notes;                       // how symbolic dims were sized
  double milliseconds = 0;
  uint64_t peakBytes = 0;
};

}  // namespace fb::ui
