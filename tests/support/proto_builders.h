#pragma once
// Small hand-made ModelProtos for the tests that need a specific defect (a cycle, an undefined input, ...).
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace fb::test {

// A chain of Relu nodes x -> n0 -> n1 -> ... -> y, stored in the given order of indices.
onnx::ModelProto reluChain(int length, const std::vector<int>& storedOrder = {});
// Two nodes that feed each other: a = Relu(b), b = Relu(a).
onnx::ModelProto cyclicModel();
// A node reading a value nothing produces.
onnx::ModelProto undefinedInputModel();
// A model with one float initializer of `elements` elements stored as external data at `location`.
onnx::ModelProto externalDataModel(const std::string& location, int64_t elements, int64_t offset = 0);
void saveProto(const onnx::ModelProto& m, const std::string& path);

}  // namespace fb::test

namespace fb::test {
// Writes a single-file ONNX model whose initializers' raw_data add up to more than protobuf's 2 GB limit
// (wire format streamed by hand: protobuf itself refuses to serialize it). Tensor k holds `elements` floats
// where element i is (i % 9973) + k. Returns the file size.
uint64_t writeOversizedSingleFileModel(const std::string& path, int tensors, int64_t elements);
}  // namespace fb::test

namespace fb::test {
// Field-by-field equality of two models (unset and default values count as equal); differences go to `report`.
bool equivalentModels(const onnx::ModelProto& a, const onnx::ModelProto& b, std::string* report);
}  // namespace fb::test
