#pragma once
// Main graph > If node > then_branch ...: one button per level; clicking goes back up.
#include <QWidget>

class QHBoxLayout;

namespace fb::ui {

class Document;

class BreadcrumbBar : public QWidget {
  Q_OBJECT
 public:
  explicit BreadcrumbBar(Document* doc, QWidget* parent = nullptr);

 private:
  void refresh();
  Document* doc_;
  QHBoxLayout* row_;
};

}  // namespace fb::ui
