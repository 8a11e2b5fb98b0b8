#include "formats/onnx/onnx_proto_export.h"

#include <cstring>

#include "ir/packed_types.h"

#include <google/protobuf/unknown_field_set.h>

namespace fb::onnxfmt {
using namespace fb::ir;

namespace {

// Fields the reader kept as wire bytes because onnx 1.12 does not know them go back as unknown fields, which
// protobuf serializes after the known ones.
void restoreUnknownFields(const std::string& bytes, google::protobuf::Message& m) {
  if (bytes.empty()) return;
  google::protobuf::UnknownFieldSet set;
  if (set.ParseFromString(bytes)) m.GetReflection()->MutableUnknownFields(&m)->MergeFrom(set);
}

template <typename Src, typename Field>
void unpackTo(std::span<const std::byte> b, Field* field) {
  size_t n = b.size() / sizeof(Src);
  field->Reserve(static_cast<int>(n));
  for (size_t k = 0; k < n; ++k) {
    Src v;
    std::memcpy(&v, b.data() + k * sizeof(Src), sizeof(Src));
    field->Add(v);
  }
}

void exportTypedData(const Tensor& t, onnx::TensorProto& tp) {
  auto b = t.bytes();
  switch (t.dtype) {
    case DataType::Float:
    case DataType::Complex64:
      unpackTo<float>(b, tp.mutable_float_data());
      break;
    case DataType::Int32:
      unpackTo<int32_t>(b, tp.mutable_int32_data());
      break;
    case DataType::Int16:
      unpackTo<int16_t>(b, tp.mutable_int32_data());
      break;
    case DataType::Int8:
      unpackTo<int8_t>(b, tp.mutable_int32_data());
      break;
    case DataType::UInt16:
    case DataType::Float16:
    case DataType::BFloat16:
      unpackTo<uint16_t>(b, tp.mutable_int32_data());
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
      unpackTo<uint8_t>(b, tp.mutable_int32_data());
      break;
    case DataType::Int64:
      unpackTo<int64_t>(b, tp.mutable_int64_data());
      break;
    case DataType::Double:
    case DataType::Complex128:
      unpackTo<double>(b, tp.mutable_double_data());
      break;
    case DataType::UInt32:
      unpackTo<uint32_t>(b, tp.mutable_uint64_data());
      break;
    case DataType::UInt64:
      unpackTo<uint64_t>(b, tp.mutable_uint64_data());
      break;
    case DataType::String:
      for (const auto& s : t.strings) tp.add_string_data(s);
      break;
    default:
      break;
  }
}

void exportShape(const Shape& s, onnx::TensorShapeProto& sp) {
  for (const auto& d : s) {
    auto* dp = sp.add_dim();
    if (d.kind == Dim::Kind::Value)
      dp->set_dim_value(d.value);
    else if (d.kind == Dim::Kind::Param)
      dp->set_dim_param(d.param);
    if (!d.denotation.empty()) dp->set_denotation(d.denotation);
  }
}

void exportGraphFields(const Graph& g, onnx::GraphProto& gp, const ExternalizeFn& ext, bool nodesAndInitializers);
void exportGraph(const Graph& g, onnx::GraphProto& gp, const ExternalizeFn& ext) {
  exportGraphFields(g, gp, ext, true);
}

void exportSparse(const SparseTensor& st, onnx::SparseTensorProto& sp, const ExternalizeFn& ext) {
  exportTensor(st.values, *sp.mutable_values(), ext);
  exportTensor(st.indices, *sp.mutable_indices(), ext);
  for (auto d : st.dims) sp.add_dims(d);
}

void exportAttribute(const Attribute& a, onnx::AttributeProto& ap, const ExternalizeFn& ext) {
  ap.set_name(a.name);
  if (!a.refAttrName.empty()) ap.set_ref_attr_name(a.refAttrName);
  if (!a.docString.empty()) ap.set_doc_string(a.docString);
  ap.set_type(static_cast<onnx::AttributeProto::AttributeType>(a.type));
  restoreUnknownFields(a.unknownFields, ap);
  switch (a.type) {
    case AttrType::Float:
      ap.set_f(a.f);
      break;
    case AttrType::Int:
      ap.set_i(a.i);
      break;
    case AttrType::String:
      ap.set_s(a.s);
      break;
    case AttrType::Tensor:
      if (!a.tensors.empty()) exportTensor(a.tensors[0], *ap.mutable_t(), ext);
      break;
    case AttrType::Graph:
      if (!a.graphs.empty() && a.graphs[0]) exportGraph(*a.graphs[0], *ap.mutable_g(), ext);
      break;
    case AttrType::SparseTensor:
      if (!a.sparseTensors.empty()) exportSparse(a.sparseTensors[0], *ap.mutable_sparse_tensor(), ext);
      break;
    case AttrType::TypeProto:
      if (!a.typeProtos.empty()) exportType(a.typeProtos[0], *ap.mutable_tp());
      break;
    case AttrType::Floats:
      for (float f : a.floats) ap.add_floats(f);
      break;
    case AttrType::Ints:
      for (auto i : a.ints) ap.add_ints(i);
      break;
    case AttrType::Strings:
      for (const auto& s : a.strings) ap.add_strings(s);
      break;
    case AttrType::Tensors:
      for (const auto& t : a.tensors) exportTensor(t, *ap.add_tensors(), ext);
      break;
    case AttrType::Graphs:
      for (const auto& g : a.graphs) exportGraph(*g, *ap.add_graphs(), ext);
      break;
    case AttrType::SparseTensors:
      for (const auto& s : a.sparseTensors) exportSparse(s, *ap.add_sparse_tensors(), ext);
      break;
    case AttrType::TypeProtos:
      for (const auto& t : a.typeProtos) exportType(t, *ap.add_type_protos());
      break;
    default:
      break;
  }
}

void exportValueInfo(const Value* v, onnx::ValueInfoProto& vi) {
  vi.set_name(v->name());
  if (v->type.kind != TypeInfo::Kind::None) exportType(v->type, *vi.mutable_type());
  if (!v->docString.empty()) vi.set_doc_string(v->docString);
  restoreUnknownFields(v->unknownFields, vi);
}

void exportNode(const Node& n, onnx::NodeProto& np, const ExternalizeFn& ext) {
  for (Value* v : n.inputs()) np.add_input(v ? v->name() : std::string());
  for (Value* v : n.outputs()) np.add_output(v ? v->name() : std::string());
  if (!n.name.empty()) np.set_name(n.name);
  np.set_op_type(n.opType);
  if (!n.domain.empty()) np.set_domain(n.domain);
  if (!n.docString.empty()) np.set_doc_string(n.docString);
  for (const auto& a : n.attributes) exportAttribute(a, *np.add_attribute(), ext);
  restoreUnknownFields(n.unknownFields, np);
}

void exportGraphFields(const Graph& g, onnx::GraphProto& gp, const ExternalizeFn& ext, bool nodesAndInitializers) {
  if (nodesAndInitializers)
    for (const auto& n : g.nodes()) exportNode(*n, *gp.add_node(), ext);
  if (!g.name.empty()) gp.set_name(g.name);
  if (nodesAndInitializers)
    for (const auto& t : g.initializers()) exportTensor(*t, *gp.add_initializer(), ext);
  for (const auto& s : g.sparseInitializers()) exportSparse(s, *gp.add_sparse_initializer(), ext);
  if (!g.docString.empty()) gp.set_doc_string(g.docString);
  restoreUnknownFields(g.unknownFields, gp);
  for (Value* v : g.inputs()) exportValueInfo(v, *gp.add_input());
  for (Value* v : g.outputs()) exportValueInfo(v, *gp.add_output());
  for (Value* v : g.valueInfos()) exportValueInfo(v, *gp.add_value_info());
  for (const auto& qa : g.quantizationAnnotations) {
    auto* q = gp.add_quantization_annotation();
    q->set_tensor_name(qa.tensorName);
    for (const auto& [k, v] : qa.quantParameterTensorNames) {
      auto* e = q->add_quant_parameter_tensor_names();
      e->set_key(k);
      e->set_value(v);
    }
  }
}

}  // namespace

void exportType(const TypeInfo& t, onnx::TypeProto& tp) {
  if (!t.denotation.empty()) tp.set_denotation(t.denotation);
  switch (t.kind) {
    case TypeInfo::Kind::Tensor: {
      auto* tt = tp.mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elemType));
      if (t.shape) exportShape(*t.shape, *tt->mutable_shape());
      break;
    }
    case TypeInfo::Kind::SparseTensor: {
      auto* tt = tp.mutable_sparse_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elemType));
      if (t.shape) exportShape(*t.shape, *tt->mutable_shape());
      break;
    }
    case TypeInfo::Kind::Sequence: {
      auto* s = tp.mutable_sequence_type();
      if (t.inner) exportType(*t.inner, *s->mutable_elem_type());
      break;
    }
    case TypeInfo::Kind::Optional: {
      auto* s = tp.mutable_optional_type();
      if (t.inner) exportType(*t.inner, *s->mutable_elem_type());
      break;
    }
    case TypeInfo::Kind::Map: {
      auto* m = tp.mutable_map_type();
      m->set_key_type(static_cast<int32_t>(t.elemType));
      if (t.inner) exportType(*t.inner, *m->mutable_value_type());
      break;
    }
    case TypeInfo::Kind::None:
      break;
  }
}

