#pragma once
// The per-node statuses of a conversion as a table: the nodes that need attention first (failed,
// unsupported), then converted and kept ones; unchanged nodes are left out.
#include <QAbstractTableModel>
#include <vector>

#include "convert/node_status.h"

namespace fb::ui {

class ConversionReportModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { StatusColumn, OpColumn, NodeColumn, MessageColumn, ColumnCount };
  enum Role { NodeIdRole = Qt::UserRole + 1 };
  using QAbstractTableModel::QAbstractTableModel;

  void setReports(const std::vector<convert::NodeReport>& reports);
  const convert::NodeReport& report(int row) const { return rows_[size_t(row)]; }

  int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(rows_.size()); }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  std::vector<convert::NodeReport> rows_;
};

}  // namespace fb::ui
