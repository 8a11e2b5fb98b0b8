#pragma once
// Builds the IR from a OneFlow net: user ops become nodes in domain "oneflow" (op type = op_type_name, the
// attributes as they are), input ops become graph inputs, variable ops initializers, output/return ops nodes of
// type "output"/"return" whose outputs are the graph outputs. Value names are OneFlow's lbns ("op/out_0").
#include <map>
#include <memory>
#include <string>

#include "formats/oneflow/blob_desc.h"
#include "ir/model.h"

namespace oneflow {
class OperatorConf;
}

namespace fb::oneflow {

class WeightFolder;

// The OneFlow argument names of a node's input (output) slots, in slot order: {"x", "gamma", "beta", ...}.
// The importer records them as the string-list attributes `_input_args` / `_output_args`.
inline constexpr const char* kInputArgsAttr = "_input_args";
inline constexpr const char* kOutputArgsAttr = "_output_args";

struct JobSource {
  std::string path;    // the file, for error messages and Model::sourcePath
  std::string format;  // Model::sourceFormat ("oneflow-job", "oneflow-saved-model")
  std::string graphName;
  std::vector<const ::oneflow::OperatorConf*> ops;
  std::map<std::string, BlobDesc> blobs;  // lbn -> logical blob description (empty for SavedModel)
  std::map<std::string, std::string> metadata;
};

// Throws InputError(source.path, ...) for ops that cannot be imported (a read of an lbn no op produces, a
// variable without weights, an attribute without a value, a cycle).
std::unique_ptr<ir::Model> importJob(const JobSource& source, const WeightFolder* weights);

}  // namespace fb::oneflow
