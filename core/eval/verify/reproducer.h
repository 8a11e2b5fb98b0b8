#pragma once
// A reproducer of part of a model: the cut (extract_subgraph.h) as a model of its own that passes the check, and,
// from a run of the whole model, the values of its inputs and the outputs it must give, in ONNX's
// test_data_set_0/input_<k>.pb and output_<k>.pb layout. What `flowbridge-cli extract --with-data` and the app's
// Extract Subgraph... write, so that a node that diverges can be run anywhere else.
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "eval/runtime/run.h"
#include "ir/model.h"

namespace fb::eval {

// The cut does not pass the check on its own; `lines` are the check's messages ("<file>: subgraph check: ...").
class ReproducerCheckFailed : public std::runtime_error {
 public:
  explicit ReproducerCheckFailed(std::vector<std::string> lines)
      : std::runtime_error("the cut subgraph does not pass the check; nothing written"), lines_(std::move(lines)) {}
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
};

// Runs `m` on `inputs` keeping the values named in `keep`: the inputs, the kept values and the graph outputs by
// name. Throws RunError as runModel does.
std::map<std::string, Value> runKeeping(const ir::Model& m, std::map<std::string, Value> inputs,
                                        const std::vector<std::string>& keep, RunOptions options = {});

// Gives each value of `m` named in `names` that inference left without a type (or a shape) the type of its value
// in `values`: a cut's ends must be typed, and a run knows every dim.
void typeFromRun(ir::Model& m, const std::vector<std::string>& names, const std::map<std::string, Value>& values);

// extractSubgraph, then the check a conversion's result passes (FlowBridge's structural check above opset 17).
// Throws std::invalid_argument (see extractSubgraph) or ReproducerCheckFailed naming `shownFile` in its lines.
std::unique_ptr<ir::Model> cutReproducer(const ir::Model& m, const std::vector<std::string>& outputs,
                                         const std::vector<std::string>& inputs, const std::string& shownFile);

struct ReproducerFiles {
  std::string model;    // the subgraph (.onnx)
  std::string dataSet;  // DIR/test_data_set_0, or empty for none
  size_t pbFiles = 0;   // input_<k>.pb and output_<k>.pb written
};

// Writes `cut` (of `source`) to `modelPath` and, when `dataFolder` is not empty, its inputs' and outputs' values
// from `values` to dataFolder/test_data_set_0. Each appears whole or not at all: the data set is written as a
// temporary folder beside its place and moved in after the model is written, so a failure leaves neither (an old
// data set stays until the new one replaces it). Refuses to write over the source's files or a folder holding
// them (the cut takes the source's file list for that). Throws OutputError, or InputError naming `source` when `values`
// lacks a value of the cut's ends.
ReproducerFiles writeReproducer(const ir::Model& source, ir::Model& cut, const std::map<std::string, Value>& values,
                                const std::string& modelPath, const std::string& dataFolder);

}  // namespace fb::eval
