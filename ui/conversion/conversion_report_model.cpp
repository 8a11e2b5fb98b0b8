#include "ui/conversion/conversion_report_model.h"

#include <QBrush>
#include <QStringList>
#include <algorithm>

#include "ui/theme/colors.h"

namespace fb::ui {
namespace {
// Lower first: what needs attention, then real rewrites, then trivial conversions, then the rest.
int urgency(const convert::NodeReport& r) {
  switch (r.status) {
    case convert::NodeStatus::Failed:
      return 0;
    case convert::NodeStatus::Unsupported:
      return 1;
    case convert::NodeStatus::Converted:
      return r.attributesOnly ? 3 : 2;
    case convert::NodeStatus::Kept:
      return 4;
    case convert::NodeStatus::Unchanged:
      return 5;
  }
  return 6;
}

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), int(s.size())); }
QString opOf(const convert::NodeReport& r) {
  return QString::fromStdString(r.domain.empty() ? r.opType : r.domain + "::" + r.opType);
}
}  // namespace

void ConversionReportModel::setReports(const std::vector<convert::NodeReport>& reports) {
  beginResetModel();
  rows_.clear();
  for (const auto& r : reports)
    if (r.status != convert::NodeStatus::Unchanged || !r.warnings.empty()) rows_.push_back(r);
  std::stable_sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return urgency(a) < urgency(b); });
  endResetModel();
}

QString ConversionReportModel::kindOf(const convert::NodeReport& r) {
  switch (r.status) {
    case convert::NodeStatus::Failed:
    case convert::NodeStatus::Unsupported:
      return tr("needs attention");
    case convert::NodeStatus::Converted:
      return r.attributesOnly ? tr("attributes only") : tr("rewrite");
    case convert::NodeStatus::Kept:
      return tr("passed through");
    case convert::NodeStatus::Unchanged:
      return r.warnings.empty() ? QString() : tr("warning");
  }
  return {};
}

QString ConversionReportModel::details(const convert::NodeReport& r) {
  QStringList lines;
  lines << tr("%1 (%2): %3, %4")
               .arg(QString::fromStdString(r.nodeName), opOf(r), qs(convert::statusName(r.status)), kindOf(r));
  if (!r.message.empty()) lines << QString::fromStdString(r.message);
  if (r.lowestOpset && r.status == convert::NodeStatus::Unsupported)
    lines << tr("A conversion exists from target opset %1.").arg(*r.lowestOpset);
  for (const auto& w : r.warnings) lines << tr("Warning: %1").arg(QString::fromStdString(w));
  if (!r.newNodes.empty()) lines << tr("Replaced by %1 node(s).").arg(r.newNodes.size());
  return lines.join(QLatin1Char('\n'));
}

QVariant ConversionReportModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(rows_.size())) return {};
  const auto& r = rows_[size_t(index.row())];
  switch (role) {
    case NodeIdRole:
      return QVariant::fromValue<qulonglong>(r.nodeId);
    case StatusRole:
      return int(r.status);
    case AttributesOnlyRole:
      return r.attributesOnly;
    case HasWarningsRole:
      return !r.warnings.empty();
    case SortRole:
      switch (index.column()) {
        case StatusColumn:
        case KindColumn:
          return urgency(r);
        default:
          return data(index, Qt::DisplayRole).toString().toLower();
      }
    default:
      break;
  }
  if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
    QColor c = statusColor(r.status);
    return c.isValid() ? QBrush(c) : QVariant();
  }
  if (role == Qt::ToolTipRole) return details(r);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case StatusColumn:
      return qs(convert::statusName(r.status));
    case KindColumn:
      return kindOf(r);
    case OpColumn:
      return opOf(r);
    case NodeColumn:
      return QString::fromStdString(r.nodeName);
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
    case StatusColumn:
      return tr("Status");
    case KindColumn:
      return tr("Kind");
    case OpColumn:
      return tr("Operator");
    case NodeColumn:
      return tr("Node");
    case MessageColumn:
      return tr("Reason");
  }
  return {};
}

}  // namespace fb::ui
