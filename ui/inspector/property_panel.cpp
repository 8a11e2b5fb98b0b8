#include "ui/inspector/property_panel.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

#include "ir/graph.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"

namespace fb::ui {

PropertyPanel::PropertyPanel(Document* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), model_(new PropertyTreeModel(this)), view_(new QTreeView(this)) {
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(0, 0, 0, 0);
  box->addWidget(view_);
  view_->setModel(model_);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  connect(view_, &QTreeView::activated, this, [this](const QModelIndex& i) {
    if (auto n = i.data(PropertyTreeModel::LinkNodeRole); n.isValid())
      doc_->selectNode(static_cast<const ir::Node*>(n.value<const void*>()));
    else if (auto v = i.data(PropertyTreeModel::LinkValueRole); v.isValid())
      doc_->selectValue(static_cast<const ir::Value*>(v.value<const void*>()));
    else if (auto g = i.data(PropertyTreeModel::LinkGraphRole); g.isValid()) {
      const auto* graph = static_cast<const ir::Graph*>(g.value<const void*>());
      // A body is titled by its node and branch; a function's body by the row that links it.
      if (graph->ownerNode())
        doc_->enterBody(graph);
      else
        doc_->enterSubgraph(graph, i.siblingAtColumn(0).data().toString());
    }
  });
  connect(view_, &QTreeView::clicked, view_, &QTreeView::activated);
}

void PropertyPanel::finish() {
  view_->expandAll();
  view_->resizeColumnToContents(0);
}

}  // namespace fb::ui
