#pragma once
// Help > Keyboard Shortcuts: every action of a window that has a shortcut, with where it is in the menus, read
// from the actions themselves so the list cannot go stale. Two actions on one key are listed as a conflict.
#include <QDialog>
#include <QKeySequence>
#include <QList>

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

class ShortcutsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ShortcutsDialog(QMainWindow* window);
  QTableWidget* table() const { return table_; }
  // Keys bound to more than one action ("Ctrl+E"); empty when every key does one thing.
  QStringList conflicts() const { return conflicts_; }

 private:
  QTableWidget* table_;
  QStringList conflicts_;
};

}  // namespace fb::ui
