#include "ui/widgets/shortcuts_dialog.h"
#include "ui/theme/colors.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace fb::ui {
namespace {

QString plain(QString text) {
  text.remove(QLatin1Char('&'));
  return text;
}

void walk(const QList<QAction*>& actions, const QString& path, QList<ShortcutEntry>& out, QSet<QAction*>& seen) {
  for (QAction* a : actions) {
    if (a->isSeparator()) continue;
    if (QMenu* sub = a->menu()) {
      walk(sub->actions(), path + plain(sub->title()) + QStringLiteral(" > "), out, seen);
      continue;
    }
    if (a->shortcut().isEmpty() || seen.contains(a)) continue;
    seen.insert(a);
    out.append({path + plain(a->text()), a->shortcut(), a});
  }
}

}  // namespace

QList<QPair<QString, QString>> graphViewKeys() {
  return {
      {QObject::tr("Up, Down, Left, Right"),
       QObject::tr("Move the selection along an edge to a neighbour (pan when nothing is selected)")},
      {QObject::tr("Enter"), QObject::tr("Expand the selected block, or open the selected node's body")},
      {QObject::tr("Backspace"), QObject::tr("Go up the breadcrumb")},
      {QObject::tr("Esc"), QObject::tr("Clear the selection")},
  };
}

QList<ShortcutEntry> shortcutsOf(QMainWindow* window) {
  QList<ShortcutEntry> out;
  QSet<QAction*> seen;
  walk(window->menuBar()->actions(), QString(), out, seen);
  for (QAction* a : window->findChildren<QAction*>()) {
    if (seen.contains(a) || a->shortcut().isEmpty() || a->menu()) continue;
    seen.insert(a);
    out.append({plain(a->text()), a->shortcut(), a});
  }
  return out;
}

ShortcutsDialog::ShortcutsDialog(QMainWindow* window)
    : QDialog(window), table_(new QTableWidget(this)), viewKeys_(new QTableWidget(this)) {
  setWindowTitle(tr("Keyboard Shortcuts"));
  setObjectName(QStringLiteral("shortcutsDialog"));
  const auto entries = shortcutsOf(window);
  QHash<QString, int> uses;
  for (const auto& e : entries) ++uses[e.keys.toString(QKeySequence::PortableText)];
  for (auto it = uses.begin(); it != uses.end(); ++it)
    if (it.value() > 1) conflicts_ << it.key();
  table_->setColumnCount(2);
  table_->setHorizontalHeaderLabels({tr("Command"), tr("Shortcut")});
  table_->setRowCount(int(entries.size()));
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int i = 0; i < int(entries.size()); ++i) {
    const auto& e = entries[i];
    const QString keys = e.keys.toString(QKeySequence::NativeText);
    table_->setItem(i, 0, new QTableWidgetItem(e.where));
    auto* key = new QTableWidgetItem(keys);
    if (conflicts_.contains(e.keys.toString(QKeySequence::PortableText))) {
      key->setForeground(conflictColor());
      key->setToolTip(tr("This key is bound to more than one command"));
    }
    table_->setItem(i, 1, key);
  }
  const auto viewKeys = graphViewKeys();
  viewKeys_->setColumnCount(2);
  viewKeys_->setHorizontalHeaderLabels({tr("In the graph view"), tr("Key")});
  viewKeys_->setRowCount(int(viewKeys.size()));
  viewKeys_->verticalHeader()->hide();
  viewKeys_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  viewKeys_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int i = 0; i < int(viewKeys.size()); ++i) {
    viewKeys_->setItem(i, 0, new QTableWidgetItem(viewKeys[i].second));
    viewKeys_->setItem(i, 1, new QTableWidgetItem(viewKeys[i].first));
  }
  viewKeys_->setMaximumHeight(viewKeys_->horizontalHeader()->height() +
                              int(viewKeys.size()) * viewKeys_->verticalHeader()->defaultSectionSize() + 4);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_);
  layout->addWidget(viewKeys_);
  if (!conflicts_.isEmpty())
    layout->addWidget(new QLabel(tr("Bound twice: %1").arg(conflicts_.join(QStringLiteral(", "))), this));
  layout->addWidget(buttons);
  resize(520, 600);
}

}  // namespace fb::ui
