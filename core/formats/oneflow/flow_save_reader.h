#pragma once
// Weights saved by the pickle-based oneflow.save: format B (a folder with `pickled_data` and one
// tensor_<N>/{out,meta} folder per tensor, OneFlow 0.6-0.9 and 1.0 with save_as_external_data) and format C (one
// pickle file, OneFlow 1.0). See docs: oneflow-checkpoint-format.md sections 3 and 4. Tensor bytes stay in the
// files (mapped), nothing in the pickle is executed (pickle_reader.h).
#include <map>
#include <string>

#include "ir/tensor.h"

namespace fb::oneflow {

// A folder holding pickled_data (format B).
bool isFlowSaveFolder(const std::string& path);
// A file that starts like a pickle of protocol 2-5 (format C); cheap, reads two bytes.
bool isFlowSaveFile(const std::string& path);

// Every tensor of the saved object by name: nested dicts are joined with '.' (a state_dict gives its own keys,
// graph.state_dict() gives "<block>.<key>"), list elements by index; other values are skipped. Throws InputError
// naming the file for a pickle outside the accepted subset, a tensor whose data does not match its shape and dtype,
// a format B `path` that leaves the folder or lacks out/meta, a dtype FlowBridge cannot hold, or no tensors at all.
std::map<std::string, ir::Tensor> readFlowSave(const std::string& path);

}  // namespace fb::oneflow
