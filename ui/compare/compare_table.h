#pragma once
// The Compare dock's table: one row per node pair, node on one side only, or region rewritten, with what differs;
// filtered by class (changed, only in A, only in B, regions, same) and by op. Activating a row selects its nodes on
// both sides (opening the bodies that hold them).
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QWidget>

#include "diff/model_diff.h"

class QComboBox;
class QLabel;
class QTableView;

namespace fb::ui {

class CompareController;

class CompareTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Class { Same, Changed, OnlyA, OnlyB, Region };
  enum Column { StatusColumn, OpColumn, AColumn, BColumn, ChangesColumn, ColumnCount };
  static constexpr int kClassRole = Qt::UserRole + 1;
  static constexpr int kOpsRole = Qt::UserRole + 2;

  explicit CompareTableModel(QObject* parent = nullptr);
  void setDiff(const diff::ModelDiff* d);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

  // The row's nodes on each side (a region's first).
  const ir::Node* nodeA(int row) const;
  const ir::Node* nodeB(int row) const;
  QStringList ops() const;  // every op of a row, sorted

 private:
  struct Row {
    Class cls;
    const diff::NodeDiff* node = nullptr;
    const diff::RegionDiff* region = nullptr;
    QString graph;
  };
  QList<Row> rows_;
};

class CompareFilter : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  // -1: every difference (all classes but Same); -2: every row.
  void setClass(int cls);
  void setOp(const QString& op);  // empty: any op

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  int class_ = -1;
  QString op_;
};

class CompareTable : public QWidget {
  Q_OBJECT
 public:
  CompareTable(CompareController* controller, QWidget* parent = nullptr);
  QTableView* view() const { return view_; }
  CompareTableModel* tableModel() const { return model_; }
  CompareFilter* filter() const { return filter_; }
  QComboBox* classFilter() const { return classes_; }
  QComboBox* opFilter() const { return ops_; }
  QLabel* summary() const { return summary_; }
  // Selects the nodes of a row (of the filtered view) on both sides.
  void activate(int viewRow);

 private:
  void reload();

  CompareController* controller_;
  CompareTableModel* model_;
  CompareFilter* filter_;
  QTableView* view_;
  QComboBox* classes_;
  QComboBox* ops_;
  QLabel* summary_;
};

}  // namespace fb::ui
