#include "ui/inspector/property_tree_model.h"
#include "ui/theme/colors.h"

#include <QBrush>
#include <QFont>

namespace fb::ui {

PropertyTreeModel::PropertyTreeModel(QObject* parent) : QStandardItemModel(parent) { reset(); }

void PropertyTreeModel::reset() {
  clear();
  setHorizontalHeaderLabels({tr("Property"), tr("Value")});
}

QStandardItem* PropertyTreeModel::addSection(const QString& title) {
  auto* item = new QStandardItem(title);
  QFont f = item->font();
  f.setBold(true);
  item->setFont(f);
  item->setEditable(false);
  auto* empty = new QStandardItem;
  empty->setEditable(false);
  appendRow({item, empty});
  return item;
}

QStandardItem* PropertyTreeModel::addRow(QStandardItem* section, const QString& name, const QString& value) {
  auto* k = new QStandardItem(name);
  auto* v = new QStandardItem(value);
  k->setEditable(false);
  v->setEditable(false);
  v->setToolTip(value);
  (section ? section : invisibleRootItem())->appendRow({k, v});
  return v;
}

void PropertyTreeModel::addPairRow(QStandardItem* section, const QString& name, const QString& first,
                                   const QString& second) {
  QList<QStandardItem*> row{new QStandardItem(name), new QStandardItem(first), new QStandardItem(second)};
  for (QStandardItem* item : row) {
    item->setEditable(false);
    item->setToolTip(item->text());
  }
  (section ? section : invisibleRootItem())->appendRow(row);
}

void PropertyTreeModel::setPairTitles(const QString& first, const QString& second) {
  setHorizontalHeaderLabels({tr("Property"), first, second});
}

QStandardItem* PropertyTreeModel::addNodeLink(QStandardItem* section, const QString& name, const QString& text,
                                              const ir::Node* n) {
  QStandardItem* v = addRow(section, name, text);
  if (n) {
    v->setData(QVariant::fromValue(static_cast<const void*>(n)), LinkNodeRole);
    v->setForeground(QBrush(linkColor()));
  }
  return v;
}

QStandardItem* PropertyTreeModel::addValueLink(QStandardItem* section, const QString& name, const QString& text,
                                               const ir::Value* val) {
  QStandardItem* v = addRow(section, name, text);
  if (val) {
    v->setData(QVariant::fromValue(static_cast<const void*>(val)), LinkValueRole);
    v->setForeground(QBrush(linkColor()));
  }
  return v;
}

QStandardItem* PropertyTreeModel::addGraphLink(QStandardItem* section, const QString& name, const QString& text,
                                               const void* graph) {
  QStandardItem* v = addRow(section, name, text);
  v->setData(QVariant::fromValue(graph), LinkGraphRole);
  v->setForeground(QBrush(linkColor()));
  return v;
}

QString PropertyTreeModel::valueOf(const QString& name, int column) const {
  const auto hits = match(index(0, 0), Qt::DisplayRole, name, 1, Qt::MatchExactly | Qt::MatchRecursive);
  if (hits.isEmpty()) return {};
  return hits.first().siblingAtColumn(column).data().toString();
}

}  // namespace fb::ui
