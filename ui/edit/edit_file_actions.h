#pragma once
// File > Save, Save As and Export Edits... of an edited model, the window's modified mark, and the question about
// unsaved edits before the model is set aside (closing the window, opening another model, reloading).
#include <QObject>

#include "ui/edit/save_questions.h"
#include "ui/save_paths.h"

class QAction;
class QMainWindow;

namespace fb::ui {

class Document;

class EditFileActions : public QObject {
  Q_OBJECT
 public:
  EditFileActions(Document* doc, QMainWindow* window);

  QAction* saveAction() const { return save_; }
  QAction* saveAsAction() const { return saveAs_; }
  QAction* exportEditsAction() const { return exportEdits_; }

  // Save: to the file Save As chose, else over the opened file after the overwrite question (asked once per
  // model). False when nothing was written (cancelled, or an error: in the Log).
  bool save();
  bool saveAs();
  // Writes the edits up to the undo stack's index as an edit script (asks for the file).
  bool exportEdits();
  // True when the model may go: no unsaved edits, or the user saved (and it worked) or discarded them.
  bool maySetModelAside();

  // Tests answer in place of the dialogs.
  void setSavePathChooser(ChooseSavePath chooser) { choosePath_ = std::move(chooser); }
  void setUnsavedEditsQuestion(AskUnsavedEdits ask) { askUnsaved_ = std::move(ask); }
  void setOverwriteQuestion(ConfirmOverwriteOpened confirm) { confirmOverwrite_ = std::move(confirm); }

 signals:
  void saved(const QString& path);

 private:
  bool writeTo(const QString& path, bool replaceOpened);
  void updateActions();

  Document* doc_;
  QMainWindow* window_;
  QAction* save_;
  QAction* saveAs_;
  QAction* exportEdits_;
  QString saveTarget_;  // where Save writes without asking (Save As's choice, a confirmed opened file)
  ChooseSavePath choosePath_ = fileDialogChooser();
  AskUnsavedEdits askUnsaved_ = unsavedEditsMessageBox();
  ConfirmOverwriteOpened confirmOverwrite_ = overwriteOpenedMessageBox();
};

}  // namespace fb::ui
