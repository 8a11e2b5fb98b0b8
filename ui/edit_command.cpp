#include "ui/edit_command.h"

#include "edit/apply_edits.h"
#include "edit/edit_script.h"
#include "ui/document.h"

namespace fb::ui {

EditCommand::EditCommand(Document* doc, edit::Edit e, edit::Undo undo)
    : doc_(doc), edit_(std::move(e)), undo_(std::move(undo)) {
  setText(textOf(edit_));
}

QString EditCommand::textOf(const edit::Edit& e) {
  // The script line (quoted as a script quotes model strings); a long one is cut, the menu is not a log.
  QString line = QString::fromStdString(edit::formatEdit(e));
  constexpr int kMaxChars = 80;
  if (line.size() > kMaxChars) line = line.left(kMaxChars - 3) + QStringLiteral("...");
  return line;
}

void EditCommand::undo() {
  if (!applied_ || !undo_.revert) return;
  doc_->beginEdit();
  undo_.revert(doc_->editableModel());
  undo_ = {};
  applied_ = false;
  doc_->endEdit();
}

void EditCommand::redo() {
  if (applied_) return;
  doc_->beginEdit();
  try {
    edit::Applied a = edit::applyEdit(doc_->editableModel(), edit_);
    undo_ = std::move(a.undo);
    applied_ = true;
    doc_->logNotes(a.notes);
  } catch (const std::exception& ex) {
    // The model is as undo left it (applyEdit is all or nothing): this command can no longer be redone.
    emit doc_->logMessage(QObject::tr("Error: redo %1: %2").arg(text(), QString::fromStdString(ex.what())));
    setObsolete(true);
  }
  doc_->endEdit();
}

}  // namespace fb::ui
