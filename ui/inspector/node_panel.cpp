#include "ui/inspector/node_panel.h"

#include <algorithm>

#include "ir/graph.h"
#include "ir/model.h"
#include "ui/document.h"
#include "ui/inspector/op_schema_lookup.h"
#include "ui/inspector/property_tree_model.h"

namespace fb::ui {

namespace {

QString nodeLabel(const ir::Node* n) {
  return QStringLiteral("%1 [%2]").arg(n->name.empty() ? QStringLiteral("(unnamed)") : QString::fromStdString(n->name),
                                       QString::fromStdString(n->opType));
}

}  // namespace

NodePanel::NodePanel(Document* doc, QWidget* parent) : PropertyPanel(doc, parent) {
  connect(doc_, &Document::selectionChanged, this, &NodePanel::refresh);
}

void NodePanel::setAnnotation(const QString& section, Annotation rows) {
  auto it = std::find_if(annotations_.begin(), annotations_.end(), [&](const auto& a) { return a.first == section; });
  if (it != annotations_.end())
    it->second = std::move(rows);
  else
    annotations_.append({section, std::move(rows)});
  refresh();
}

void NodePanel::setDocument(Document* doc) {
  if (!doc || doc == doc_) return;
  disconnect(doc_, &Document::selectionChanged, this, &NodePanel::refresh);
  doc_ = doc;
  connect(doc_, &Document::selectionChanged, this, &NodePanel::refresh);
  refresh();
}

void NodePanel::refresh() {
  model_->reset();
  const ir::Node* n = doc_->focusNode();
  if (!n || !doc_->model()) return;
  auto q = [](const std::string& x) { return QString::fromStdString(x); };
  auto* general = model_->addSection(tr("Node"));
  model_->addRow(general, tr("op type"), q(n->opType));
  model_->addRow(general, tr("domain"), n->domain.empty() ? QStringLiteral("ai.onnx") : q(n->domain));
  model_->addRow(general, tr("name"), q(n->name));
  const int opset = int(doc_->model()->opsetVersion(n->domain));
  const auto facts = lookupOpSchema(q(n->opType), q(n->domain), opset);
  if (facts) {
    model_->addRow(general, tr("since version"), tr("%1 (model imports opset %2)").arg(facts->sinceVersion).arg(opset));
    if (!facts->doc.isEmpty()) model_->addRow(general, tr("documentation"), facts->doc);
  } else {
    model_->addRow(general, tr("since version"), tr("unknown to ONNX 1.12 at opset %1").arg(opset));
  }
  if (!n->docString.empty()) model_->addRow(general, tr("doc string"), q(n->docString));
  if (const ir::Graph* body = doc_->functionBody(n))
    model_->addGraphLink(general, tr("function"), tr("model-local function, %1 nodes (open)").arg(body->nodeCount()),
                         body);

  for (const auto& [title, annotation] : annotations_) {
    const auto rows = annotation ? annotation(n) : QList<QPair<QString, QString>>{};
    if (rows.isEmpty()) continue;
    auto* section = model_->addSection(title);
    for (const auto& [name, value] : rows) model_->addRow(section, name, value);
  }

  auto* attrs = model_->addSection(tr("Attributes (%1)").arg(n->attributes.size()));
  for (const auto& a : n->attributes) {
    if (a.type == ir::AttrType::Graph && !a.graphs.empty())
      model_->addGraphLink(attrs, q(a.name), tr("graph, %1 nodes (open)").arg(a.graphs[0]->nodeCount()),
                           a.graphs[0].get());
    else
      model_->addRow(attrs, q(a.name), q(a.valueToString(32)));
  }

  auto typeText = [this](const ir::Value* v) {
    const ir::TypeInfo* t = doc_->typeOf(v);
    return t ? QString::fromStdString(t->toString()) : tr("type unknown");
  };
  // Rows are named as the schema names them ("X", "W", "B"), by position where it does not (custom ops).
  auto rowName = [&facts](bool input, size_t i) {
    const QString name = facts ? formalName(input ? facts->inputs : facts->outputs, int(i)) : QString();
    return name.isEmpty() ? QString::number(i) : name;
  };
  auto* inputs = model_->addSection(tr("Inputs (%1)").arg(n->inputs().size()));
  for (size_t i = 0; i < n->inputs().size(); ++i) {
    const ir::Value* v = n->inputs()[i];
    if (!v) {
      model_->addRow(inputs, rowName(true, i), tr("(omitted)"));
      continue;
    }
    model_->addValueLink(inputs, rowName(true, i), QStringLiteral("%1  %2").arg(q(v->name()), typeText(v)), v);
    if (v->producer())
      model_->addNodeLink(inputs, tr("  from"), nodeLabel(v->producer()), v->producer());
    else
      model_->addRow(inputs, tr("  from"),
                     v->initializer()    ? tr("initializer")
                     : v->isGraphInput() ? tr("graph input")
                                         : tr("outer scope"));
  }
  auto* outputs = model_->addSection(tr("Outputs (%1)").arg(n->outputs().size()));
  for (size_t i = 0; i < n->outputs().size(); ++i) {
    const ir::Value* v = n->outputs()[i];
    if (!v) continue;
    model_->addValueLink(outputs, rowName(false, i), QStringLiteral("%1  %2").arg(q(v->name()), typeText(v)), v);
    for (const auto& use : v->uses()) model_->addNodeLink(outputs, tr("  to"), nodeLabel(use.node), use.node);
    if (v->isGraphOutput()) model_->addRow(outputs, tr("  to"), tr("graph output"));
  }
  finish();
}

}  // namespace fb::ui
