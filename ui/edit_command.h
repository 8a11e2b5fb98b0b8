#pragma once
// One applied edit on the document's undo stack. It is pushed after the document applied the edit (so its first
// redo() does nothing); undo() runs the edit's undo record (which holds only what the edit changed, never a copy of
// the model) and redo() applies the edit again, keeping the new record.
#include <QUndoCommand>

#include "edit/edit.h"

namespace fb::ui {

class Document;

class EditCommand : public QUndoCommand {
 public:
  EditCommand(Document* doc, edit::Edit e, edit::Undo undo);
  void undo() override;
  void redo() override;
  const edit::Edit& edit() const { return edit_; }
  // An estimate of the memory the undo record holds.
  size_t undoBytes() const { return undo_.bytes; }
  // What Undo/Redo and the Undo History call an edit: "set-input-shape name=x shape=1,3" (shortened).
  static QString textOf(const edit::Edit& e);

 private:
  Document* doc_;
  edit::Edit edit_;
  edit::Undo undo_;
  bool applied_ = true;  // pushed applied: the stack's first redo() is a no-op
};

}  // namespace fb::ui
