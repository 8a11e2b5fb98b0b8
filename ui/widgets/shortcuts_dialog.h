#pragma once
// Help > Keyboard Shortcuts: every action of a window that has a shortcut, with where it is in the menus, read
// from the actions themselves so the list cannot go stale. Two actions on one key are listed as a conflict.
#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QPair>

class QMainWindow;
class QTableWidget;
class QAction;

namespace fb::ui {

struct ShortcutEntry {
  QString where;  // "Convert > Preview Conversion", or the action's text when it is in no menu
  QKeySequence keys;
  QAction* action = nullptr;
};

// The window's actions with a shortcut: through its menu bar first (in menu order), then any other action.
QList<ShortcutEntry> shortcutsOf(QMainWindow* window);

// Keys a graph view handles itself, with no action behind them (GraphView::keyPressEvent): (keys, what they do).
QList<QPair<QString, QString>> graphViewKeys();

class ShortcutsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ShortcutsDialog(QMainWindow* window);
  QTableWidget* table() const { return table_; }
  // The graph view's own keys (graphViewKeys()), below the commands.
  QTableWidget* viewKeysTable() const { return viewKeys_; }
  // Keys bound to more than one action ("Ctrl+E"); empty when every key does one thing.
  QStringList conflicts() const { return conflicts_; }

 private:
  QTableWidget* table_;
  QTableWidget* viewKeys_;
  QStringList conflicts_;
};

}  // namespace fb::ui
