#pragma once
// Two columns (property, value) in sections (three where two values are compared); a value can link to a node or a
// tensor, which the panels turn into a jump when clicked.
#include <QStandardItemModel>

namespace fb::ir {
class Node;
class Value;
}  // namespace fb::ir

namespace fb::ui {

class PropertyTreeModel : public QStandardItemModel {
  Q_OBJECT
 public:
  enum Role { LinkNodeRole = Qt::UserRole + 1, LinkValueRole, LinkGraphRole };
  explicit PropertyTreeModel(QObject* parent = nullptr);

  void reset();
  QStandardItem* addSection(const QString& title);
  QStandardItem* addRow(QStandardItem* section, const QString& name, const QString& value);
  // A row with a second value beside the first (two things compared: a source's value and its conversion's); the
  // header names the two value columns.
  void addPairRow(QStandardItem* section, const QString& name, const QString& first, const QString& second);
  void setPairTitles(const QString& first, const QString& second);
  // Value text that jumps to a node / tensor / subgraph when activated.
  QStandardItem* addNodeLink(QStandardItem* section, const QString& name, const QString& text, const ir::Node* n);
  QStandardItem* addValueLink(QStandardItem* section, const QString& name, const QString& text, const ir::Value* v);
  QStandardItem* addGraphLink(QStandardItem* section, const QString& name, const QString& text, const void* graph);
  // The text of the value column for a property name anywhere in the tree (for tests and tooltips).
  QString valueOf(const QString& name, int column = 1) const;
};

}  // namespace fb::ui
