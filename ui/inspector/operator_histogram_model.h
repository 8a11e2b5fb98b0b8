#pragma once
// Op types of the current graph with their counts, most frequent first.
#include <QAbstractTableModel>
#include <QList>
#include <vector>

namespace fb::ir {
class Graph;
class Node;
}  // namespace fb::ir

namespace fb::ui {

class OperatorHistogramModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  explicit OperatorHistogramModel(QObject* parent = nullptr);
  void setGraph(const ir::Graph* g);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  QString opAt(int row) const { return rows_[row].op; }
  QList<const ir::Node*> nodesAt(int row) const { return rows_[row].nodes; }

 private:
  struct Row {
    QString op;
    QList<const ir::Node*> nodes;
  };
  std::vector<Row> rows_;
  int maxCount_ = 1;
};

}  // namespace fb::ui
