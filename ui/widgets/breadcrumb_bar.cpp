#include "ui/widgets/breadcrumb_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include "ui/document.h"

namespace fb::ui {

BreadcrumbBar::BreadcrumbBar(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc), row_(new QHBoxLayout(this)) {
  row_->setContentsMargins(4, 2, 4, 2);
  connect(doc_, &Document::layoutChanged, this, &BreadcrumbBar::refresh);
  refresh();
}

void BreadcrumbBar::refresh() {
  while (QLayoutItem* item = row_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  for (int i = 0; i < doc_->levelCount(); ++i) {
    if (i > 0) row_->addWidget(new QLabel(QStringLiteral("\u203a"), this));
    auto* b = new QToolButton(this);
    b->setText(doc_->level(i).title);
    b->setAutoRaise(true);
    b->setEnabled(i < doc_->levelCount() - 1);
    connect(b, &QToolButton::clicked, this, [this, i] { doc_->goToLevel(i); });
    row_->addWidget(b);
  }
  row_->addStretch(1);
  setVisible(doc_->levelCount() > 1);
}

}  // namespace fb::ui
