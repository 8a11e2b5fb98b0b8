#include "ui/inspector/tensor_panel.h"

#include <cmath>
#include <limits>

#include <QLayout>

#include "eval/verify/value_histogram.h"
#include "eval/verify/value_stats.h"
#include "inspect/tensor_values.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/widgets/histogram_view.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace fb::ui {

namespace {

constexpr int kHistogramBins = 40;
constexpr int kFirstValues = 8;

}  // namespace

TensorPanel::TensorPanel(Document* doc, QWidget* parent)
    : PropertyPanel(doc, parent), histogram_(new HistogramView(this)) {
  layout()->addWidget(histogram_);
  connect(doc_, &Document::selectionChanged, this, &TensorPanel::refresh);
  connect(doc_, &Document::runValuesChanged, this, &TensorPanel::refresh);
}

bool TensorPanel::addComputed(const ir::Value* v, bool drawHistogram) {
  const eval::Value* x = doc_->runValueOf(v);
  if (!x) return false;
  auto* sec = model_->addSection(tr("Computed: %1").arg(QString::fromStdString(v->name())));
  if (!x->isTensor()) {
    model_->addRow(sec, tr("value"), QString::fromStdString(eval::describe(*x)));
    return true;
  }
  const eval::Tensor& t = x->tensor();
  model_->addRow(sec, tr("type"), QString::fromStdString(eval::describe(t)));
  const eval::ValueStats st = eval::statsOf(t);
  if (st.numeric) {
    model_->addRow(sec, tr("min"), QString::number(st.min, 'g', 6));
    model_->addRow(sec, tr("max"), QString::number(st.max, 'g', 6));
    model_->addRow(sec, tr("mean"), QString::number(st.mean, 'g', 6));
    if (st.nanCount) model_->addRow(sec, tr("NaN"), QString::number(st.nanCount));
    if (st.infCount) model_->addRow(sec, tr("infinite"), QString::number(st.infCount));
    QStringList first;
    for (int64_t k = 0; k < std::min<int64_t>(t.size(), kFirstValues); ++k)
      first << QString::number(t.doubleAt(k), 'g', 5);
    model_->addRow(sec, tr("first values"), first.join(", ") + (t.size() > kFirstValues ? ", ..." : ""));
    if (drawHistogram)
      histogram_->setHistogram(eval::histogramOf(t, kHistogramBins), QString::fromStdString(v->name()));
  } else {
    QStringList first;
    for (int64_t k = 0; k < std::min<int64_t>(t.size(), kFirstValues); ++k)
      first << QString::fromStdString(t.stringValues()[static_cast<size_t>(k)]).left(40);
    model_->addRow(sec, tr("first values"), first.join(", "));
  }
  return true;
}

void TensorPanel::setAnnotation(const QString& section, Annotation rows) {
  annotationTitle_ = section;
  annotation_ = std::move(rows);
  refresh();
}

void TensorPanel::annotate(const ir::Value* v) {
  const auto rows = annotation_ ? annotation_(v) : QList<QPair<QString, QString>>{};
  if (rows.isEmpty()) return;
  auto* section = model_->addSection(annotationTitle_);
  for (const auto& [name, value] : rows) model_->addRow(section, name, value);
}

void TensorPanel::refresh() {
  model_->reset();
  histogram_->clear();
  const ir::Value* v = doc_->selectedValue();
  if (!v) {
    // A node selected: what the run computed for each of its outputs.
    const ir::Node* n = doc_->focusNode();
    if (!n || !doc_->runValues()) return;
    bool first = true;
    for (const ir::Value* o : n->outputs())
      if (o && addComputed(o, first)) first = false;
    finish();
    return;
  }
  auto* general = model_->addSection(tr("Tensor"));
  model_->addRow(general, tr("name"), QString::fromStdString(v->name()));
  const ir::TypeInfo* t = doc_->typeOf(v);
  model_->addRow(general, tr("type"), t ? QString::fromStdString(t->toString()) : tr("unknown"));
  const ir::Tensor* init = v->initializer();
  model_->addRow(general, tr("kind"),
                 init                ? tr("initializer")
                 : v->isGraphInput() ? tr("graph input")
                                     : tr("activation"));
  addComputed(v, true);
  if (!init) {
    annotate(v);
    finish();
    return;
  }
  model_->addRow(general, tr("dtype"), QString::fromUtf8(ir::dataTypeName(init->dtype).data()));
  QStringList dims;
  for (auto d : init->dims) dims << QString::number(d);
  model_->addRow(general, tr("shape"), "[" + dims.join(", ") + "]");
  model_->addRow(general, tr("elements"), QString::number(init->numElements()));
  model_->addRow(general, tr("storage"), QString::fromStdString(storageDescription(init->dtype)));
  if (init->dtype != ir::DataType::String) model_->addRow(general, tr("bytes"), QString::number(init->expectedBytes()));
  auto* stats = model_->addSection(tr("Values"));
  try {
    if (init->dtype == ir::DataType::String) {
      model_->addRow(stats, tr("strings"), QString::number(init->strings.size()));
    } else {
      // Every numeric dtype, the packed float8/float4/int4/int2 ones included, decoded in core.
      // Weights are read here, lazily: a file truncated since it was opened reads as zeros, which must not be
      // shown as the tensor's values.
      const uint64_t faultsBefore = mappedFaultCount();
      const ValueStats st = valueStats(*init);
      throwIfMappedFileDamagedSince(faultsBefore);
      if (st.finite) {
        model_->addRow(stats, tr("min"), QString::number(st.min, 'g', 6));
        model_->addRow(stats, tr("max"), QString::number(st.max, 'g', 6));
        model_->addRow(stats, tr("mean"), QString::number(st.mean, 'g', 6));
        model_->addRow(stats, tr("std"), QString::number(st.std, 'g', 6));
      }
      if (st.nan) model_->addRow(stats, tr("NaN"), QString::number(st.nan));
      if (st.inf) model_->addRow(stats, tr("infinite"), QString::number(st.inf));
      QStringList first;
      for (double x : st.first) first << QString::number(x, 'g', 5);
      model_->addRow(stats, tr("first values"), first.join(", ") + (st.count > st.first.size() ? ", ..." : ""));
    }
  } catch (const InputError& e) {  // e.g. a missing side file, or one truncated since it was opened
    model_->addRow(stats, tr("error"),
                   QString::fromStdString(e.file().empty() ? e.what() : e.file() + ": " + e.what()));
  } catch (const std::exception& e) {
    model_->addRow(stats, tr("error"), QString::fromStdString(e.what()));
  }
  annotate(v);
  finish();
}

}  // namespace fb::ui
