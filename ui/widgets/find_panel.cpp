#include "ui/widgets/find_panel.h"

#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QVBoxLayout>

#include "ui/document.h"
#include "ui/models/find_results_model.h"

namespace fb::ui {

FindPanel::FindPanel(Document* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), edit_(new QLineEdit(this)), status_(new QLabel(this)), list_(new QListView(this)),
      results_(new FindResultsModel(this)) {
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(2, 2, 2, 2);
  edit_->setPlaceholderText(tr("Node name, op type or tensor name"));
  edit_->setClearButtonEnabled(true);
  box->addWidget(edit_);
  box->addWidget(status_);
  box->addWidget(list_);
  list_->setModel(results_);
  list_->setUniformItemSizes(true);
  connect(edit_, &QLineEdit::textChanged, this, &FindPanel::runSearch);
  connect(edit_, &QLineEdit::returnPressed, this, &FindPanel::goToNext);
  connect(list_, &QListView::clicked, this, [this](const QModelIndex& i) { goTo(i.row()); });
  connect(doc_, &Document::layoutChanged, this, [this] {
    // A different graph on the breadcrumb: the old matches point elsewhere.
    if (!doc_->hasGraph() || results_->rowCount() == 0) return;
    const auto& m = results_->matchAt(0);
    const ir::Graph* g = doc_->currentLevel().graph;
    if ((m.node && m.node->graph() != g) || (m.value && m.value->graph() != g)) runSearch();
  });
}

void FindPanel::focusSearch() {
  edit_->setFocus();
  edit_->selectAll();
}

void FindPanel::setQuery(const QString& text) { edit_->setText(text); }

void FindPanel::runSearch() {
  results_->search(doc_->hasGraph() ? doc_->currentLevel().graph : nullptr, edit_->text());
  current_ = -1;
  status_->setText(edit_->text().isEmpty() ? QString() : tr("%n match(es)", nullptr, results_->totalMatches()));
}

bool FindPanel::goToNext() {
  if (results_->rowCount() == 0) return false;
  goTo((current_ + 1) % results_->rowCount());
  return true;
}

void FindPanel::goTo(int row) {
  if (row < 0 || row >= results_->rowCount()) return;
  current_ = row;
  list_->setCurrentIndex(results_->index(row));
  const auto& m = results_->matchAt(row);
  if (m.node) doc_->selectNode(m.node);
  else if (m.value) doc_->selectValue(m.value);
}

}  // namespace fb::ui
