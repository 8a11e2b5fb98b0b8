#include "schema/opsets_18_26/type_constraints.h"

#include <onnx/defs/schema.h>

#include <algorithm>

#include "schema/opsets.h"
#include "schema/opsets_18_26/op_facts.h"
#include "ir/packed_types.h"

namespace fb::schema::opsets_18_26 {
namespace {

using D = ir::DataType;
using Types = std::set<D>;

const Types kFloats{D::Float16, D::Float, D::Double, D::BFloat16};
const Types kInts{D::Int8, D::Int16, D::Int32, D::Int64, D::UInt8, D::UInt16, D::UInt32, D::UInt64};
const Types kFloat8{ir::kFloat8E4M3FN, ir::kFloat8E4M3FNUZ, ir::kFloat8E5M2, ir::kFloat8E5M2FNUZ};
const Types kInt64{D::Int64};
const Types kIndex{D::Int32, D::Int64};

Types operator+(Types a, const Types& b) {
  a.insert(b.begin(), b.end());
  return a;
}

// Every tensor element type the IR version of `opset` has (string included).
Types allTypesAt(int64_t opset) {
  Types t;
  for (int i = 1; i <= 26; ++i)
    if (ir::minIrVersionFor(static_cast<D>(i)) <= irVersionForOpset(opset)) t.insert(static_cast<D>(i));
  return t;
}

TypeSignature::Formal in(std::string name, std::string var) { return {std::move(name), std::move(var)}; }

// The signature of libonnx's opset-17 schema of `op` (tensor types only; sequence/optional types are left out).
std::optional<TypeSignature> fromLibonnx(const std::string& op) {
  const auto* s = onnx::OpSchemaRegistry::Schema(op, static_cast<int>(kLibonnxMaxOpset), "");
  if (!s) return std::nullopt;
  TypeSignature sig;
  auto formals = [&](const std::vector<onnx::OpSchema::FormalParameter>& fs, std::vector<TypeSignature::Formal>& out) {
    for (const auto& f : fs) {
      TypeSignature::Formal x{f.GetName(), f.GetTypeStr(), f.GetOption() == onnx::OpSchema::Variadic,
                              f.GetOption() == onnx::OpSchema::Variadic && !f.GetIsHomogeneous()};
      out.push_back(x);
      Types& allowed = sig.allowed[x.typeVar];
      for (const auto* t : f.GetTypes()) {
        const std::string& str = *t;
        if (str.rfind("tensor(", 0) != 0) continue;
        if (auto d = ir::dataTypeFromName(str.substr(7, str.size() - 8))) allowed.insert(*d);
      }
    }
  };
  formals(s->inputs(), sig.inputs);
  formals(s->outputs(), sig.outputs);
  return sig;
}

// Variables that take any tensor type (float and integer and bool alike): the ones the type sweeps widen.
bool anyTypeVar(const Types& t) { return t.count(D::Float) && t.count(D::Int8) && t.count(D::Bool); }
bool floatVar(const Types& t) { return t.count(D::Float) > 0; }

void widen(TypeSignature& sig, bool (*which)(const Types&), const Types& add) {
  for (auto& [var, types] : sig.allowed)
    if (which(types)) types.insert(add.begin(), add.end());
}

// Signatures written out: new ops and versions whose formals changed.
std::optional<TypeSignature> explicitSignature(const std::string& op, int64_t since) {
  TypeSignature s;
  auto io = [&](std::vector<TypeSignature::Formal> ins, std::vector<TypeSignature::Formal> outs,
                std::map<std::string, Types> allowed) {
    s.inputs = std::move(ins);
    s.outputs = std::move(outs);
    s.allowed = std::move(allowed);
    s.allowed["tensor(int64)"] = kInt64;
    return s;
  };
  const Types all = allTypesAt(since);
  if (op.rfind("Reduce", 0) == 0 && since == 18) {
    auto sig = fromLibonnx(op);
    if (!sig) return std::nullopt;
    sig->inputs.push_back(in("axes", "tensor(int64)"));
    sig->allowed["tensor(int64)"] = kInt64;
    return sig;
  }
  if (op == "Pad" && since == 18) {
    auto sig = fromLibonnx(op);
    sig->inputs.push_back(in("axes", "Tind"));
    sig->allowed["Tind"] = kIndex;
    return sig;
  }
  if (op == "DFT" && since == 20)
    return io({in("input", "T1"), in("dft_length", "T2"), in("axis", "tensor(int64)")}, {in("output", "T1")},
              {{"T1", kFloats}, {"T2", kIndex}});
  if (op == "OptionalGetElement" && since == 18)
    return io({in("input", "O")}, {in("output", "V")}, {{"O", all}, {"V", all}});
  if (op == "OptionalHasElement" && since == 18)
    return io({in("input", "O")}, {in("output", "B")}, {{"O", all}, {"B", {D::Bool}}});
  if (op == "Equal" && since == 19) {
    auto sig = fromLibonnx(op);
    sig->allowed["T"].insert(D::String);
    return sig;
  }
  if (op == "QuantizeLinear") {
    const Types x{D::Float, D::Float16, D::BFloat16, D::Int32};
    Types q = Types{D::Int8, D::UInt8} + kFloat8;
    if (since >= 21) q = q + Types{D::Int16, D::UInt16, ir::kInt4, ir::kUInt4};
    if (since >= 23) q.insert(ir::kFloat4E2M1);
    if (since >= 25) q = q + Types{ir::kInt2, ir::kUInt2};
    if (since < 23)
      return io({in("x", "T1"), in("y_scale", "T1"), in("y_zero_point", "T2")}, {in("y", "T2")},
                {{"T1", x}, {"T2", q}});
    Types scale = x;
    if (since >= 24) scale.insert(ir::kFloat8E8M0);
    return io({in("x", "T1"), in("y_scale", "T2"), in("y_zero_point", "T3")}, {in("y", "T3")},
              {{"T1", x}, {"T2", scale}, {"T3", q}});
  }
  if (op == "DequantizeLinear") {
    Types q = Types{D::Int8, D::UInt8, D::Int32} + kFloat8;
    if (since >= 21) q = q + Types{D::Int16, D::UInt16, ir::kInt4, ir::kUInt4};
    if (since >= 23) q.insert(ir::kFloat4E2M1);
    if (since >= 25) q = q + Types{ir::kInt2, ir::kUInt2};
    const Types f{D::Float, D::Float16, D::BFloat16};
    if (since < 23)
      return io({in("x", "T1"), in("x_scale", "T2"), in("x_zero_point", "T1")}, {in("y", "T2")},
                {{"T1", q}, {"T2", f}});
    Types scale = f;
    if (since >= 24) scale.insert(ir::kFloat8E8M0);
    return io({in("x", "T1"), in("x_scale", "T2"), in("x_zero_point", "T1")}, {in("y", "T3")},
              {{"T1", q}, {"T2", scale}, {"T3", f}});
  }
  if (op == "QLinearMatMul" && since == 21) {
    const Types q = Types{D::Int8, D::UInt8} + kFloat8;
    return io({in("a", "T1"), in("a_scale", "TS"), in("a_zero_point", "T1"), in("b", "T2"), in("b_scale", "TS"),
               in("b_zero_point", "T2"), in("y_scale", "TS"), in("y_zero_point", "T3")},
              {in("y", "T3")}, {{"T1", q}, {"T2", q}, {"T3", q}, {"TS", {D::Float, D::Float16, D::BFloat16}}});
  }
  if (op == "BitwiseAnd" || op == "BitwiseOr" || op == "BitwiseXor")
    return io({in("A", "T"), in("B", "T")}, {in("C", "T")}, {{"T", kInts}});
  if (op == "BitwiseNot") return io({in("X", "T")}, {in("Y", "T")}, {{"T", kInts}});
  if (op == "CenterCropPad")
    return io({in("input_data", "T"), in("shape", "Tind")}, {in("output_data", "T")}, {{"T", all}, {"Tind", kIndex}});
  if (op == "Col2Im")
    return io({in("input", "T"), in("image_shape", "tensor(int64)"), in("block_shape", "tensor(int64)")},
              {in("output", "T")}, {{"T", all}});
  if (op == "GroupNormalization")
    return io({in("X", "T"), in("scale", "T"), in("bias", "T")}, {in("Y", "T")}, {{"T", kFloats}});
  if (op == "Mish")
    return io({in("X", "T")}, {in("Y", "T")}, {{"T", since >= 22 ? kFloats : Types{D::Float16, D::Float, D::Double}}});
  if (op == "DeformConv")
    return io({in("X", "T"), in("W", "T"), in("offset", "T"), in("B", "T"), in("mask", "T")}, {in("Y", "T")},
              {{"T", since >= 22 ? kFloats : Types{D::Float16, D::Float, D::Double}}});
  if (op == "AffineGrid")
    return io({in("theta", "T1"), in("size", "T2")}, {in("grid", "T1")}, {{"T1", kFloats}, {"T2", kInt64}});
  if (op == "Gelu" || op == "Swish") return io({in("X", "T")}, {in("Y", "T")}, {{"T", kFloats}});
  if (op == "ImageDecoder")
    return io({in("encoded_stream", "T1")}, {in("image", "T2")}, {{"T1", {D::UInt8}}, {"T2", {D::UInt8}}});
  if (op == "RegexFullMatch") return io({in("X", "T1")}, {in("Y", "T2")}, {{"T1", {D::String}}, {"T2", {D::Bool}}});
  if (op == "StringConcat") return io({in("X", "T"), in("Y", "T")}, {in("Z", "T")}, {{"T", {D::String}}});
  if (op == "StringSplit")
    return io({in("X", "T1")}, {in("Y", "T2"), in("Z", "T3")},
              {{"T1", {D::String}}, {"T2", {D::String}}, {"T3", kInt64}});
  if (op == "Attention") {
    std::vector<TypeSignature::Formal> ins{in("Q", "T1"),        in("K", "T1"),        in("V", "T2"),
                                           in("attn_mask", "U"), in("past_key", "T1"), in("past_value", "T2")};
    if (since >= 24) ins.push_back(in("nonpad_kv_seqlen", "tensor(int64)"));
    return io(ins, {in("Y", "T1"), in("present_key", "T1"), in("present_value", "T2"), in("qk_matmul_output", "T1")},
              {{"T1", kFloats}, {"T2", kFloats}, {"U", kFloats + kInts + Types{D::Bool}}});
  }
  if (op == "RMSNormalization")
    return io({in("X", "T"), in("scale", "V")}, {in("Y", "V")}, {{"T", kFloats}, {"V", kFloats}});
  if (op == "RotaryEmbedding")
    return io({in("X", "T"), in("cos_cache", "T"), in("sin_cache", "T"), in("position_ids", "M")}, {in("Y", "T")},
              {{"T", {D::Float, D::Float16, D::BFloat16}}, {"M", kInt64}});
  if (op == "TensorScatter")
    return io({in("past_cache", "T"), in("update", "T"), in("write_indices", "tensor(int64)")},
              {in("present_cache", "T")}, {{"T", all}});
  if (op == "BitCast") {
    Types noString = all;
    noString.erase(D::String);
    return io({in("input", "T1")}, {in("output", "T2")}, {{"T1", noString}, {"T2", noString}});
  }
  if (op == "CumProd")
    return io({in("x", "T"), in("axis", "T2")}, {in("y", "T")},
              {{"T", kFloats + Types{D::Int32, D::Int64, D::UInt32, D::UInt64}}, {"T2", kIndex}});
  return std::nullopt;
}

// What a version after 17 added to the previous version's constraints.
void applyChanges(TypeSignature& sig, const SchemaFact& f) {
  const std::string& op = f.op;
  const bool typesSweep =
      f.change == "types only" || (op == "Pad" && f.since >= 21) || op == "Cast" || op == "CastLike";
  if (typesSweep) {
    // The "any type" variables gain the types of the IR version that came with the opset.
    Types add;
    for (int i = 17; i <= 26; ++i)
      if (ir::minIrVersionFor(static_cast<D>(i)) <= irVersionForOpset(f.since)) add.insert(static_cast<D>(i));
    widen(sig, anyTypeVar, add);
  }
  // Opset 22 is the bfloat16 sweep (GridSample-22, AveragePool-22, LpPool-22 included); TopK/SplitToSequence-24.
  if (f.change.find("bfloat16") != std::string::npos || f.since == 22) widen(sig, floatVar, {D::BFloat16});
  if (op == "Dropout" && f.since == 22) widen(sig, floatVar, kFloat8);
  if ((op == "ReduceMax" || op == "ReduceMin") && f.since == 20) widen(sig, floatVar, {D::Bool});
  if (op == "ConstantOfShape" && f.since == 20) widen(sig, floatVar, Types{D::BFloat16} + kFloat8);
  if ((op == "IsInf" || op == "IsNaN") && f.since == 20) widen(sig, floatVar, kFloats + kFloat8);
}

std::map<std::pair<std::string, int64_t>, TypeSignature> buildTable() {
  std::map<std::pair<std::string, int64_t>, TypeSignature> table;
  std::optional<TypeSignature> previous;
  std::string previousOp;
  for (const auto& f : allSchemaFacts()) {  // sorted by op, then since
    if (f.op != previousOp) previous.reset();
    std::optional<TypeSignature> sig = explicitSignature(f.op, f.since);
    if (!sig) {
      sig = previous ? previous : fromLibonnx(f.op);
      if (!sig) continue;
      applyChanges(*sig, f);
    } else if (f.op == "Equal" || f.op.rfind("Reduce", 0) == 0 || f.op == "Pad") {
      applyChanges(*sig, f);
    }
    table[{f.op, f.since}] = *sig;
    previous = sig;
    previousOp = f.op;
  }
  return table;
}

}  // namespace

const TypeSignature::Formal* TypeSignature::inputAt(size_t i) const {
  if (i < inputs.size()) return &inputs[i];
  return !inputs.empty() && inputs.back().variadic ? &inputs.back() : nullptr;
}

const TypeSignature::Formal* TypeSignature::outputAt(size_t i) const {
  if (i < outputs.size()) return &outputs[i];
  return !outputs.empty() && outputs.back().variadic ? &outputs.back() : nullptr;
}

const TypeSignature* typeSignature(const std::string& op, int64_t since) {
  static const auto table = buildTable();
  auto it = table.find({op, since});
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace fb::schema::opsets_18_26
