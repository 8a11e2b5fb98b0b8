#pragma once
// Histogram of the current graph's op types; clicking one selects all its nodes.
#include <QWidget>

class QTableView;

namespace fb::ui {

class Document;
class OperatorHistogramModel;

class OperatorsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit OperatorsPanel(Document* doc, QWidget* parent = nullptr);
  OperatorHistogramModel* model() const { return model_; }
  QTableView* view() const { return view_; }

 private:
  Document* doc_;
  OperatorHistogramModel* model_;
  QTableView* view_;
};

}  // namespace fb::ui
