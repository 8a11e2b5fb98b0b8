#include "ui/edit/editing.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QUndoStack>
#include <QUndoView>

#include "ui/document.h"
#include "ui/edit/edit_file_actions.h"

namespace fb::ui {

Editing::Editing(Document* doc, QMainWindow* window) : QObject(window), doc_(doc) {
  QUndoStack* stack = doc_->undoStack();
  // QUndoStack's own actions: enabled with the stack, their texts naming the edit ("Undo set-dim name=N value=1").
  undo_ = stack->createUndoAction(this, tr("&Undo"));
  undo_->setObjectName(QStringLiteral("undoEdit"));
  undo_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
  redo_ = stack->createRedoAction(this, tr("&Redo"));
  redo_->setObjectName(QStringLiteral("redoEdit"));
  redo_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
  separator_ = new QAction(this);
  separator_->setSeparator(true);

  historyView_ = new QUndoView(stack);
  historyView_->setEmptyLabel(tr("<opened model>"));
  historyDock_ = new QDockWidget(tr("Undo History"), window);
  historyDock_->setObjectName(QStringLiteral("Undo History"));
  historyDock_->setWidget(historyView_);
  window->addDockWidget(Qt::RightDockWidgetArea, historyDock_);
  historyDock_->hide();

  actions_ = new EditActions(doc_, window);
  files_ = new EditFileActions(doc_, window);
}

void Editing::fillFileMenu(QMenu* file) {
  file->addAction(files_->saveAction());
  file->addAction(files_->saveAsAction());
  file->addAction(files_->exportEditsAction());
}

void Editing::fillEditMenu(QMenu* edit) {
  edit->addAction(undo_);
  edit->addAction(redo_);
  edit->addSeparator();
  edit->addActions(actions_->actions());
  editMenu_ = edit;
}

void Editing::addContextActionsTo(QWidget* widget) {
  contextWidget_ = widget;
  widget->addActions(contextActions());
}

QAction* Editing::addDialogAction(const QString& objectName, const QString& text, EditActions::EditBuilder build,
                                  EditActions::Applicable applicable, bool onSelection) {
  QAction* a = actions_->addDialogAction(objectName, text, std::move(build), std::move(applicable), onSelection);
  if (editMenu_) editMenu_->addAction(a);
  if (onSelection && contextWidget_) contextWidget_->addAction(a);
  return a;
}

QList<QAction*> Editing::contextActions() const {
  QList<QAction*> out{separator_};
  out += actions_->contextActions();
  return out;
}

}  // namespace fb::ui
