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
// naming the file for a pickle outside the accepted subset, a tensor whose data does not match its shape and dtype
// (or whose shape overflows), a format B `path` that leaves the folder or lacks out/meta, a dtype FlowBridge cannot
// hold, no tensors at all, or a saved object whose shared references multiply its tensor names past a budget.
// Every file read (format B's pickled_data, meta and out; the single file of format C) must resolve inside
// `containDir`, checked on the opened descriptor: the model's folder when the save was found beside a graph. When
// empty, a format B folder is its own model folder and a format C file named on its own is read where it is.
// Each file kind has a size limit (file_limits.h), checked before reading.
std::map<std::string, ir::Tensor> readFlowSave(const std::string& path, const std::string& containDir = {});

}  // namespace fb::oneflow
