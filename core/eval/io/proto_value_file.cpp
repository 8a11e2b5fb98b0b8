#include "eval/io/proto_value_file.h"

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include "eval/runtime/run_error.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/input_file.h"

namespace fb::eval {

namespace {

constexpr uint64_t kMaxValueFileBytes = uint64_t{4} << 30;

Tensor ownedTensor(onnx::TensorProto& tp, const std::string& path) {
  try {
    ir::Tensor t = onnxfmt::importTensor(tp);
    return Tensor::fromModel(t).copy();  // the ir::Tensor dies here: keep a copy of its bytes
  } catch (const RunError& e) {
    throw InputError(path, e.what());
  } catch (const std::exception& e) {
    throw InputError(path, std::string("not a tensor this program can read: ") + e.what());
  }
}

Value fromSequence(onnx::SequenceProto& sp, const std::string& path) {
  if (sp.elem_type() != onnx::SequenceProto::TENSOR && sp.elem_type() != onnx::SequenceProto::UNDEFINED)
    throw InputError(path, "only sequences of tensors are read");
  std::vector<Tensor> items;
  ir::DataType elem = ir::DataType::Undefined;
  for (auto& tp : *sp.mutable_tensor_values()) {
    items.push_back(ownedTensor(tp, path));
    elem = items.back().dtype();
  }
  return Value::sequence(std::move(items), elem);
}

Value fromOptional(onnx::OptionalProto& op, const std::string& path) {
  switch (op.elem_type()) {
    case onnx::OptionalProto::UNDEFINED:
      return Value::none();
    case onnx::OptionalProto::TENSOR:
      return Value(ownedTensor(*op.mutable_tensor_value(), path));
    case onnx::OptionalProto::SEQUENCE:
      return fromSequence(*op.mutable_sequence_value(), path);
    default:
      throw InputError(path, "only optionals of tensors and sequences are read");
  }
}

void toTensorProto(const Tensor& t, const std::string& name, onnx::TensorProto& out) {
  onnxfmt::exportTensor(t.toModel(name), out);
}

}  // namespace

Value readProtoValueFile(const std::string& path, const ir::TypeInfo* expected) {
  const std::string bytes = InputFile::open(path).requireAtMost(kMaxValueFileBytes, "value file").readAll();
  const auto kind = expected ? expected->kind : ir::TypeInfo::Kind::Tensor;
  if (kind == ir::TypeInfo::Kind::Sequence) {
    onnx::SequenceProto sp;
    if (!sp.ParseFromString(bytes)) throw InputError(path, "not an ONNX SequenceProto");
    return fromSequence(sp, path);
  }
  if (kind == ir::TypeInfo::Kind::Optional) {
    onnx::OptionalProto op;
    if (!op.ParseFromString(bytes)) throw InputError(path, "not an ONNX OptionalProto");
    return fromOptional(op, path);
  }
  onnx::TensorProto tp;
  if (!tp.ParseFromString(bytes)) throw InputError(path, "not an ONNX TensorProto");
  // ONNX's own bfloat16 node tests store the values as UINT16 (the same 16-bit payload, in the same fields):
  // read them as the bfloat16 the model declares.
  if (expected && expected->elemType == ir::DataType::BFloat16 && tp.data_type() == onnx::TensorProto::UINT16)
    tp.set_data_type(onnx::TensorProto::BFLOAT16);
  return Value(ownedTensor(tp, path));
}

void writeProtoValueFile(const std::string& path, const Value& v, const std::string& name) {
  std::string bytes;
  if (v.isTensor()) {
    onnx::TensorProto tp;
    toTensorProto(v.tensor(), name, tp);
    bytes = tp.SerializeAsString();
  } else if (v.isSequence()) {
    onnx::SequenceProto sp;
    sp.set_name(name);
    sp.set_elem_type(onnx::SequenceProto::TENSOR);
    for (const Tensor& t : v.items()) toTensorProto(t, "", *sp.add_tensor_values());
    bytes = sp.SerializeAsString();
  } else {
    onnx::OptionalProto op;
    op.set_name(name);
    op.set_elem_type(onnx::OptionalProto::UNDEFINED);
    bytes = op.SerializeAsString();
  }
  AtomicFile f(path);
  f.write(bytes);
  f.commit();
}

}  // namespace fb::eval
