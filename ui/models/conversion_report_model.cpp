#include "ui/models/conversion_report_model.h"

#include <QBrush>
#include <algorithm>

#include "ui/conversion/conversion_controller.h"

namespace fb::ui {
namespace {
int urgency(convert::NodeStatus s) {
  switch (s) {
    case convert::NodeStatus::Failed: return 0;
    case convert::NodeStatus::Unsupported: return 1;
    case convert::NodeStatus::Converted: return 2;
    case convert::NodeStatus::Kept: return 3;
    case convert::NodeStatus::Unchanged: return 4;
  }
  return 5;
}
}  // namespace

void ConversionReportModel::setReports(const std::vector<convert::NodeReport>& reports) {
  beginResetModel();
  rows_.clear();
  for (const auto& r : reports)
    if (r.status != convert::NodeStatus::Unchanged || !r.warnings.empty()) rows_.push_back(r);
  std::stable_sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return urgency(a.status) < urgency(b.status); });
  endResetModel();
}

QVariant ConversionReportModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(rows_.size())) return {};
  const auto& r = rows_[size_t(index.row())];
  if (role == NodeIdRole) return QVariant::fromValue<qulonglong>(r.nodeId);
  if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
    QColor c = ConversionController::statusColor(r.status);
    return c.isValid() ? QBrush(c) : QVariant();
  }
  if (role == Qt::ToolTipRole && index.column() == MessageColumn) {
    QString text = QString::fromStdString(r.message);
    for (const auto& w : r.warnings) text += "\n" + tr("warning: ") + QString::fromStdString(w);
    return text;
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case StatusColumn: return QString::fromUtf8(convert::statusName(r.status).data(), int(convert::statusName(r.status).size()));
    case OpColumn: return QString::fromStdString(r.domain.empty() ? r.opType : r.domain + "::" + r.opType);
    case NodeColumn: return QString::fromStdString(r.nodeName);
    case MessageColumn: {
      QString text = QString::fromStdString(r.message);
      if (r.lowestOpset && r.status == convert::NodeStatus::Unsupported)
        text += tr(" (a conversion exists from opset %1)").arg(*r.lowestOpset);
      if (text.isEmpty() && !r.warnings.empty()) text = tr("warning: ") + QString::fromStdString(r.warnings.front());
      return text;
    }
  }
  return {};
}

QVariant ConversionReportModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case StatusColumn: return tr("Status");
    case OpColumn: return tr("Operator");
    case NodeColumn: return tr("Node");
    case MessageColumn: return tr("Reason");
  }
  return {};
}

}  // namespace fb::ui
