#include "ui/edit/problems_model.h"

#include <algorithm>

namespace fb::ui {

void ProblemsModel::setProblems(QList<Problem> problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const Problem& a, const Problem& b) { return a.severity < b.severity; });
  if (problems == rows_) return;  // a revalidation that found the same: the selection in the list stays
  beginResetModel();
  rows_ = std::move(problems);
  endResetModel();
}

int ProblemsModel::errorCount() const {
  return int(std::count_if(rows_.begin(), rows_.end(),
                           [](const Problem& p) { return p.severity == Problem::Severity::Error; }));
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const Problem& p = rows_[index.row()];
  if (role == NodeIdRole) return QVariant::fromValue<quint64>(p.nodeId);
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
      case SeverityColumn:
        return p.severity == Problem::Severity::Error ? tr("Error") : tr("Warning");
      case NodeColumn:
        return p.nodeName.isEmpty() ? tr("(model)") : p.nodeName;
      case MessageColumn:
        return p.message;
      default:
        return {};
    }
  }
  return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case SeverityColumn:
      return tr("Severity");
    case NodeColumn:
      return tr("Node");
    case MessageColumn:
      return tr("Message");
    default:
      return {};
  }
}

}  // namespace fb::ui
