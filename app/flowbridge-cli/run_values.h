#pragma once
// What `run`, `compare`, `extract --with-data` and `convert --verify` share: reading input values from .npy and
// .pb files, sizing symbolic dims (--dims), naming value files safely, and printing a value's summary.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/runtime/value.h"
#include "ir/model.h"

namespace fb::cli {

// "SYM=N" options -> map; a malformed one or N < 0 is a UsageError.
std::map<std::string, int64_t> parseDims(const std::vector<std::string>& specs);

// A value from FILE: .npy (NumPy) or .pb (ONNX TensorProto/SequenceProto/OptionalProto, as `expected` says).
// InputError naming the file when it cannot be read.
eval::Value readValueFile(const std::string& path, const ir::TypeInfo* expected);

// "NAME=FILE" options -> values for `m`'s inputs; an unknown NAME or a spec without '=' is a UsageError.
std::map<std::string, eval::Value> readInputSpecs(const ir::Model& m, const std::vector<std::string>& specs);

// Values for `m`'s inputs from a folder: DIR/<file name of the input>.npy or .pb, or DIR/input_<k>.pb (ONNX's
// test_data_set layout, by position among the inputs a run needs). Inputs without a file are left out.
std::map<std::string, eval::Value> readInputFolder(const ir::Model& m, const std::string& dir);

// A file name for a value name: letters, digits, '.', '_' and '-' kept, anything else '_' (so '/' cannot make a
// path and control characters cannot reach the file system), never starting with '.', at most 200 bytes;
// `taken` holds the names given out so far (a clash gets "_2", "_3"...).
std::string valueFileName(const std::string& valueName, std::map<std::string, int>& taken);

// "name: float[1,1000] min ... max ... mean ..." (name escaped for the terminal).
std::string valueLine(const std::string& name, const eval::Value& v);

}  // namespace fb::cli
