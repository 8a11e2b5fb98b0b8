#include "ui/widgets/operators_panel.h"

#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/document.h"
#include "ui/models/operator_histogram_model.h"

namespace fb::ui {

OperatorsPanel::OperatorsPanel(Document* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), model_(new OperatorHistogramModel(this)), view_(new QTableView(this)) {
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(0, 0, 0, 0);
  box->addWidget(view_);
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setShowGrid(false);
  connect(doc_, &Document::layoutChanged, this, [this] {
    model_->setGraph(doc_->hasGraph() ? doc_->currentLevel().graph : nullptr);
    view_->resizeColumnsToContents();
  });
  connect(view_, &QTableView::clicked, this, [this](const QModelIndex& i) {
    if (i.isValid()) doc_->selectNodes(model_->nodesAt(i.row()));
  });
}

}  // namespace fb::ui
