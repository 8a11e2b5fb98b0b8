#pragma once
// For tests and benches of what follows an edit: an edit of the document's model through Document::applyEdit (a
// command on its undo stack), and undo through that stack.
#include <QUndoStack>

#include "edit/edit.h"
#include "ui/document.h"

namespace fb::test {

// Applies `e` (throws edit::EditError with the document's reason when it does not apply).
inline void editInPlace(ui::Document& doc, const edit::Edit& e) {
  QString why;
  if (!doc.applyEdit(e, &why)) throw edit::EditError(e, why.toStdString());
}

// Undoes the newest edit on the document's undo stack.
inline void undoInPlace(ui::Document& doc) { doc.undoStack()->undo(); }

}  // namespace fb::test
