#include "ui/edit/edit_actions.h"

#include <QAction>
#include <QMainWindow>
#include <QStatusBar>

#include "ir/graph.h"
#include "ui/document.h"
#include "ui/edit/selection_edits.h"

namespace fb::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
std::string ss(const QString& s) { return s.toStdString(); }

bool onMainGraph(const Document& d) { return d.levelCount() == 1; }
// Edits name main-graph nodes and values: a body's are not edited here.
const ir::Node* mainNode(const Document& d) { return onMainGraph(d) ? d.focusNode() : nullptr; }
const ir::Value* mainValue(const Document& d) {
  if (!onMainGraph(d)) return nullptr;
  if (const ir::Value* v = d.selectedValue()) return v;
  const ir::Node* n = d.focusNode();
  return n && n->outputs().size() == 1 ? n->outputs().front() : nullptr;
}
QStringList graphInputs(const ir::Graph& g) {
  QStringList out;
  for (const ir::Value* v : g.inputs())
    if (!v->initializer()) out << qs(v->name());
  return out;
}
QStringList graphOutputs(const ir::Graph& g) {
  QStringList out;
  for (const ir::Value* v : g.outputs()) out << qs(v->name());
  return out;
}

}  // namespace

EditActions::EditActions(Document* doc, QMainWindow* window) : QObject(window), doc_(doc), window_(window) {
  const EditQuestions* q = &questions_;
  auto namedNodeSelected = [](const Document& d) { return mainNode(d) && !mainNode(d)->name.empty(); };
  auto valueSelected = [](const Document& d) { return mainValue(d) != nullptr; };

  addDialogAction(
      QStringLiteral("editSetInputShape"), tr("Set Input &Shape..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        const ir::Graph& g = d.model()->graph();
        const QStringList inputs = graphInputs(g);
        const ir::Value* v = mainValue(d);
        QString name = v && inputs.contains(qs(v->name())) ? qs(v->name()) : QString();
        if (name.isEmpty()) {
          auto chosen = q->item(parent, tr("Set input shape"), tr("Graph input:"), inputs, 0);
          if (!chosen) return std::nullopt;
          name = *chosen;
        }
        const ir::Value* input = g.findValue(ss(name));
        auto shape = q->text(parent, tr("Set input shape"),
                             tr("Shape of %1 (dims, e.g. 1,3,224,224; a name is a symbolic dim, ? unknown):").arg(name),
                             input ? shapeText(input->type) : QString());
        if (!shape) return std::nullopt;
        return edit::Edit{"set-input-shape", {}}.set("name", ss(name)).set("shape", ss(*shape));
      },
      [](const Document& d) { return !graphInputs(d.model()->graph()).isEmpty(); }, true);

  addDialogAction(
      QStringLiteral("editSetDim"), tr("Set Symbolic &Dim..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        auto dim = q->item(parent, tr("Set symbolic dim"), tr("Dim:"), symbolicDims(d.model()->graph()), 0);
        if (!dim) return std::nullopt;
        auto value = q->text(parent, tr("Set symbolic dim"), tr("%1 becomes (a number, or a new name):").arg(*dim), {});
        if (!value) return std::nullopt;
        return edit::Edit{"set-dim", {}}.set("name", ss(*dim)).set("value", ss(*value));
      },
      [](const Document& d) { return !symbolicDims(d.model()->graph()).isEmpty(); });

  addDialogAction(
      QStringLiteral("editRenameNode"), tr("Rename &Node..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        const ir::Node* n = mainNode(d);
        auto to = q->text(parent, tr("Rename node"), tr("New name of %1:").arg(qs(n->name)), qs(n->name));
        if (!to) return std::nullopt;
        return edit::Edit{"rename-node", {}}.set("from", n->name).set("to", ss(*to));
      },
      namedNodeSelected, true);

  addDialogAction(
      QStringLiteral("editRenameValue"), tr("Rename &Value..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        const ir::Value* v = mainValue(d);
        auto to = q->text(parent, tr("Rename value"), tr("New name of %1:").arg(qs(v->name())), qs(v->name()));
        if (!to) return std::nullopt;
        return edit::Edit{"rename-value", {}}.set("from", v->name()).set("to", ss(*to));
      },
      valueSelected, true);

  addDialogAction(
      QStringLiteral("editAddOutput"), tr("Add as Graph &Output"),
      [](QWidget*, const Document& d) -> std::optional<edit::Edit> {
        return edit::Edit{"add-output", {}}.set("value", mainValue(d)->name());
      },
      [](const Document& d) { return mainValue(d) && !mainValue(d)->isGraphOutput(); }, true);

  addDialogAction(
      QStringLiteral("editRemoveOutput"), tr("Remove Graph O&utput..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        const ir::Value* v = mainValue(d);
        QString name = v && v->isGraphOutput() ? qs(v->name()) : QString();
        if (name.isEmpty()) {
          auto chosen = q->item(parent, tr("Remove graph output"), tr("Output:"), graphOutputs(d.model()->graph()), 0);
          if (!chosen) return std::nullopt;
          name = *chosen;
        }
        return edit::Edit{"remove-output", {}}.set("value", ss(name));
      },
      [](const Document& d) { return d.model()->graph().outputs().size() > 1; }, true);

  addDialogAction(
      QStringLiteral("editDeleteNode"), tr("&Delete Node..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        const ir::Node* n = mainNode(d);
        const QString none = tr("(none: its readers read new graph inputs)");
        QStringList choices{none};
        for (const ir::Value* in : n->inputs())
          if (in && !in->name().empty() && !choices.contains(qs(in->name()))) choices << qs(in->name());
        auto rewire =
            q->item(parent, tr("Delete node"), tr("The readers of %1's output read instead:").arg(qs(n->name)), choices,
                    choices.size() > 1 ? 1 : 0);
        if (!rewire) return std::nullopt;
        edit::Edit e{"remove-node", {}};
        e.set("node", n->name);
        if (*rewire != none) e.set("rewire", ss(*rewire));
        return e;
      },
      namedNodeSelected, true);

  addDialogAction(
      QStringLiteral("editBypassNode"), tr("&Bypass Node"),
      [](QWidget*, const Document& d) -> std::optional<edit::Edit> {
        return edit::Edit{"bypass-node", {}}.set("node", mainNode(d)->name);
      },
      namedNodeSelected, true);

  addDialogAction(
      QStringLiteral("editExtractSelection"), tr("E&xtract Selection as the Model"),
      [](QWidget*, const Document& d) -> std::optional<edit::Edit> {
        std::vector<const ir::Node*> nodes(d.selectedNodes().begin(), d.selectedNodes().end());
        return extractionOf(nodes);
      },
      [](const Document& d) { return onMainGraph(d) && !d.selectedNodes().isEmpty(); }, true);

  addDialogAction(
      QStringLiteral("editCutAtValue"), tr("&Cut Graph at Value..."),
      [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
        const QString before = tr("before: keep what computes it"), after = tr("after: keep what reads it");
        auto side = q->item(parent, tr("Cut graph"), tr("Keep the part of the graph:"), {before, after}, 0);
        if (!side) return std::nullopt;
        return edit::Edit{"cut", {}}
            .set("value", mainValue(d)->name())
            .set("side", *side == after ? "after" : "before");
      },
      valueSelected, true);

  addDialogAction(QStringLiteral("editPrune"), tr("Delete Everything the Outputs Do Not &Need"),
                  [](QWidget*, const Document&) -> std::optional<edit::Edit> {
                    return edit::Edit{"prune", {}};
                  });

  addDialogAction(QStringLiteral("editSetProducer"), tr("Set &Producer..."),
                  [q](QWidget* parent, const Document& d) -> std::optional<edit::Edit> {
                    auto name = q->text(parent, tr("Set producer"), tr("Producer name:"), qs(d.model()->producerName));
                    if (!name) return std::nullopt;
                    auto version =
                        q->text(parent, tr("Set producer"), tr("Producer version:"), qs(d.model()->producerVersion));
                    if (!version) return std::nullopt;
                    return edit::Edit{"set-producer", {}}.set("name", ss(*name)).set("version", ss(*version));
                  });

  connect(doc_, &Document::selectionChanged, this, &EditActions::updateEnabled);
  connect(doc_, &Document::modelChanged, this, &EditActions::updateEnabled);
  connect(doc_, &Document::loadStarted, this, &EditActions::updateEnabled);
  updateEnabled();
}

QAction* EditActions::addDialogAction(const QString& objectName, const QString& text, EditBuilder build,
                                      Applicable applicable, bool onSelection) {
  auto* a = new QAction(text, this);
  a->setObjectName(objectName);
  connect(a, &QAction::triggered, this, [this, build = std::move(build)] {
    if (!doc_->isEditable()) return;
    if (auto e = build(window_, *doc_)) apply(*e);
  });
  actions_.append(a);
  if (onSelection) contextActions_.append(a);
  applicable_.append({a, std::move(applicable)});
  updateEnabled();
  return a;
}

bool EditActions::apply(const edit::Edit& e) {
  QString error;
  if (doc_->applyEdit(e, &error)) return true;
  emit doc_->logMessage(tr("Error: Edit: %1").arg(error));
  window_->statusBar()->showMessage(tr("Not edited: %1").arg(error), 10000);
  return false;
}

void EditActions::updateEnabled() {
  const bool editable = doc_->isEditable() && doc_->hasGraph();
  for (const auto& [action, applicable] : applicable_)
    action->setEnabled(editable && (!applicable || applicable(*doc_)));
}

}  // namespace fb::ui
