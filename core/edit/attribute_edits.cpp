// A node's attributes and its op: set or remove one attribute (typed as the node, the schema or the text says),
// change the op type or domain.
#include <algorithm>
#include <memory>
#include <onnx/defs/schema.h>

#include "edit/attribute_value.h"
#include "edit/edit_support.h"
#include "edit/edit_verb.h"
#include "schema/onnx_schema.h"
#include "schema/opsets.h"

namespace fb::edit {

namespace {

// Puts back one attribute as it was, at its place among the node's attributes (or removes it when the node had
// none).
Undo attributeUndo(const ir::Node& n, const std::string& name) {
  const std::string node = n.name;
  const ir::Attribute* old = n.attr(name);
  auto kept = old ? std::make_shared<ir::Attribute>(*old) : nullptr;
  const size_t place = old ? size_t(old - n.attributes.data()) : 0;
  size_t bytes = sizeof(Undo) + node.size() + name.size();
  if (kept) bytes += sizeof(ir::Attribute) + kept->ints.size() * 8 + kept->floats.size() * 4 + kept->s.size();
  return {[node, name, kept, place](ir::Model& m) {
            std::string why;
            ir::Node* n = findNodeInModel(m, node, why);
            if (!n) return;
            if (!kept) {
              n->removeAttr(name);
              return;
            }
            const bool had = n->attr(name) != nullptr;
            n->setAttr(*kept);
            if (!had && place < n->attributes.size())  // appended: back to where it was
              std::rotate(n->attributes.begin() + long(place), n->attributes.end() - 1, n->attributes.end());
          },
          bytes};
}

class SetAttr : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"node", true, "node"},
            {"name", true, "attribute"},
            {"value", true, "1 | 0.5 | text | 1,2,3 | 0.5,1 | @file.npy"},
            {"type", false, "int, float, string, ints, floats, strings or tensor (default: the attribute's)"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    std::string why;
    return parsed(m, e, why) ? std::nullopt : std::optional(why);
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    std::string why;
    auto attr = parsed(m, e, why);
    if (!attr) throw EditError(e, why);
    ir::Node* n = findNodeInModel(m, e.get("node"), why);
    Applied out;
    out.undo = attributeUndo(*n, attr->name);
    n->setAttr(std::move(*attr));
    return out;
  }

 private:
  static std::optional<ir::Attribute> parsed(const ir::Model& m, const Edit& e, std::string& why) {
    const ir::Node* n = findNodeInModel(m, e.get("node"), why);
    if (!n) return std::nullopt;
    const std::string name = e.get("name");
    if (name.empty()) {
      why = "no attribute name";
      return std::nullopt;
    }
    ir::AttrType known = ir::AttrType::Undefined;
    if (const ir::Attribute* a = n->attr(name)) {
      known = a->type;
    } else {
      auto s = schemaAttrType(m, n->domain, n->opType, name);
      if (!s) {
        why = n->opType + " has no attribute " + q(name);
        return std::nullopt;
      }
      known = *s;
    }
    return parseAttribute(name, e.get("value"), e.get("type"), known, why);
  }
};

class RemoveAttr : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"node", true, "node"}, {"name", true, "attribute"}}; }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    std::string why;
    const ir::Node* n = findNodeInModel(m, e.get("node"), why);
    if (!n) return why;
    if (!n->attr(e.get("name"))) return "node " + q(n->name) + " has no attribute " + q(e.get("name"));
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    std::string why;
    ir::Node* n = findNodeInModel(m, e.get("node"), why);
    Applied out;
    out.undo = attributeUndo(*n, e.get("name"));
    n->removeAttr(e.get("name"));
    return out;
  }
};

class SetOp : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"node", true, "node"}, {"op", true, "new op type"}, {"domain", false, "new domain (default: kept)"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    std::string why;
    const ir::Node* n = findNodeInModel(m, e.get("node"), why);
    if (!n) return why;
    const std::string op = e.get("op");
    if (op.empty()) return "no op type";
    std::string domain = e.has("domain") ? e.get("domain") : std::string(n->domain);
    if (domain == "ai.onnx") domain.clear();
    const int64_t opset = m.opsetVersion(domain);
    if (e.has("domain") && opset == 0) return "the model imports no opset for domain " + q(domain) + " (set-opset)";
    if (domain.empty() && opset <= schema::kLibonnxMaxOpset && !schema::schemaAt("", op, opset))
      return "opset " + std::to_string(opset) + " has no op " + q(op);
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    std::string why;
    ir::Node* n = findNodeInModel(m, e.get("node"), why);
    const std::string oldOp = n->opType, oldDomain = n->domain, name = n->name;
    n->opType = e.get("op");
    if (e.has("domain")) n->domain = e.get("domain");
    Applied out;
    out.undo = {[name, oldOp, oldDomain](ir::Model& model) {
                  std::string w;
                  if (ir::Node* node = findNodeInModel(model, name, w)) {
                    node->opType = oldOp;
                    node->domain = oldDomain;
                  }
                },
                sizeof(Undo) + name.size() + oldOp.size() + oldDomain.size()};
    return out;
  }
};

}  // namespace

void registerAttributeEdits(EditRegistry& r) {
  r.add({"set-attr", "Set a node's attribute (typed as the node, the op's schema or the type argument says)",
         std::make_shared<SetAttr>()});
  r.add({"remove-attr", "Remove a node's attribute", std::make_shared<RemoveAttr>()});
  r.add({"set-op", "Change a node's op type (and domain); inputs, outputs and attributes stay",
         std::make_shared<SetOp>()});
}

}  // namespace fb::edit
