#include "formats/onnx/onnx_proto_import.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

#include "formats/onnx/external_data.h"
#include "formats/onnx/onnx_import_parts.h"
#include "ir/packed_types.h"
#include "formats/tensor_size.h"
#include "ir/topo_sort.h"
#include "util/error.h"

#include <google/protobuf/unknown_field_set.h>

namespace fb::onnxfmt {
namespace fs = std::filesystem;
using namespace fb::ir;
using detail::ImportContext;
using Context = detail::ImportContext;

namespace {

constexpr int64_t kMaxOpsetVersion = 1000;

// What the generated classes of onnx 1.12 parsed into their unknown-field set (fields of newer onnx.proto
// versions), as wire bytes; the exporter appends them back.
std::string unknownFieldsOf(const google::protobuf::Message& m) {
  const auto& set = m.GetReflection()->GetUnknownFields(m);
  std::string out;
  if (!set.empty()) set.SerializeToString(&out);
  return out;
}

template <typename Src, typename Dst>
std::string packAs(const Src& field) {
  std::string out(field.size() * sizeof(Dst), '\0');
  for (int k = 0; k < field.size(); ++k) {
    Dst v = static_cast<Dst>(field.Get(k));
    std::memcpy(out.data() + k * sizeof(Dst), &v, sizeof(Dst));
  }
  return out;
}

// Data in the typed repeated fields becomes little-endian bytes; the tensor remembers the form.
void importTypedData(onnx::TensorProto& tp, Tensor& t) {
  switch (t.dtype) {
    case DataType::Float:
    case DataType::Complex64:
      t.setBytes(packAs<decltype(tp.float_data()), float>(tp.float_data()));
      break;
    case DataType::Int32:
      t.setBytes(packAs<decltype(tp.int32_data()), int32_t>(tp.int32_data()));
      break;
    case DataType::Int16:
      t.setBytes(packAs<decltype(tp.int32_data()), int16_t>(tp.int32_data()));
      break;
    case DataType::Int8:
      t.setBytes(packAs<decltype(tp.int32_data()), int8_t>(tp.int32_data()));
      break;
    case DataType::UInt16:
    case DataType::Float16:
    case DataType::BFloat16:
      t.setBytes(packAs<decltype(tp.int32_data()), uint16_t>(tp.int32_data()));
      break;
    // Types after onnx 1.12: one int32 per byte of the packed form (a float8 element, two 4-bit or four 2-bit ones).
    case kFloat8E4M3FN:
    case kFloat8E4M3FNUZ:
    case kFloat8E5M2:
    case kFloat8E5M2FNUZ:
    case kUInt4:
    case kInt4:
    case kFloat4E2M1:
    case kFloat8E8M0:
    case kUInt2:
    case kInt2:
    case DataType::UInt8:
    case DataType::Bool:
      t.setBytes(packAs<decltype(tp.int32_data()), uint8_t>(tp.int32_data()));
      break;
    case DataType::Int64:
      t.setBytes(packAs<decltype(tp.int64_data()), int64_t>(tp.int64_data()));
      break;
    case DataType::Double:
    case DataType::Complex128:
      t.setBytes(packAs<decltype(tp.double_data()), double>(tp.double_data()));
      break;
    case DataType::UInt32:
      t.setBytes(packAs<decltype(tp.uint64_data()), uint32_t>(tp.uint64_data()));
      break;
    case DataType::UInt64:
      t.setBytes(packAs<decltype(tp.uint64_data()), uint64_t>(tp.uint64_data()));
      break;
    case DataType::String:
      t.strings.assign(tp.string_data().begin(), tp.string_data().end());
      t.setBytes({});
      break;
    default:
      t.setBytes({});
      break;
  }
  t.storage = Tensor::Storage::Typed;
}

Tensor tensorHeader(const onnx::TensorProto& tp) {
  Tensor t;
  t.name = tp.name();
  t.dtype = static_cast<DataType>(tp.data_type());
  t.dims.assign(tp.dims().begin(), tp.dims().end());
  t.docString = tp.doc_string();
  t.unknownFields = unknownFieldsOf(tp);
  if (tp.has_segment()) t.segment = std::make_pair(tp.segment().begin(), tp.segment().end());
  return t;
}

uint64_t neededBytesOf(const onnx::TensorProto& tp, const Context& ctx) {
  return detail::neededBytes(tp.name(), tp.data_type(), std::vector<int64_t>(tp.dims().begin(), tp.dims().end()), ctx);
}

}  // namespace

namespace detail {

uint64_t neededBytes(std::string_view name, int32_t dataType, const std::vector<int64_t>& dims, const Context& ctx) {
  // Built only for a message: this runs for every initializer.
  auto tensor = [&] { return "tensor '" + std::string(name) + "'"; };
  for (int64_t d : dims)
    if (d < 0) ctx.fail(tensor() + " has a negative dimension (" + std::to_string(d) + ")");
  if (dataType == 0 || !isKnownDataType(dataType))
    ctx.fail(tensor() + " has data type " + std::to_string(dataType) + ", which is not an ONNX tensor type");
  if (dataType == static_cast<int32_t>(DataType::String)) {
    if (!checkedElementCount(dims)) ctx.fail(tensor() + " has dims " + dimsText(dims) + " whose size overflows");
    return 0;
  }
  auto bytes = checkedByteSize(dims, static_cast<DataType>(dataType));
  if (!bytes) ctx.fail(tensor() + " has dims " + dimsText(dims) + " whose size overflows");
  return *bytes;
}

Tensor importTensorWithData(onnx::TensorProto& tp, std::shared_ptr<const Buffer> data, Context& ctx) {
  Tensor t = tensorHeader(tp);
  const uint64_t needed = neededBytesOf(tp, ctx);
  if (t.dtype != DataType::String && data->size() != needed)
    ctx.fail("tensor '" + tp.name() + "' holds " + std::to_string(data->size()) + " bytes, shape and type need " +
             std::to_string(needed));
  t.setBuffer(std::move(data));
  t.storage = Tensor::Storage::Raw;
  return t;
}

Tensor importTensorIn(onnx::TensorProto& tp, Context* ctx) {
  Tensor t = tensorHeader(tp);
  const uint64_t needed = ctx ? neededBytesOf(tp, *ctx) : 0;
  const bool isString = t.dtype == DataType::String;
  if (tp.data_location() == onnx::TensorProto::EXTERNAL) {
    if (!ctx) throw InputError("", "tensor '" + tp.name() + "' uses external data where none is allowed");
    ExternalRef ref;
    bool hasLength = false;
    for (const auto& e : tp.external_data()) {
      ref.entries.emplace_back(e.key(), e.value());
      try {
        size_t used = 0;
        if (e.key() == "location")
          ref.location = e.value();
        else if (e.key() == "offset")
          ref.offset = std::stoll(e.value(), &used);
        else if (e.key() == "length")
          ref.length = std::stoll(e.value(), &used), hasLength = true;
        if ((e.key() == "offset" || e.key() == "length") && used != e.value().size()) throw std::invalid_argument("");
      } catch (const std::exception&) {
        ctx->fail("tensor '" + tp.name() + "': external data " + e.key() + " '" + e.value() + "' is not a number");
      }
    }
    if (ref.offset < 0)
      ctx->fail("tensor '" + tp.name() + "': external data offset " + std::to_string(ref.offset) + " is negative");
    if (hasLength && ref.length < 0)
      ctx->fail("tensor '" + tp.name() + "': external data length " + std::to_string(ref.length) + " is negative");
    fs::path path = resolveExternalLocation(ctx->opts.modelDir, ref.location, ctx->opts.modelPath);
    uint64_t size = ctx->sizes.size(path, ctx->opts.modelPath, tp.name());
    const uint64_t offset = static_cast<uint64_t>(ref.offset);
    // Compared without adding offset and length, which could wrap around.
    if (offset > size || (hasLength && static_cast<uint64_t>(ref.length) > size - offset))
      ctx->fail("tensor '" + tp.name() + "': external data [" + std::to_string(ref.offset) + ", +" +
                (hasLength ? std::to_string(ref.length) : std::string("rest")) + ") runs past the end of '" +
                ref.location + "' (" + std::to_string(size) + " bytes)");
    const uint64_t want = hasLength ? static_cast<uint64_t>(ref.length) : size - offset;
    if (!isString && want != needed)
      ctx->fail("tensor '" + tp.name() + "': external data holds " + std::to_string(want) +
                " bytes, shape and type need " + std::to_string(needed));
    t.setExternalSource(path.string(), std::move(ref), ctx->opts.modelDir.empty() ? "." : ctx->opts.modelDir);
    ctx->sourceFiles.insert(path.string());
    return t;
  }
  if (tp.has_raw_data()) {
    std::string bytes;
    bytes.swap(*tp.mutable_raw_data());
    if (ctx && !isString && bytes.size() != needed)
      ctx->fail("tensor '" + tp.name() + "' holds " + std::to_string(bytes.size()) + " bytes, shape and type need " +
                std::to_string(needed));
    t.setBytes(std::move(bytes));
    t.storage = Tensor::Storage::Raw;
  } else {
    importTypedData(tp, t);
    // Sub-byte types (int4, float4) have no whole element size: those are counted in bytes.
    const size_t perValue = elementSize(t.dtype);
    if (ctx && !isString && t.bytes().size() != needed)
      ctx->fail("tensor '" + tp.name() + "' holds " +
                (perValue ? std::to_string(t.bytes().size() / perValue) + " values, shape " + dimsText(t.dims) +
                                " needs " + std::to_string(needed / perValue)
                          : std::to_string(t.bytes().size()) + " bytes, shape " + dimsText(t.dims) + " needs " +
                                std::to_string(needed)));
    if (ctx && isString && t.strings.size() != *checkedElementCount(t.dims))
      ctx->fail("tensor '" + tp.name() + "' holds " + std::to_string(t.strings.size()) + " strings, shape " +
                dimsText(t.dims) + " needs " + std::to_string(*checkedElementCount(t.dims)));
  }
  return t;
}

}  // namespace detail

namespace {
using detail::importTensorIn;

Shape importShape(const onnx::TensorShapeProto& sp) {
  Shape s;
  s.reserve(sp.dim_size());
  for (const auto& d : sp.dim()) {
    Dim dim;
    if (d.has_dim_value())
      dim = Dim::of(d.dim_value());
    else if (d.has_dim_param())
      dim = Dim::named(d.dim_param());
    dim.denotation = d.denotation();
    s.push_back(std::move(dim));
  }
  return s;
}

std::shared_ptr<Graph> importGraph(onnx::GraphProto& gp, Context& ctx, Graph* parent, Node* owner,
                                   const std::vector<std::shared_ptr<const Buffer>>* initializerData = nullptr);

}  // namespace

namespace detail {

Attribute importAttribute(onnx::AttributeProto& ap, Context& ctx, Graph* graph, Node* owner) {
  // Strings are moved out of the message (it is not read again): one allocation less per string.
  Attribute a;
  a.name = std::move(*ap.mutable_name());
  if (ap.has_ref_attr_name()) a.refAttrName = std::move(*ap.mutable_ref_attr_name());
  if (ap.has_doc_string()) a.docString = std::move(*ap.mutable_doc_string());
  a.unknownFields = unknownFieldsOf(ap);
  a.type = static_cast<AttrType>(ap.type());
  a.f = ap.f();
  a.i = ap.i();
  if (ap.has_s()) a.s = std::move(*ap.mutable_s());
  a.floats.assign(ap.floats().begin(), ap.floats().end());
  a.ints.assign(ap.ints().begin(), ap.ints().end());
  a.strings.assign(ap.strings().begin(), ap.strings().end());
  auto sparse = [&](onnx::SparseTensorProto& sp) {
    SparseTensor st;
    st.values = importTensorIn(*sp.mutable_values(), &ctx);
    st.indices = importTensorIn(*sp.mutable_indices(), &ctx);
    st.dims.assign(sp.dims().begin(), sp.dims().end());
    return st;
  };
  if (a.type == AttrType::Tensor) a.tensors.push_back(importTensorIn(*ap.mutable_t(), &ctx));
  for (auto& t : *ap.mutable_tensors()) a.tensors.push_back(importTensorIn(t, &ctx));
  if (a.type == AttrType::Graph) a.graphs.push_back(importGraph(*ap.mutable_g(), ctx, graph, owner));
  for (auto& g : *ap.mutable_graphs()) a.graphs.push_back(importGraph(g, ctx, graph, owner));
  if (a.type == AttrType::SparseTensor) a.sparseTensors.push_back(sparse(*ap.mutable_sparse_tensor()));
  for (auto& s : *ap.mutable_sparse_tensors()) a.sparseTensors.push_back(sparse(s));
  if (a.type == AttrType::TypeProto) a.typeProtos.push_back(importType(ap.tp()));
  for (const auto& tp : ap.type_protos()) a.typeProtos.push_back(importType(tp));
  return a;
}

void importValueInfo(const onnx::ValueInfoProto& vi, Value* v) {
  if (vi.has_type()) v->type = importType(vi.type());
  v->docString = vi.doc_string();
  if (vi.GetReflection()->GetUnknownFields(vi).field_count() > 0) v->unknownFields = unknownFieldsOf(vi);
}

std::string nodeLabel(std::string_view name, std::string_view opType, int index) {
  return name.empty() ? std::string(opType) + " node #" + std::to_string(index)
                      : "'" + std::string(name) + "' (" + std::string(opType) + ")";
}

void failOutputTwice(const Context& ctx, std::string_view name, std::string_view opType, int index,
                     const std::string& out) {
  ctx.fail("node " + nodeLabel(name, opType, index) + " lists output '" + out + "' twice");
}

void failDefinedTwice(const Context& ctx, std::string_view name, std::string_view opType, int index,
                      const std::string& out) {
  ctx.fail("value '" + out + "' is defined twice (again as an output of node " + nodeLabel(name, opType, index) + ")");
}

void importNode(onnx::NodeProto& np, Context& ctx, Graph& g, int index) {
  std::vector<Value*> ins, outs;
  ins.reserve(np.input_size());
  outs.reserve(np.output_size());
  for (const auto& in : np.input()) ins.push_back(in.empty() ? nullptr : g.getOrCreateValue(in));
  for (const auto& out : np.output()) {
    if (out.empty()) {
      outs.push_back(nullptr);
      continue;
    }
    Value* v = g.getOrCreateValue(out);
    if (std::find(outs.begin(), outs.end(), v) != outs.end()) failOutputTwice(ctx, np.name(), np.op_type(), index, out);
    if (v->producer() || v->isGraphInput() || v->initializer())
      failDefinedTwice(ctx, np.name(), np.op_type(), index, out);
    outs.push_back(v);
  }
  Node* n = g.addNode(std::move(*np.mutable_op_type()), ins, outs,
                      np.has_domain() ? std::move(*np.mutable_domain()) : std::string());
  n->name = std::move(*np.mutable_name());
  if (np.has_doc_string()) n->docString = std::move(*np.mutable_doc_string());
  n->unknownFields = unknownFieldsOf(np);
  n->origins = {n->id()};
  n->attributes.reserve(np.attribute_size());
  for (auto& ap : *np.mutable_attribute()) n->attributes.push_back(importAttribute(ap, ctx, &g, n));
}

void importGraphHeader(onnx::GraphProto& gp, Context&, Graph& g) {
  g.name = gp.name();
  g.docString = gp.doc_string();
  g.unknownFields = unknownFieldsOf(gp);
}

void importSparseInitializers(onnx::GraphProto& gp, Context& ctx, Graph& g) {
  for (auto& sp : *gp.mutable_sparse_initializer()) {
    SparseTensor st;
    st.values = importTensorIn(*sp.mutable_values(), &ctx);
    st.indices = importTensorIn(*sp.mutable_indices(), &ctx);
    st.dims.assign(sp.dims().begin(), sp.dims().end());
    g.addSparseInitializer(std::move(st));
  }
}

void importQuantizationAnnotations(const onnx::GraphProto& gp, Graph& g) {
  for (const auto& qa : gp.quantization_annotation()) {
    TensorAnnotation ta;
    ta.tensorName = qa.tensor_name();
    for (const auto& e : qa.quant_parameter_tensor_names())
      ta.quantParameterTensorNames.emplace_back(e.key(), e.value());
    g.quantizationAnnotations.push_back(std::move(ta));
  }
}

}  // namespace detail

namespace {
using detail::importAttribute;
using detail::importValueInfo;

std::shared_ptr<Graph> importGraph(onnx::GraphProto& gp, Context& ctx, Graph* parent, Node* owner,
                                   const std::vector<std::shared_ptr<const Buffer>>* initializerData) {
  auto g = std::make_shared<Graph>(ctx.ids);
  g->setOwner(parent, owner);
  detail::importGraphHeader(gp, ctx, *g);
  for (const auto& vi : gp.input()) {
    Value* v = g->getOrCreateValue(vi.name());
    importValueInfo(vi, v);
    g->addInput(v);
  }
  for (int k = 0; k < gp.initializer_size(); ++k) {
    onnx::TensorProto& tp = *gp.mutable_initializer(k);
    const Buffer* mapped =
        initializerData && k < static_cast<int>(initializerData->size()) ? (*initializerData)[k].get() : nullptr;
    if (mapped && !tp.has_raw_data() && tp.data_location() != onnx::TensorProto::EXTERNAL) {
      g->addInitializer(detail::importTensorWithData(tp, (*initializerData)[k], ctx));
      continue;
    }
    g->addInitializer(importTensorIn(tp, &ctx));
  }
  detail::importSparseInitializers(gp, ctx, *g);
  int index = 0;
  for (auto& np : *gp.mutable_node()) detail::importNode(np, ctx, *g, index++);
  for (const auto& vi : gp.output()) {
    Value* v = g->getOrCreateValue(vi.name());
    if (!v->isGraphInput() || v->type.kind == TypeInfo::Kind::None) importValueInfo(vi, v);
    g->addOutput(v);
  }
  for (const auto& vi : gp.value_info()) {
    Value* v = g->getOrCreateValue(vi.name());
    importValueInfo(vi, v);
    g->addValueInfo(v);
  }
  detail::importQuantizationAnnotations(gp, *g);
  return g;
}

// Every name a node reads must be defined in its graph or, for subgraphs, in an enclosing one.
void checkReferences(Graph& g, const Context& ctx, bool isFunctionBody) {
  for (const auto& n : g.nodes()) {
    for (Value* v : n->inputs()) {
      if (!v || !v->isUndefined()) continue;
      if (g.parent() && g.parent()->findValueInScope(v->name())) {
        g.markOuterScope(v);
        continue;
      }
      if (isFunctionBody) continue;
      std::string who = n->name.empty() ? n->opType + " node" : "node '" + n->name + "' (" + n->opType + ")";
      ctx.fail(who + " reads '" + v->name() + "', which no node, graph input or initializer produces");
    }
    for (Graph* sg : n->subgraphs()) checkReferences(*sg, ctx, isFunctionBody);
  }
  for (Value* v : g.outputs()) {
    if (!v->isUndefined()) continue;
    if (g.parent() && g.parent()->findValueInScope(v->name())) {
      g.markOuterScope(v);
      continue;
    }
    if (!isFunctionBody) ctx.fail("graph output '" + v->name() + "' is not produced by any node");
  }
}

}  // namespace

ir::TypeInfo importType(const onnx::TypeProto& tp) {
  TypeInfo t;
  t.denotation = tp.denotation();
  switch (tp.value_case()) {
    case onnx::TypeProto::kTensorType:
      t.kind = TypeInfo::Kind::Tensor;
      t.elemType = static_cast<DataType>(tp.tensor_type().elem_type());
      if (tp.tensor_type().has_shape()) t.shape = importShape(tp.tensor_type().shape());
      break;
    case onnx::TypeProto::kSparseTensorType:
      t.kind = TypeInfo::Kind::SparseTensor;
      t.elemType = static_cast<DataType>(tp.sparse_tensor_type().elem_type());
      if (tp.sparse_tensor_type().has_shape()) t.shape = importShape(tp.sparse_tensor_type().shape());
      break;
    case onnx::TypeProto::kSequenceType:
      t.kind = TypeInfo::Kind::Sequence;
      if (tp.sequence_type().has_elem_type()) t.inner = importType(tp.sequence_type().elem_type());
      break;
    case onnx::TypeProto::kOptionalType:
      t.kind = TypeInfo::Kind::Optional;
      if (tp.optional_type().has_elem_type()) t.inner = importType(tp.optional_type().elem_type());
      break;
    case onnx::TypeProto::kMapType:
      t.kind = TypeInfo::Kind::Map;
      t.elemType = static_cast<DataType>(tp.map_type().key_type());
      if (tp.map_type().has_value_type()) t.inner = importType(tp.map_type().value_type());
      break;
    default:
      break;
  }
  return t;
}

ir::Tensor importTensor(onnx::TensorProto& tp) { return importTensorIn(tp, nullptr); }

std::unique_ptr<ir::Model> importModel(onnx::ModelProto& proto, const ImportOptions& opts) {
  if (!proto.has_graph()) throw InputError(opts.modelPath, "not an ONNX model: it has no graph");
  return detail::assembleModel(proto, opts, [&](Context& ctx) {
    return importGraph(*proto.mutable_graph(), ctx, nullptr, nullptr, &opts.initializerData);
  });
}

std::unique_ptr<ir::Model> detail::assembleModel(onnx::ModelProto& proto, const ImportOptions& opts,
                                                 const MainGraphFn& mainGraph) {
  Context ctx{opts, std::make_shared<IdSource>(), {}};
  auto m = std::make_unique<Model>();
  m->sourcePath = opts.modelPath;
  m->irVersion = proto.ir_version();
  m->producerName = proto.producer_name();
  m->producerVersion = proto.producer_version();
  m->domain = proto.domain();
  m->modelVersion = proto.model_version();
  m->docString = proto.doc_string();
  m->unknownFields = unknownFieldsOf(proto);
  for (const auto& o : proto.opset_import()) {
    // Opsets start at 1; no domain is anywhere near a thousand versions.
    if (o.version() < 1 || o.version() > kMaxOpsetVersion)
      ctx.fail("opset import for domain '" + o.domain() + "' has version " + std::to_string(o.version()) +
               ", which is not an opset version (1 to " + std::to_string(kMaxOpsetVersion) + ")");
    m->opsets.push_back({o.domain(), o.version()});
  }
  for (const auto& e : proto.metadata_props()) m->metadata.emplace_back(e.key(), e.value());
  for (const auto& ti : proto.training_info()) m->trainingInfo.push_back(ti.SerializeAsString());
  m->setGraph(mainGraph(ctx));
  for (auto& fp : *proto.mutable_functions()) {
    Function f;
    f.name = fp.name();
    f.domain = fp.domain();
    f.docString = fp.doc_string();
    f.unknownFields = unknownFieldsOf(fp);
    f.attributeNames.assign(fp.attribute().begin(), fp.attribute().end());
    for (const auto& o : fp.opset_import()) f.opsets.push_back({o.domain(), o.version()});
    onnx::GraphProto body;
    for (const auto& i : fp.input()) body.add_input()->set_name(i);
    for (const auto& o : fp.output()) body.add_output()->set_name(o);
    body.mutable_node()->Swap(fp.mutable_node());
    f.body = importGraph(body, ctx, nullptr, nullptr);
    checkReferences(*f.body, ctx, true);
    m->functions.push_back(std::move(f));
  }
  checkReferences(m->graph(), ctx, false);
  m->sourceFiles.push_back(opts.modelPath);
  m->sourceFiles.insert(m->sourceFiles.end(), ctx.sourceFiles.begin(), ctx.sourceFiles.end());
  TopoResult topo = topologicalSort(m->graph());
  if (!topo.ok) {
    std::string cycle;
    for (const auto& n : topo.cycleNodes) cycle += (cycle.empty() ? "" : " -> ") + n;
    ctx.fail("the graph has a cycle: " + cycle + " -> " + topo.cycleNodes.front());
  }
  return m;
}

}  // namespace fb::onnxfmt
