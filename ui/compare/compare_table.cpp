#include "ui/compare/compare_table.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <set>

#include "diff/diff_report.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/node_label.h"
#include "ui/compare/compare_controller.h"
#include "ui/document.h"
#include "ui/theme/colors.h"

namespace fb::ui {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString regionText(const std::vector<const ir::Node*>& nodes) {
  QStringList names;
  for (size_t i = 0; i < nodes.size() && i < 3; ++i) names << q(ir::nodeLabel(*nodes[i]));
  if (nodes.size() > 3) names << QObject::tr("+%1 more").arg(nodes.size() - 3);
  return names.join(QStringLiteral(", "));
}

}  // namespace

CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setDiff(const diff::ModelDiff* d) {
  beginResetModel();
  rows_.clear();
  if (d)
    for (const auto& g : d->graphs) {
      const QString graph = q(g.scope);
      for (const auto& n : g.nodes) {
        if (n.region >= 0) continue;
        Class c = n.status == diff::Status::Same      ? Same
                  : n.status == diff::Status::Changed ? Changed
                  : n.status == diff::Status::OnlyA   ? OnlyA
                                                      : OnlyB;
        rows_.append({c, &n, nullptr, graph});
      }
      for (const auto& r : g.regions) rows_.append({Region, nullptr, &r, graph});
    }
  endResetModel();
}

int CompareTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int CompareTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const ir::Node* CompareTableModel::nodeA(int row) const {
  const Row& r = rows_[row];
  return r.node ? r.node->a : r.region->a.front();
}

const ir::Node* CompareTableModel::nodeB(int row) const {
  const Row& r = rows_[row];
  return r.node ? r.node->b : r.region->b.front();
}

QStringList CompareTableModel::ops() const {
  std::set<QString> ops;
  for (int i = 0; i < rows_.size(); ++i)
    for (const QString& op : data(index(i, 0), kOpsRole).toStringList()) ops.insert(op);
  return QStringList(ops.begin(), ops.end());
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const Row& r = rows_[index.row()];
  if (role == kClassRole) return int(r.cls);
  if (role == kOpsRole) {
    QStringList ops;
    if (r.node) {
      if (r.node->a) ops << q(r.node->a->qualifiedOp());
      if (r.node->b && !ops.contains(q(r.node->b->qualifiedOp()))) ops << q(r.node->b->qualifiedOp());
    } else {
      for (const ir::Node* n : r.region->a)
        if (!ops.contains(q(n->qualifiedOp()))) ops << q(n->qualifiedOp());
      for (const ir::Node* n : r.region->b)
        if (!ops.contains(q(n->qualifiedOp()))) ops << q(n->qualifiedOp());
    }
    return ops;
  }
  if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
    switch (r.cls) {
      case Changed:
      case Region:
        return modifiedColor();
      case OnlyA:
        return removedColor();
      case OnlyB:
        return addedColor();
      case Same:
        return {};
    }
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case StatusColumn: {
      static const char* names[] = {"same", "changed", "only in A", "only in B", "region"};
      return tr(names[r.cls]);
    }
    case OpColumn:
      return data(index, kOpsRole).toStringList().join(QStringLiteral(" / "));
    case AColumn:
      if (r.region) return regionText(r.region->a);
      return r.node->a ? q(ir::nodeLabel(*r.node->a)) : QString();
    case BColumn:
      if (r.region) return regionText(r.region->b);
      return r.node->b ? q(ir::nodeLabel(*r.node->b)) : QString();
    case ChangesColumn: {
      QString text;
      if (r.region)
        text = tr("%1 nodes rewritten as %2").arg(r.region->a.size()).arg(r.region->b.size());
      else
        for (const auto& c : r.node->changes) text += (text.isEmpty() ? QString() : QStringLiteral("; ")) + q(c);
      if (!r.graph.isEmpty()) text = tr("[%1] %2").arg(r.graph, text);
      return text;
    }
    default:
      return {};
  }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case StatusColumn:
      return tr("status");
    case OpColumn:
      return tr("op");
    case AColumn:
      return tr("in A");
    case BColumn:
      return tr("in B");
    case ChangesColumn:
      return tr("what differs");
    default:
      return {};
  }
}

void CompareFilter::setClass(int cls) {
  class_ = cls;
  invalidateFilter();
}

void CompareFilter::setOp(const QString& op) {
  op_ = op;
  invalidateFilter();
}

