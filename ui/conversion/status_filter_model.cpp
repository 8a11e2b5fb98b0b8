#include "ui/conversion/status_filter_model.h"

#include "convert/node_status.h"
#include "ui/conversion/conversion_report_model.h"

namespace fb::ui {

StatusFilterModel::StatusFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(ConversionReportModel::SortRole);
}

void StatusFilterModel::setGroup(Group g) {
  if (g == group_) return;
  group_ = g;
  invalidateFilter();
}

void StatusFilterModel::setOpFilter(const QString& text) {
  if (text.trimmed() == op_) return;
  op_ = text.trimmed();
  invalidateFilter();
}

bool StatusFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const QAbstractItemModel* m = sourceModel();
  if (!m) return false;
  const QModelIndex row = m->index(sourceRow, ConversionReportModel::StatusColumn, sourceParent);
  const auto status = convert::NodeStatus(row.data(ConversionReportModel::StatusRole).toInt());
  const bool attributesOnly = row.data(ConversionReportModel::AttributesOnlyRole).toBool();
  using S = convert::NodeStatus;
  bool keep = true;
  switch (group_) {
    case Group::All:
      break;
    case Group::NeedsAttention:
      keep = status == S::Unsupported || status == S::Failed;
      break;
    case Group::Rewrites:
      keep = status == S::Converted && !attributesOnly;
      break;
    case Group::AttributesOnly:
      keep = status == S::Converted && attributesOnly;
      break;
    case Group::Kept:
      keep = status == S::Kept;
      break;
    case Group::Warnings:
      keep = row.data(ConversionReportModel::HasWarningsRole).toBool();
      break;
  }
  if (!keep || op_.isEmpty()) return keep;
  return m->index(sourceRow, ConversionReportModel::OpColumn, sourceParent)
      .data()
      .toString()
      .contains(op_, Qt::CaseInsensitive);
}

}  // namespace fb::ui
