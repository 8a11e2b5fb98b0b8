#pragma once
// A small bar chart of how a tensor's values spread (eval::ValueHistogram): the Tensor panel's picture of a value a
// run computed. Hidden while there is nothing to draw.
#include <QWidget>

#include "eval/verify/value_histogram.h"

namespace fb::ui {

class HistogramView : public QWidget {
  Q_OBJECT
 public:
  explicit HistogramView(QWidget* parent = nullptr);
  void setHistogram(const eval::ValueHistogram& h, const QString& title);
  void clear();
  const eval::ValueHistogram& histogram() const { return h_; }
  QSize sizeHint() const override { return {240, 110}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  eval::ValueHistogram h_;
  QString title_;
};

}  // namespace fb::ui
