#include "ui/inspector/operator_histogram_model.h"

#include <QColor>
#include <QHash>
#include <algorithm>

#include "ir/graph.h"
#include "layout/op_category.h"

namespace fb::ui {

OperatorHistogramModel::OperatorHistogramModel(QObject* parent) : QAbstractTableModel(parent) {}

void OperatorHistogramModel::setGraph(const ir::Graph* g) {
  beginResetModel();
  rows_.clear();
  if (g) {
    QHash<QString, size_t> rowOf;
    // Bodies of If/Loop/Scan count too: an op only used inside a branch is still in the model.
    std::vector<const ir::Graph*> graphs{g};
    for (size_t i = 0; i < graphs.size(); ++i)
      for (const auto& n : graphs[i]->nodes()) {
        const QString op = QString::fromStdString(n->qualifiedOp());
        auto it = rowOf.find(op);
        if (it == rowOf.end()) {
          it = rowOf.insert(op, rows_.size());
          rows_.push_back({op, {}});
        }
        rows_[*it].nodes.append(n.get());
        for (const ir::Graph* body : n->subgraphs()) graphs.push_back(body);
      }
    std::stable_sort(rows_.begin(), rows_.end(),
                     [](const Row& a, const Row& b) { return a.nodes.size() > b.nodes.size(); });
  }
  maxCount_ = rows_.empty() ? 1 : int(rows_.front().nodes.size());
  endResetModel();
}

int OperatorHistogramModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}
int OperatorHistogramModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 3; }

QVariant OperatorHistogramModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const Row& r = rows_[index.row()];
  if (role == Qt::DisplayRole) {
    if (index.column() == 0) return r.op;
    if (index.column() == 1) return int(r.nodes.size());
    // A text bar: cheap, sorts with the count, and readable at any width.
    return QString(std::max(1, int(30.0 * r.nodes.size() / maxCount_)), QChar(0x2588));
  }
  if (role == Qt::ForegroundRole && index.column() == 2 && !r.nodes.isEmpty()) {
    const auto* n = r.nodes.first();
    const auto c = layout::opCategoryColor(layout::opCategory(n->opType, n->domain));
    return QColor(QString::fromLatin1(c.data(), int(c.size()))).darker(130);
  }
  if (role == Qt::TextAlignmentRole && index.column() == 1) return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant OperatorHistogramModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case 0:
      return tr("Operator");
    case 1:
      return tr("Count");
    default:
      return tr("Share");
  }
}

}  // namespace fb::ui
