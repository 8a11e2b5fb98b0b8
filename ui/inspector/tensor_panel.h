#pragma once
// The selected tensor: its type, and for an initializer the statistics and the first values. After Run > Run Model
// also what the run computed: for a selected value, or for each output of the selected node, its type, shape,
// statistics, first values and a histogram.
#include <QList>
#include <QPair>
#include <functional>

#include "ui/inspector/property_panel.h"

namespace fb::eval {
class Tensor;
}
namespace fb::ir {
class Value;
}

namespace fb::ui {

class HistogramView;
class PropertyTreeModel;

class TensorPanel : public PropertyPanel {
  Q_OBJECT
 public:
  explicit TensorPanel(Document* doc, QWidget* parent = nullptr);
  // The histogram of the computed value shown first (hidden when none).
  HistogramView* histogram() const { return histogram_; }

  // Rows about the tensor from elsewhere (its counterpart in a compared model and their difference), in a section
  // of their own after its values; no section when it returns none.
  using Annotation = std::function<QList<QPair<QString, QString>>(const ir::Value*)>;
  void setAnnotation(const QString& section, Annotation rows);
  void refresh();

 private:
  // Rows for a value the last run computed; false when it did not compute this one.
  bool addComputed(const ir::Value* v, bool drawHistogram);
  void annotate(const ir::Value* v);
  HistogramView* histogram_;
  QString annotationTitle_;
  Annotation annotation_;
};

}  // namespace fb::ui
