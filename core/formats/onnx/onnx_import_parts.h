#pragma once
// The pieces of ModelProto -> ir::Model that both readers share: the protobuf one (onnx_proto_import) and the
// wire decoder that builds the IR straight from a mapped file (onnx_wire_import). Internal to formats/onnx.
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <onnx/onnx_pb.h>

#include "formats/onnx/external_data.h"
#include "formats/onnx/onnx_proto_import.h"
#include "ir/model.h"
#include "util/error.h"

namespace fb::onnxfmt::detail {

struct ImportContext {
  const ImportOptions& opts;
  std::shared_ptr<ir::IdSource> ids;
  SideFileSizes sizes;
  std::set<std::string> sourceFiles{};  // side files, for Model::sourceFiles
  [[noreturn]] void fail(const std::string& reason) const { throw InputError(opts.modelPath, reason); }
};

// The bytes a tensor's dims and data type call for; fails for negative dims, unknown types and sizes that overflow.
uint64_t neededBytes(std::string_view name, int32_t dataType, const std::vector<int64_t>& dims,
                     const ImportContext& ctx);

ir::Tensor importTensorIn(onnx::TensorProto& tp, ImportContext* ctx);
// An initializer whose raw_data the caller holds (`data`): the header from `tp`, the size checked.
ir::Tensor importTensorWithData(onnx::TensorProto& tp, std::shared_ptr<const ir::Buffer> data, ImportContext& ctx);
ir::Attribute importAttribute(onnx::AttributeProto& ap, ImportContext& ctx, ir::Graph* graph, ir::Node* owner);
void importValueInfo(const onnx::ValueInfoProto& vi, ir::Value* v);
// Appends one node; checks that its outputs are not defined twice.
void importNode(onnx::NodeProto& np, ImportContext& ctx, ir::Graph& g, int index);
// The graph-level fields other than nodes, initializers, inputs, outputs and value_info: name, doc_string,
// sparse initializers, quantization annotations, unknown fields.
void importGraphHeader(onnx::GraphProto& gp, ImportContext& ctx, ir::Graph& g);
void importSparseInitializers(onnx::GraphProto& gp, ImportContext& ctx, ir::Graph& g);
void importQuantizationAnnotations(const onnx::GraphProto& gp, ir::Graph& g);

std::string nodeLabel(std::string_view name, std::string_view opType, int index);
[[noreturn]] void failOutputTwice(const ImportContext& ctx, std::string_view name, std::string_view opType, int index,
                                  const std::string& out);
[[noreturn]] void failDefinedTwice(const ImportContext& ctx, std::string_view name, std::string_view opType, int index,
                                   const std::string& out);

// Everything of a model except its main graph from `proto` (metadata, opsets, functions), the main graph from
// `mainGraph`, then the checks over the whole model (references, cycles).
using MainGraphFn = std::function<std::shared_ptr<ir::Graph>(ImportContext&)>;
std::unique_ptr<ir::Model> assembleModel(onnx::ModelProto& proto, const ImportOptions& opts,
                                         const MainGraphFn& mainGraph);

}  // namespace fb::onnxfmt::detail
