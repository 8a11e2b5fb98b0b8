#include "convert/onnx_onnx/version_step.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <set>

#include "convert/onnx_onnx/version_history.h"
#include "schema/onnx_schema.h"

namespace fb::convert::onnx_onnx {
namespace {

std::string versionName(const ir::Node& n, const onnx::OpSchema& s) {
  return n.opType + "-" + std::to_string(s.since_version());
}

bool hasAttribute(const onnx::OpSchema& s, const std::string& name) { return s.attributes().count(name) > 0; }

// What the attribute is worth at `schema` for `node`: the node's own value, else the schema's default.
std::optional<ir::Attribute> effectiveValue(const ir::Node& node, const onnx::OpSchema& schema,
                                            const std::string& name) {
  if (const ir::Attribute* a = node.attr(name)) return *a;
  return schema::schemaDefault(schema, name);
}

// An attribute whose meaning does not depend on the version: the node spells it, or no version defaults it.
struct Edits {
  std::vector<ir::Attribute> set;
  std::vector<std::string> removed;
  std::string describe() const {
    std::string s;
    for (const auto& a : set) s += (s.empty() ? "" : ", ") + a.name + "=" + a.valueToString() + " spelled out";
    for (const auto& n : removed) s += (s.empty() ? "" : ", ") + std::string("dropped ") + n;
    return s;
  }
};

// Reshape's allowzero=1 differs from the older behaviour only where the shape holds a 0.
bool allowzeroIsMoot(const ir::Node& n, const HandlerContext& ctx) {
  if (n.opType != "Reshape") return false;
  auto shape = ctx.constantInts(n.input(1));
  return shape && std::find(shape->begin(), shape->end(), 0) == shape->end();
}

// Attribute by attribute, what keeps the node's meaning when it moves from `source` to `target`.
Edits attributeEdits(const ir::Node& node, const onnx::OpSchema& source, const onnx::OpSchema& target,
                     const HandlerContext& ctx) {
  Edits e;
  std::set<std::string> names;
  for (const auto& [name, _] : source.attributes()) names.insert(name);
  for (const auto& [name, _] : target.attributes()) names.insert(name);
  for (const std::string& name : names) {
    const AttributeHistory* h = attributeHistory(node.opType, name);
    if (h && h->handling != AttributeHistory::Handling::Implicit) continue;  // an adapter's, or spelling only
    const bool inSource = hasAttribute(source, name), inTarget = hasAttribute(target, name);
    const ir::Attribute* own = node.attr(name);
    if (inTarget) {
      if (own) continue;  // spelled out: means the same in both
      auto targetDefault = schema::schemaDefault(target, name);
      if (inSource) {
        // The default itself changed between the versions: keep the source's by spelling it out.
        auto sourceDefault = schema::schemaDefault(source, name);
        if (sourceDefault && (!targetDefault || !schema::sameValue(*sourceDefault, *targetDefault)))
          e.set.push_back(*sourceDefault);
        continue;
      }
      // New at the target: its default must mean what the source version did without it.
      if (!targetDefault) continue;
      if (!h)
        throw Unsupported(node.opType + ": no record of how " + versionName(node, source) + " behaves without '" +
                          name + "'");
      if (h->meansImplicit(*targetDefault)) continue;
      if (!h->implicit)
        throw Unsupported(node.opType + ": " + versionName(node, source) + " has no '" + name + "', and " +
                          versionName(node, target) + "'s default " + targetDefault->valueToString() +
                          " means otherwise");
      e.set.push_back(*h->implicit);
      continue;
    }
    // The target lacks the attribute: its value must be what the target does anyway.
    if (!inSource) continue;  // an attribute no version here knows: the schema check reports it
    auto value = effectiveValue(node, source, name);
    if (!value) continue;
    if (!h)
      throw Unsupported(node.opType + ": no record of what " + versionName(node, target) + " does in place of '" +
                        name + "'");
    if (!h->meansImplicit(*value) && !(name == "allowzero" && allowzeroIsMoot(node, ctx))) {
      std::string origin = own ? "" : " (the default of " + versionName(node, source) + ")";
      throw Unsupported(node.opType + ": " + name + "=" + value->valueToString() + origin + " has no equivalent in " +
                        versionName(node, target) + ": " + h->why);
    }
    if (own) e.removed.push_back(name);
  }
  return e;
}

}  // namespace

void compatibleVersionStep(ir::Node& node, HandlerContext& ctx) {
  const auto* target = schema::schemaAt(node.domain, node.opType, ctx.targetOpset);
  if (!target)
    throw Unsupported(node.opType + " does not exist at opset " + std::to_string(ctx.targetOpset) +
                      " (first in opset " + std::to_string(schema::firstOpsetOf(node.domain, node.opType)) + ")");
  static const schema::ElemTypes kNone;
  const schema::ElemTypes& types = ctx.elemTypes ? *ctx.elemTypes : kNone;
  const auto* source = schema::schemaAt(node.domain, node.opType, ctx.sourceOpset);
  Edits edits;
  if (source && source != target) edits = attributeEdits(node, *source, *target, ctx);
  if (auto mismatch = schema::schemaMismatch(node, *target, types, edits.removed)) throw Unsupported(*mismatch);
  if (edits.set.empty() && edits.removed.empty()) return;
  ctx.note = edits.describe() + " (" + versionName(node, *source) + " -> " + versionName(node, *target) + ")";
  if (!ctx.changed && !ctx.replaced) ctx.attributesOnly = true;  // after another rewrite it is only its last step
  if (!ctx.commit()) return;
  for (const auto& n : edits.removed) node.removeAttr(n);
  for (const auto& a : edits.set) node.setAttr(a);
}

int64_t nonNegativeAxis(int64_t axis, const ir::Value* shapedBy, const HandlerContext& ctx, const char* what) {
  if (axis >= 0 || ctx.targetOpset >= 11) return axis;
  auto r = ctx.rank(shapedBy);
  if (!r) {
    throw Unsupported(std::string(what) + ": negative axis needs the input rank below opset 11, and it is unknown");
  }
  return axis + *r;
}

}  // namespace fb::convert::onnx_onnx
