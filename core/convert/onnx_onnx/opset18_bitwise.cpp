// BitwiseAnd/Or/Xor-18 on integers of up to 32 bits: each operand as its unsigned bit pattern in int64
// (two's complement: negative values + 2^w), its w bits as a trailing axis (Div by powers of two, Mod 2), the bits
// combined arithmetically (and = a*b, or = a+b-a*b, xor = (a+b) mod 2), summed back with their weights and, for
// signed types, wrapped to the signed range. Every step is exact in int64.
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"

namespace fb::convert::onnx_onnx {
namespace {

struct IntKind {
  int bits = 0;
  bool isSigned = false;
  int onnxType = 0;
};

std::optional<IntKind> intKind(ir::DataType t) {
  switch (t) {
    case ir::DataType::Int8:
      return IntKind{8, true, onnx::TensorProto::INT8};
    case ir::DataType::UInt8:
      return IntKind{8, false, onnx::TensorProto::UINT8};
    case ir::DataType::Int16:
      return IntKind{16, true, onnx::TensorProto::INT16};
    case ir::DataType::UInt16:
      return IntKind{16, false, onnx::TensorProto::UINT16};
    case ir::DataType::Int32:
      return IntKind{32, true, onnx::TensorProto::INT32};
    case ir::DataType::UInt32:
      return IntKind{32, false, onnx::TensorProto::UINT32};
    default:
      return std::nullopt;
  }
}

}  // namespace

void bitwiseBinaryTo17(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  auto kind = intKind(t);
  if (!kind)
    throw Unsupported(n.opType + " on " + std::string(ir::dataTypeName(t)) +
                      ": only integers of up to 32 bits are written with opset-17 arithmetic (64-bit patterns do not "
                      "fit int64 sums)");
  const int w = kind->bits;
  std::vector<int64_t> powers;
  for (int k = 0; k < w; ++k) powers.push_back(int64_t(1) << k);
  const std::string full = std::to_string(int64_t(1) << w), half = std::to_string(int64_t(1) << (w - 1));
  replaceByBody17(
      n, ctx, {"A", "B"}, {"C"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("powers", powers);
        b.Add("two = Constant <value_int = 2> ()");
        b.Const("last", std::vector<int64_t>{-1});
        if (kind->isSigned) {
          b.Add("zero = Constant <value_int = 0> ()");
          b.Add(("full = Constant <value_int = " + full + "> ()").c_str());
          b.Add(("half = Constant <value_int = " + half + "> ()").c_str());
        }
        for (const char* in : {"A", "B"}) {
          std::string s(in);
          b.Add((s + "64 = Cast <to = 7> (" + s + ")").c_str());
          std::string u = s + "64";
          if (kind->isSigned) {
            b.Add((s + "neg = Less(" + s + "64, zero)").c_str());
            b.Add((s + "wrapped = Add(" + s + "64, full)").c_str());
            b.Add((s + "u = Where(" + s + "neg, " + s + "wrapped, " + s + "64)").c_str());
            u = s + "u";
          }
          b.Add((s + "col = Unsqueeze(" + u + ", last)").c_str());
          b.Add((s + "shifted = Div(" + s + "col, powers)").c_str());
          b.Add((s + "bits = Mod(" + s + "shifted, two)").c_str());
        }
        if (n.opType == "BitwiseAnd") {
          b.Add("bits = Mul(Abits, Bbits)");
        } else if (n.opType == "BitwiseOr") {
          b.Add("both = Mul(Abits, Bbits)");
          b.Add("either = Add(Abits, Bbits)");
          b.Add("bits = Sub(either, both)");
        } else {
          b.Add("either = Add(Abits, Bbits)");
          b.Add("bits = Mod(either, two)");
        }
        b.Add("weighted = Mul(bits, powers)");
        b.Add("pattern = ReduceSum <keepdims = 0> (weighted, last)");
        std::string result = "pattern";
        if (kind->isSigned) {
          b.Add("small = Less(pattern, half)");
          b.Add("negative = Sub(pattern, full)");
          b.Add("signed = Where(small, pattern, negative)");
          result = "signed";
        }
        b.Add(("C = Cast <to = " + std::to_string(kind->onnxType) + "> (" + result + ")").c_str());
      },
      n.opType + " written with int64 arithmetic on the " + std::to_string(w) + " bits");
}

}  // namespace fb::convert::onnx_onnx
