#include "ui/edit/edit_file_actions.h"

#include <QAction>
#include <QFileInfo>
#include <QMainWindow>
#include <QUndoStack>
#include <cstdlib>

#include "ui/document.h"
#include "ui/edit/model_save.h"

namespace fb::ui {

EditFileActions::EditFileActions(Document* doc, QMainWindow* window) : QObject(window), doc_(doc), window_(window) {
  save_ = new QAction(tr("&Save"), this);
  save_->setObjectName(QStringLiteral("saveModel"));
  save_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
  save_->setToolTip(tr("Write the edited model (asks before replacing the file it was opened from)"));
  connect(save_, &QAction::triggered, this, [this] { save(); });
  // No shortcut: Ctrl+Shift+S is Save converted... (Convert menu).
  saveAs_ = new QAction(tr("Save &As..."), this);
  saveAs_->setObjectName(QStringLiteral("saveModelAs"));
  connect(saveAs_, &QAction::triggered, this, [this] { saveAs(); });
  exportEdits_ = new QAction(tr("Export E&dits..."), this);
  exportEdits_->setObjectName(QStringLiteral("exportEdits"));
  exportEdits_->setToolTip(
      tr("Write the edits as a script: flowbridge-cli edit MODEL --script FILE -o OUT replays it"));
  connect(exportEdits_, &QAction::triggered, this, [this] { exportEdits(); });

  QUndoStack* stack = doc_->undoStack();
  connect(stack, &QUndoStack::cleanChanged, this, [this](bool clean) {
    window_->setWindowModified(!clean);
    updateActions();
  });
  connect(stack, &QUndoStack::indexChanged, this, &EditFileActions::updateActions);
  connect(doc_, &Document::modelChanged, this, [this] {
    if (!doc_->isApplyingEdit()) saveTarget_.clear();  // another model: its file is asked about again
    window_->setWindowModified(doc_->isModified());
    updateActions();
  });
  updateActions();
}

void EditFileActions::updateActions() {
  save_->setEnabled(doc_->isEditable() && doc_->isModified());
  saveAs_->setEnabled(doc_->isEditable());
  exportEdits_->setEnabled(doc_->isEditable() && doc_->undoStack()->index() > 0);
}

bool EditFileActions::writeTo(const QString& path, bool replaceOpened) {
  QString error;
  if (!writeEditedModel(*doc_->model(), path, replaceOpened, &error)) {
    emit doc_->logMessage(tr("Error: Save: %1").arg(error));
    return false;
  }
  emit doc_->logMessage(
      tr("Saved %1 (%2 edits, %3 bytes)").arg(path).arg(doc_->undoStack()->index()).arg(QFileInfo(path).size()));
  saveTarget_ = path;
  doc_->markSaved(path);
  // The window is the file it saved to now (the main window's title, "[*]" the modified mark).
  window_->setWindowTitle(tr("FlowBridge - %1[*]").arg(QFileInfo(path).fileName()));
  window_->setWindowModified(false);
  emit saved(path);
  return true;
}

bool EditFileActions::save() {
  if (!doc_->isEditable()) return false;
  if (!saveTarget_.isEmpty()) return writeTo(saveTarget_, isOpenedFile(*doc_->model(), saveTarget_));
  const QString opened = doc_->path();
  if (!confirmOverwrite_(window_, opened)) return saveAs();
  return writeTo(opened, true);
}

bool EditFileActions::saveAs() {
  if (!doc_->isEditable()) return false;
  const QString filter = tr("ONNX (*.onnx)");
  QString selected = filter;
  const QString suggested =
      inLastFolder(DialogKind::Save, suggestedExportPath(doc_->path(), QStringLiteral("edited.onnx")));
  const QString chosen = choosePath_(window_, tr("Save edited model"), suggested, filter, &selected);
  if (chosen.isEmpty()) return false;
  rememberFolder(DialogKind::Save, chosen);
  const QString path = withSuffix(chosen, {QStringLiteral("onnx")}, QStringLiteral("onnx"));
  const bool opened = isOpenedFile(*doc_->model(), path);
  if (opened && !confirmOverwrite_(window_, path)) return false;
  return writeTo(path, opened);
}

bool EditFileActions::exportEdits() {
  if (!doc_->isEditable()) return false;
  const QString filter = tr("Edit scripts (*.txt)");
  QString selected = filter;
  const QString suggested =
      inLastFolder(DialogKind::Export, suggestedExportPath(doc_->path(), QStringLiteral("edits.txt")));
  const QString chosen = choosePath_(window_, tr("Export edits"), suggested, filter, &selected);
  if (chosen.isEmpty()) return false;
  rememberFolder(DialogKind::Export, chosen);
  const auto edits = doc_->appliedEdits();
  QString error;
  if (isOpenedFile(*doc_->model(), chosen)) error = tr("%1: it is the file the model was opened from").arg(chosen);
  if (!error.isEmpty() || !writeEditScript(edits, chosen, &error)) {
    emit doc_->logMessage(tr("Error: Export Edits: %1").arg(error));
    return false;
  }
  emit doc_->logMessage(tr("Exported %1 edits to %2").arg(edits.size()).arg(chosen));
  return true;
}

bool EditFileActions::maySetModelAside() {
  if (!doc_->model() || !doc_->isModified()) return true;
  const QUndoStack* stack = doc_->undoStack();
  const int unsaved = stack->cleanIndex() < 0 ? stack->count() : std::abs(stack->index() - stack->cleanIndex());
  switch (askUnsaved_(window_, doc_->name(), unsaved)) {
    case UnsavedEditsAnswer::Save:
      return save();
    case UnsavedEditsAnswer::Discard:
      return true;
    case UnsavedEditsAnswer::Cancel:
      break;
  }
  return false;
}

}  // namespace fb::ui
