#pragma once
// The selected tensor: its type, and for an initializer the statistics and the first values. After Run > Run Model
// also what the run computed: for a selected value, or for each output of the selected node, its type, shape,
// statistics, first values and a histogram. After Verify a value with a counterpart on the other side (the source's
// or the conversion's) is shown side by side with it, source first, with their largest differences and the two
// histograms on one range. The panel reads both sides' values through their Documents.
#include <QList>
#include <QPair>
#include <functional>
#include <optional>

#include "eval/verify/value_diff.h"

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
  // The histogram of the computed value shown first (hidden when none); beside it, for a pair, the result's.
  HistogramView* histogram() const { return histogram_; }
  HistogramView* resultHistogram() const { return resultHistogram_; }
  // Shows the selection of another document (the converted preview when its view has focus).
  void setDocument(Document* doc);
  Document* document() const { return doc_; }

  // A value of the source and the value its conversion computes for it, and how the two differ.
  struct RunPair {
    const Document* source = nullptr;
    const ir::Value* sourceValue = nullptr;
    const Document* result = nullptr;
    const ir::Value* resultValue = nullptr;
    eval::ValueDiff diff;
  };
  // The pair a value of the document shown belongs to (either side), nullopt when it has none.
  using FindRunPair = std::function<std::optional<RunPair>(const ir::Value*)>;
  void setRunPairs(FindRunPair find);

  // Rows about the tensor from elsewhere (its counterpart in a compared model and their difference), in a section
  // of their own after its values; no section when it returns none.
  using Annotation = std::function<QList<QPair<QString, QString>>(const ir::Value*)>;
  void setAnnotation(const QString& section, Annotation rows);
  void refresh();

 private:
  // Rows for a value the last run computed; false when it did not compute this one.
  bool addComputed(const ir::Value* v, bool drawHistogram);
  bool addPair(const ir::Value* v, bool drawHistogram);
  void annotate(const ir::Value* v);
  HistogramView* histogram_;
  HistogramView* resultHistogram_;
  FindRunPair findPair_;
  QString annotationTitle_;
  Annotation annotation_;
};

}  // namespace fb::ui
