#include "ui/inspector/find_panel.h"

#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QVBoxLayout>

#include "ir/graph.h"
#include "ui/document.h"
#include "ui/inspector/find_results_model.h"

namespace fb::ui {

FindPanel::FindPanel(Document* doc, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      edit_(new QLineEdit(this)),
      status_(new QLabel(this)),
      list_(new QListView(this)),
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
  // The search covers the whole model (every body): navigating keeps the matches valid; a new model does not.
  connect(doc_, &Document::modelChanged, this, &FindPanel::runSearch);
}

void FindPanel::focusSearch() {
  edit_->setFocus();
  edit_->selectAll();
}

void FindPanel::setQuery(const QString& text) { edit_->setText(text); }

void FindPanel::runSearch() {
  results_->search(doc_->hasGraph() ? doc_->level(0).graph : nullptr, edit_->text());
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
  // Matches inside a body open it (through its owners) first.
  if (m.node) {
    doc_->showNode(m.node);
  } else if (m.value) {
    const ir::Node* near = m.value->producer();
    if (!near && !m.value->uses().empty()) near = m.value->uses().front().node;
    if (near && doc_->hasGraph() && near->graph() != doc_->currentLevel().graph) doc_->showNode(near);
    doc_->selectValue(m.value);
  }
}

}  // namespace fb::ui
