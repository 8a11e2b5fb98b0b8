#pragma once
// The per-node statuses of a conversion as a table: the nodes that need attention first (failed,
// unsupported), then real rewrites, then trivial conversions (attributes spelled out or dropped at values that
// mean the same), then kept ones; unchanged nodes are left out unless they carry a warning.
#include <QAbstractTableModel>
#include <vector>

#include "convert/node_status.h"

namespace fb::ui {

class ConversionReportModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { StatusColumn, KindColumn, OpColumn, NodeColumn, MessageColumn, ColumnCount };
  enum Role {
    NodeIdRole = Qt::UserRole + 1,
    StatusRole,          // int(convert::NodeStatus)
    AttributesOnlyRole,  // bool: a trivial conversion
    SortRole,            // what the columns sort by (status: urgency, then rewrites before trivial ones)
    HasWarningsRole,     // bool
  };
  using QAbstractTableModel::QAbstractTableModel;

  void setReports(const std::vector<convert::NodeReport>& reports);
  const convert::NodeReport& report(int row) const { return rows_[size_t(row)]; }

  int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(rows_.size()); }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

  // "Converted: attributes only" and the like: the group a report falls in, as the Kind column says it.
  static QString kindOf(const convert::NodeReport& r);
  // Everything known about one report, several lines: for the details pane.
  static QString details(const convert::NodeReport& r);

 private:
  std::vector<convert::NodeReport> rows_;
};

}  // namespace fb::ui
