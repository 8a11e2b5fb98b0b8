#include "ui/inspector/operators_panel.h"

#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

#include "ir/graph.h"
#include "ui/document.h"
#include "ui/inspector/operator_histogram_model.h"

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
  connect(doc_, &Document::modelChanged, this, [this] {
    model_->setGraph(doc_->hasGraph() ? doc_->level(0).graph : nullptr);
    view_->resizeColumnsToContents();
  });
  connect(view_, &QTableView::clicked, this, [this](const QModelIndex& i) {
    if (!i.isValid() || !doc_->hasGraph()) return;
    // The nodes of the op in the graph shown; when it has none, the first one wherever it is (a body).
    const auto nodes = model_->nodesAt(i.row());
    QList<const ir::Node*> here;
    for (const ir::Node* n : nodes)
      if (n->graph() == doc_->currentLevel().graph) here.append(n);
    if (!here.isEmpty())
      doc_->selectNodes(here);
    else if (!nodes.isEmpty())
      doc_->showNode(nodes.first());
  });
}

}  // namespace fb::ui
