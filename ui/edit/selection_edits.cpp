#include "ui/edit/selection_edits.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "ir/graph.h"

namespace fb::ui {

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ",") + n;
  return s;
}

// A Constant, or a node reading only weights (an Identity aliasing one): it goes with the nodes that read it.
bool computedFromWeights(const ir::Node& n) {
  for (const ir::Value* v : n.inputs())
    if (v && !v->initializer()) return false;
  return true;
}

}  // namespace

std::optional<edit::Edit> extractionOf(const std::vector<const ir::Node*>& nodes) {
  if (nodes.empty()) return std::nullopt;
  const std::unordered_set<const ir::Node*> inside(nodes.begin(), nodes.end());
  std::vector<std::string> outputs, unread, inputs;
  std::set<std::string> seenIn, seenOut;
  for (const ir::Node* n : nodes) {
    for (const ir::Value* v : n->outputs()) {
      if (!v || v->name().empty() || !seenOut.insert(v->name()).second) continue;
      bool readOutside = v->isGraphOutput();
      for (const auto& use : v->uses()) readOutside |= !inside.count(use.node);
      if (readOutside)
        outputs.push_back(v->name());
      else if (v->uses().empty())
        unread.push_back(v->name());
    }
    for (const ir::Value* v : n->inputs()) {
      if (!v || v->name().empty() || v->initializer() || !seenIn.insert(v->name()).second) continue;
      const ir::Node* p = v->producer();
      if (p && (inside.count(p) || computedFromWeights(*p))) continue;
      inputs.push_back(v->name());
    }
  }
  if (outputs.empty()) outputs = unread;
  if (outputs.empty()) return std::nullopt;
  edit::Edit e{"extract", {}};
  e.set("outputs", join(outputs));
  if (!inputs.empty()) e.set("inputs", join(inputs));
  return e;
}

QString shapeText(const ir::TypeInfo& t) {
  if (!t.shape) return {};
  QStringList dims;
  for (const ir::Dim& d : *t.shape) {
    if (d.isValue())
      dims << QString::number(d.value);
    else if (d.kind == ir::Dim::Kind::Param && !d.param.str().empty())
      dims << QString::fromStdString(d.param.str());
    else
      dims << QStringLiteral("?");
  }
  return dims.join(QLatin1Char(','));
}

QStringList symbolicDims(const ir::Graph& g) {
  std::set<std::string> names;
  for (const ir::Value* v : g.values())
    if (v->type.shape)
      for (const ir::Dim& d : *v->type.shape)
        if (d.kind == ir::Dim::Kind::Param && !d.param.str().empty()) names.insert(d.param.str());
  QStringList out;
  for (const auto& n : names) out << QString::fromStdString(n);
  return out;
}

}  // namespace fb::ui