bool CompareFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
  const QModelIndex i = sourceModel()->index(row, 0, parent);
  const int cls = i.data(CompareTableModel::kClassRole).toInt();
  if (class_ == -1 && cls == CompareTableModel::Same) return false;
  if (class_ >= 0 && cls != class_) return false;
  return op_.isEmpty() || i.data(CompareTableModel::kOpsRole).toStringList().contains(op_);
}

CompareTable::CompareTable(CompareController* controller, QWidget* parent)
    : QWidget(parent),
      controller_(controller),
      model_(new CompareTableModel(this)),
      filter_(new CompareFilter(this)),
      view_(new QTableView),
      classes_(new QComboBox),
      ops_(new QComboBox),
      summary_(new QLabel) {
  filter_->setSourceModel(model_);
  view_->setModel(filter_);
  view_->setObjectName(QStringLiteral("compareTable"));
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setSortingEnabled(true);
  view_->sortByColumn(-1, Qt::AscendingOrder);  // graph order until a header is clicked
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->verticalHeader()->hide();
  classes_->setObjectName(QStringLiteral("compareClassFilter"));
  ops_->setObjectName(QStringLiteral("compareOpFilter"));
  classes_->addItem(tr("Differences"), -1);
  classes_->addItem(tr("Changed"), int(CompareTableModel::Changed));
  classes_->addItem(tr("Only in A"), int(CompareTableModel::OnlyA));
  classes_->addItem(tr("Only in B"), int(CompareTableModel::OnlyB));
  classes_->addItem(tr("Regions rewritten"), int(CompareTableModel::Region));
  classes_->addItem(tr("Same"), int(CompareTableModel::Same));
  classes_->addItem(tr("All nodes"), -2);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* filters = new QHBoxLayout;
  filters->addWidget(new QLabel(tr("Show")));
  filters->addWidget(classes_, 1);
  filters->addWidget(new QLabel(tr("op")));
  filters->addWidget(ops_, 1);
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(2, 2, 2, 2);
  box->addWidget(summary_);
  box->addLayout(filters);
  box->addWidget(view_, 1);
  connect(classes_, &QComboBox::currentIndexChanged, this,
          [this] { filter_->setClass(classes_->currentData().toInt()); });
  connect(ops_, &QComboBox::currentIndexChanged, this,
          [this] { filter_->setOp(ops_->currentIndex() <= 0 ? QString() : ops_->currentText()); });
  connect(view_, &QTableView::clicked, this, [this](const QModelIndex& i) { activate(i.row()); });
  connect(view_, &QTableView::activated, this, [this](const QModelIndex& i) { activate(i.row()); });
  connect(controller_, &CompareController::finished, this, &CompareTable::reload);
  connect(controller_, &CompareController::closed, this, &CompareTable::reload);
  reload();
}

void CompareTable::reload() {
  const diff::ModelDiff* d = controller_->result();
  model_->setDiff(d);
  ops_->blockSignals(true);
  ops_->clear();
  ops_->addItem(tr("any op"));
  ops_->addItems(model_->ops());
  ops_->blockSignals(false);
  filter_->setOp({});
  if (!d) {
    summary_->setText(tr("File > Compare With... opens another model beside this one and pairs their nodes."));
    return;
  }
  const diff::DiffCounts c = d->counts();
  summary_->setText(tr("<b>%1</b><br>nodes: %2<br>weights: %3 same, %4 changed, %5 only in A, %6 only in B; "
                       "signature: %7")
                        .arg(d->same() ? tr("The same") : tr("They differ"),
                             QString::fromStdString(diff::nodeSummary(c)).toHtmlEscaped())
                        .arg(c.weightsSame)
                        .arg(c.weightsChanged)
                        .arg(c.weightsOnlyA)
                        .arg(c.weightsOnlyB)
                        .arg(d->signature.empty() ? tr("the same") : tr("%1 differences").arg(d->signature.size())));
  view_->resizeColumnsToContents();
}

void CompareTable::activate(int viewRow) {
  const QModelIndex source = filter_->mapToSource(filter_->index(viewRow, 0));
  if (!source.isValid()) return;
  const ir::Node* a = model_->nodeA(source.row());
  const ir::Node* b = model_->nodeB(source.row());
  // Each side on its own: the selection link would pick a region's whole other side.
  if (a) controller_->documentA()->showNode(a);
  if (b) controller_->documentB()->showNode(b);
}

}  // namespace fb::ui