bool exportTensorHeader(const Tensor& t, onnx::TensorProto& tp, const ExternalizeFn& ext) {
  for (auto d : t.dims) tp.add_dims(d);
  tp.set_data_type(static_cast<int32_t>(t.dtype));
  if (t.segment) {
    tp.mutable_segment()->set_begin(t.segment->first);
    tp.mutable_segment()->set_end(t.segment->second);
  }
  if (!t.name.empty()) tp.set_name(t.name);
  if (!t.docString.empty()) tp.set_doc_string(t.docString);
  restoreUnknownFields(t.unknownFields, tp);
  ExternalRef ref;
  if (ext && t.dtype != DataType::String && ext(t, ref)) {
    tp.set_data_location(onnx::TensorProto::EXTERNAL);
    for (const auto& [k, v] : ref.entries) {
      auto* e = tp.add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    return false;
  }
  if (t.storage == Tensor::Storage::Typed || t.dtype == DataType::String) {
    exportTypedData(t, tp);
    return false;
  }
  return true;
}

void exportTensor(const Tensor& t, onnx::TensorProto& tp, const ExternalizeFn& ext) {
  if (exportTensorHeader(t, tp, ext)) {
    auto b = t.bytes();
    tp.set_raw_data(b.data(), b.size());
  }
}

void exportNodeProto(const ir::Node& n, onnx::NodeProto& out, const ExternalizeFn& externalize) {
  exportNode(n, out, externalize);
}

void exportValueInfoProto(const ir::Value& v, onnx::ValueInfoProto& out) { exportValueInfo(&v, out); }

void exportModel(const Model& m, onnx::ModelProto& mp, const ExternalizeFn& ext) {
  exportGraph(m.graph(), *mp.mutable_graph(), ext);  // first: a side file gets the graph's tensors first
  exportModelHeader(m, mp, ext);
}

void exportGraphFrame(const ir::Graph& g, onnx::GraphProto& gp, const ExternalizeFn& ext) {
  exportGraphFields(g, gp, ext, /*nodesAndInitializers=*/false);
}

void exportModelHeader(const Model& m, onnx::ModelProto& mp, const ExternalizeFn& ext) {
  mp.set_ir_version(m.irVersion);
  for (const auto& o : m.opsets) {
    auto* op = mp.add_opset_import();
    if (!o.domain.empty()) op->set_domain(o.domain);
    op->set_version(o.version);
  }
  if (!m.producerName.empty()) mp.set_producer_name(m.producerName);
  if (!m.producerVersion.empty()) mp.set_producer_version(m.producerVersion);
  if (!m.domain.empty()) mp.set_domain(m.domain);
  if (m.modelVersion) mp.set_model_version(m.modelVersion);
  if (!m.docString.empty()) mp.set_doc_string(m.docString);
  restoreUnknownFields(m.unknownFields, mp);
  for (const auto& [k, v] : m.metadata) {
    auto* e = mp.add_metadata_props();
    e->set_key(k);
    e->set_value(v);
  }
  for (const auto& ti : m.trainingInfo) mp.add_training_info()->ParseFromString(ti);
  for (const auto& f : m.functions) exportFunction(f, *mp.add_functions(), ext);
}

void exportFunction(const ir::Function& f, onnx::FunctionProto& fp, const ExternalizeFn& ext) {
  fp.set_name(f.name);
  for (Value* v : f.body->inputs()) fp.add_input(v->name());
  for (Value* v : f.body->outputs()) fp.add_output(v->name());
  for (const auto& a : f.attributeNames) fp.add_attribute(a);
  for (const auto& n : f.body->nodes()) exportNode(*n, *fp.add_node(), ext);
  if (!f.docString.empty()) fp.set_doc_string(f.docString);
  for (const auto& o : f.opsets) {
    auto* op = fp.add_opset_import();
    if (!o.domain.empty()) op->set_domain(o.domain);
    op->set_version(o.version);
  }
  if (!f.domain.empty()) fp.set_domain(f.domain);
  restoreUnknownFields(f.unknownFields, fp);
}

}  // namespace fb::onnxfmt
