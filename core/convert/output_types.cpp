#include "convert/output_types.h"

namespace fb::convert {
namespace {

bool needsType(const ir::TypeInfo& t) {
  if (t.kind == ir::TypeInfo::Kind::None) return true;
  return t.isTensor() && (t.elemType == ir::DataType::Undefined || !t.shape);
}

CheckMessage untypedMessage(const std::string& name, const std::string& why) {
  return {"", "graph output '" + name + "' has no shape and " + why +
                  ": declare its type in the source model (element type and shape, dim_param names for unknown "
                  "dims), or keep the result despite the check (flowbridge-cli convert --continue-on-error; ONNX "
                  "Runtime runs it, ONNX's checker refuses it)"};
}

}  // namespace

OutputTyping typeShapelessOutputs(ir::Model& m) {
  OutputTyping out;
  std::vector<ir::Value*> open;
  for (ir::Value* v : m.graph().outputs())
    if (v && needsType(v->type) && !v->isGraphInput() && !v->initializer()) open.push_back(v);
  if (open.empty()) return out;
  std::vector<CheckMessage> warnings;
  const auto types = inferShapes(m, &warnings);
  std::string skipped;
  for (const auto& w : warnings)
    if (w.message.rfind("shape inference skipped: ", 0) == 0) skipped = w.message;
  for (ir::Value* v : open) {
    auto it = types.find(v->name());
    const ir::TypeInfo* t = it == types.end() ? nullptr : &it->second;
    if (!t || !t->isTensor() || t->elemType == ir::DataType::Undefined || !t->shape) {
      std::string why = skipped.empty() ? "shape inference could not find its rank" : skipped;
      if (t && t->kind != ir::TypeInfo::Kind::None && !t->isTensor())
        why = "it is not a tensor (" + t->toString() + ")";
      out.untyped.push_back(untypedMessage(v->name(), why));
      continue;
    }
    if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined && v->type.elemType != t->elemType) {
      out.untyped.push_back(untypedMessage(v->name(), "shape inference gives it another element type (" +
                                                          t->toString() + ") than the model declares (" +
                                                          v->type.toString() + ")"));
      continue;
    }
    v->type = *t;
    out.written.push_back("output '" + v->name() + "': " + t->toString() + " (inferred)");
  }
  return out;
}

}  // namespace fb::convert
