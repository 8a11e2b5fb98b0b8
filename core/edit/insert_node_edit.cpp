// A node inserted on an edge: it reads a value (and any further inputs given), and the value's readers (all, or
// the ones named) read its output instead. Attributes come as attr.NAME=VALUE, typed by the op's schema.
#include <algorithm>
#include <memory>

#include "edit/attribute_value.h"
#include "edit/edit_support.h"
#include "edit/edit_verb.h"
#include "schema/onnx_schema.h"
#include "schema/opsets.h"

namespace fb::edit {

namespace {

constexpr std::string_view kAttrPrefix = "attr.";

struct Plan {
  ir::Value* value = nullptr;
  std::vector<ir::Value*> extra;
  std::vector<ir::Node*> readers;  // of `value`, to read the new node's output
  std::vector<ir::Attribute> attributes;
  ir::Node* before = nullptr;  // the new node's place
};

class InsertNode : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"value", true, "the value the new node reads (its first input)"},
            {"op", true, "op type"},
            {"domain", false, "op domain (default: ONNX)"},
            {"inputs", false, "further inputs, comma-separated"},
            {"readers", false, "the nodes that read the new output, comma-separated (default: every reader)"},
            {"name", false, "node name (default: its output's)"},
            {"output", false, "name of its output (default: VALUE_OP)"}};
  }
  std::string freeArgPrefix() const override { return std::string(kAttrPrefix); }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    std::string why;
    Plan p;
    return plan(m, e, p, why) ? std::nullopt : std::optional(why);
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    ir::Graph& g = m.graph();
    std::string why;
    Plan p;
    if (!plan(m, e, p, why)) throw EditError(e, why);
    const std::string op = e.get("op");
    const std::string outName = e.has("output") ? e.get("output") : g.uniqueName(p.value->name() + "_" + op);
    // The readers' slots as the graph is now: undo wires them back after taking the node out.
    auto rec = std::make_shared<ValueReaders>();
    for (const ir::Node* r : p.readers)
      for (size_t slot = 0; slot < r->inputs().size(); ++slot)
        if (r->inputs()[slot] == p.value) rec->inputs.emplace_back(NodeRef::of(g, *r), int(slot));

    std::vector<ir::Value*> ins{p.value};
    ins.insert(ins.end(), p.extra.begin(), p.extra.end());
    ir::Value* out = g.getOrCreateValue(outName);
    ir::Node* n = g.addNode(op, ins, {out}, e.get("domain"), p.before);
    n->name = e.has("name") ? e.get("name") : outName;
    n->attributes = p.attributes;
    if (op == "Identity" && e.get("domain").empty()) out->type = p.value->type;
    if (op == "Cast" && e.get("domain").empty() && p.value->type.isTensor())
      if (const ir::Attribute* to = n->attr("to")) {
        out->type = p.value->type;
        out->type.elemType = static_cast<ir::DataType>(to->i);
      }
    for (ir::Node* r : p.readers)
      for (size_t slot = 0; slot < r->inputs().size(); ++slot)
        if (r->inputs()[slot] == p.value) r->setInput(slot, out);

    const std::string valueName = p.value->name();
    Applied result;
    result.notes.push_back("inserted " + op + " " + q(n->name) + " between " + q(valueName) + " and " +
                           std::to_string(p.readers.size()) + " readers");
    // The inserted node is found again as its output's producer (undo runs on the graph as this edit left it).
    result.undo = {[rec, valueName, outName](ir::Model& model) {
                     ir::Graph& graph = model.graph();
                     if (ir::Value* out = graph.findValue(outName); out && out->producer())
                       graph.removeNode(out->producer());
                     rec->rewire(graph, graph.findValue(valueName));
                     graph.pruneValues({graph.findValue(outName)});
                   },
                   rec->bytes() + valueName.size() + outName.size() + sizeof(Undo)};
    return result;
  }

 private:
  static bool plan(const ir::Model& m, const Edit& e, Plan& p, std::string& why) {
    const ir::Graph& g = m.graph();
    p.value = findLiveValue(g, e.get("value"));
    if (!p.value) {
      why = noValue(m, e.get("value"));
      return false;
    }
    const std::string op = e.get("op"), domain = e.get("domain");
    if (op.empty()) {
      why = "no op type";
      return false;
    }
    const int64_t opset = m.opsetVersion(domain);
    if (opset == 0) {
      why = "the model imports no opset for domain " + q(domain);
      return false;
    }
    if (domain.empty() && opset <= schema::kLibonnxMaxOpset && !schema::schemaAt("", op, opset)) {
      why = "opset " + std::to_string(opset) + " has no op " + q(op);
      return false;
    }
    for (const auto& name : splitList(e.get("inputs"))) {
      ir::Value* v = name.empty() ? nullptr : findLiveValue(g, name);
      if (!name.empty() && !v) {
        why = noValue(m, name);
        return false;
      }
      p.extra.push_back(v);
    }
    if (e.has("readers")) {
      for (const auto& name : splitList(e.get("readers"))) {
        ir::Node* r = findNode(m, name, why);
        if (!r) return false;
        if (std::none_of(r->inputs().begin(), r->inputs().end(), [&](const ir::Value* v) { return v == p.value; })) {
          why = "node " + q(name) + " does not read " + q(p.value->name());
          return false;
        }
        if (std::find(p.readers.begin(), p.readers.end(), r) == p.readers.end()) p.readers.push_back(r);
      }
    } else {
      for (const auto& u : p.value->uses())
        if (std::find(p.readers.begin(), p.readers.end(), u.node) == p.readers.end()) p.readers.push_back(u.node);
    }
    if (e.has("output") && !nameIsFree(g, e.get("output"))) {
      why = "a value is named " + q(e.get("output")) + " already";
      return false;
    }
    for (const auto& [k, v] : e.args) {
      if (!k.starts_with(kAttrPrefix)) continue;
      const std::string name = k.substr(kAttrPrefix.size());
      auto type = schemaAttrType(m, domain, op, name);
      if (!type) {
        why = op + " has no attribute " + q(name);
        return false;
      }
      auto a = parseAttribute(name, v, "", *type, why);
      if (!a) return false;
      p.attributes.push_back(std::move(*a));
    }
    // The new node goes before the first reader it feeds (or at the end when it feeds none): every further input
    // must be computed before that place, and none may depend on a reader (a cycle).
    for (ir::Node* r : p.readers)
      if (!p.before || r->orderKey() < p.before->orderKey()) p.before = r;
    const std::vector<const ir::Node*> readers(p.readers.begin(), p.readers.end());
    for (const ir::Value* v : p.extra) {
      if (!v) continue;
      if (dependsOnAny(v, readers)) {
        why = "the input " + q(v->name()) + " is computed from a reader of " + q(p.value->name()) +
              ": the graph would be cyclic";
        return false;
      }
      if (p.before && v->producer() && v->producer()->orderKey() > p.before->orderKey()) {
        why = "the input " + q(v->name()) + " is computed after the first reader of " + q(p.value->name());
        return false;
      }
    }
    return true;
  }
};

}  // namespace

void registerInsertNodeEdit(EditRegistry& r) {
  r.add({"insert-node",
         "Insert a node on a value's edge to its readers (Cast, Identity, any op; attributes as attr.NAME=VALUE)",
         std::make_shared<InsertNode>()});
}

}  // namespace fb::edit
