#pragma once
// Editing in the window (issue 28), in one piece the main window builds: Edit > Undo/Redo (the document's undo
// stack), the Undo History panel, the edit actions (Edit menu and graph context menu) and File > Save, Save As,
// Export Edits.... Editing acts on the window's document (the source model); a converted preview is not edited.
#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QUndoView;

namespace fb::ui {

class Document;
class EditActions;
class EditFileActions;

class Editing : public QObject {
  Q_OBJECT
 public:
  Editing(Document* doc, QMainWindow* window);

  // Save, Save As, Export Edits....
  void fillFileMenu(QMenu* file);
  // Undo, Redo, then the edit actions.
  void fillEditMenu(QMenu* edit);
  // What the graph's context menu adds (a separator first).
  QList<QAction*> contextActions() const;

  QAction* undoAction() const { return undo_; }
  QAction* redoAction() const { return redo_; }
  QDockWidget* historyDock() const { return historyDock_; }
  QUndoView* historyView() const { return historyView_; }
  EditActions* actions() const { return actions_; }
  EditFileActions* files() const { return files_; }

 private:
  Document* doc_;
  QAction* undo_;
  QAction* redo_;
  QAction* separator_;
  QDockWidget* historyDock_;
  QUndoView* historyView_;
  EditActions* actions_;
  EditFileActions* files_;
};

}  // namespace fb::ui
