#pragma once
// Editing in the window (issue 28), in one piece the main window builds: Edit > Undo/Redo (the document's undo
// stack), the Undo History panel, the edit actions (Edit menu and graph context menu) and File > Save, Save As,
// Export Edits.... Editing acts on the window's document (the source model); a converted preview is not edited.
#include <QList>
#include <QObject>

#include "ui/edit/edit_actions.h"

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QUndoView;

namespace fb::ui {

class Document;
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
  // Puts contextActions() on `widget` (Qt::ActionsContextMenu), and there too what addDialogAction() adds later.
  void addContextActionsTo(QWidget* widget);
  // An edit made in a dialog: the action applies what `build` returns (nullopt: cancelled) through
  // Document::applyEdit, and goes into the Edit menu (and the context menu when `onSelection`).
  QAction* addDialogAction(const QString& objectName, const QString& text, EditActions::EditBuilder build,
                           EditActions::Applicable applicable = {}, bool onSelection = false);

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
  QMenu* editMenu_ = nullptr;
  QWidget* contextWidget_ = nullptr;
  QDockWidget* historyDock_;
  QUndoView* historyView_;
  EditActions* actions_;
  EditFileActions* files_;
};

}  // namespace fb::ui
