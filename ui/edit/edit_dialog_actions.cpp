#include "ui/edit/edit_dialog_actions.h"

#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"
#include "ui/document.h"
#include "ui/edit/dialogs/attribute_editor_dialog.h"
#include "ui/edit/dialogs/initializer_editor_dialog.h"
#include "ui/edit/dialogs/insert_node_dialog.h"
#include "ui/edit/dialogs/model_info_dialog.h"
#include "ui/edit/dialogs/op_type_dialog.h"
#include "ui/edit/editing.h"

namespace fb::ui {

namespace {

// The value an Insert Node goes after: the selected value, else the focused node's first output.
const ir::Value* insertionValue(const Document& doc) {
  if (const ir::Value* v = doc.selectedValue(); v && !v->initializer()) return v;
  const ir::Node* n = doc.focusNode();
  return n && !n->outputs().empty() && n->output(0) && !n->output(0)->name().empty() ? n->output(0) : nullptr;
}

const ir::Value* selectedWeight(const Document& doc) {
  const ir::Value* v = doc.selectedValue();
  return v && v->initializer() ? v : nullptr;
}

}  // namespace

void addEditDialogActions(Editing& editing) {
  auto focused = [](const Document& doc) { return doc.focusNode() != nullptr; };
  editing.addDialogAction(
      "editAttributes", QObject::tr("Edit &Attributes..."),
      [](QWidget* parent, const Document& doc) {
        return AttributeEditorDialog::ask(parent, *doc.model(), *doc.focusNode());
      },
      focused, true);
  editing.addDialogAction(
      "changeOpType", QObject::tr("Change Op &Type..."),
      [](QWidget* parent, const Document& doc) { return OpTypeDialog::ask(parent, *doc.model(), *doc.focusNode()); },
      focused, true);
  editing.addDialogAction(
      "insertNode", QObject::tr("&Insert Node After..."),
      [](QWidget* parent, const Document& doc) {
        return InsertNodeDialog::ask(parent, *doc.model(), insertionValue(doc)->name());
      },
      [](const Document& doc) { return insertionValue(doc) != nullptr; }, true);
  editing.addDialogAction(
      "editWeight", QObject::tr("Edit &Weight..."),
      [](QWidget* parent, const Document& doc) {
        return InitializerEditorDialog::ask(parent, *doc.model(), selectedWeight(doc)->name());
      },
      [](const Document& doc) { return selectedWeight(doc) != nullptr; }, true);
  // Model Properties gives one edit per changed field: each is applied (and undone) on its own, the last through
  // the action's own path.
  Editing* e = &editing;
  editing.addDialogAction("modelProperties", QObject::tr("Model &Properties..."),
                          [e](QWidget* parent, const Document& doc) -> std::optional<edit::Edit> {
                            auto edits = ModelInfoDialog::ask(parent, *doc.model());
                            if (!edits || edits->empty()) return std::nullopt;
                            for (size_t i = 0; i + 1 < edits->size(); ++i)
                              if (!e->actions()->apply((*edits)[i])) return std::nullopt;
                            return edits->back();
                          });
}

}  // namespace fb::ui
