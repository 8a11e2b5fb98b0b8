#pragma once
// The problems of the edited model as a table: severity, node, message; errors first, then by node as the
// revalidation found them.
#include <QAbstractTableModel>
#include <QList>

#include "ui/edit/problem.h"

namespace fb::ui {

class ProblemsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { SeverityColumn, NodeColumn, MessageColumn, ColumnCount };
  enum Role { NodeIdRole = Qt::UserRole + 1 };  // quint64; 0 for a problem of the whole model
  using QAbstractTableModel::QAbstractTableModel;

  void setProblems(QList<Problem> problems);
  const Problem& problem(int row) const { return rows_[row]; }
  int errorCount() const;

  int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(rows_.size()); }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  QList<Problem> rows_;
};

}  // namespace fb::ui
