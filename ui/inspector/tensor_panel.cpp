#include "ui/inspector/tensor_panel.h"

#include <cmath>
#include <limits>

#include <QBoxLayout>

#include "eval/verify/value_histogram.h"
#include "eval/verify/value_stats.h"
#include "inspect/tensor_values.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "layout/constant_folding_view.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/value_summary.h"
#include "ui/widgets/histogram_view.h"
#include "util/error.h"
#include "util/mapped_file.h"
#include "util/printable.h"

namespace fb::ui {

namespace {

constexpr int kHistogramBins = 40;

}  // namespace

TensorPanel::TensorPanel(Document* doc, QWidget* parent)
    : PropertyPanel(doc, parent), histogram_(new HistogramView), resultHistogram_(new HistogramView) {
  auto* histograms = new QHBoxLayout;
  histograms->addWidget(histogram_);
  histograms->addWidget(resultHistogram_);
  static_cast<QBoxLayout*>(layout())->addLayout(histograms);
  connect(doc_, &Document::selectionChanged, this, &TensorPanel::refresh);
  connect(doc_, &Document::runValuesChanged, this, &TensorPanel::refresh);
}

void TensorPanel::setDocument(Document* doc) {
  if (!doc || doc == doc_) return;
  disconnect(doc_, nullptr, this, nullptr);
  doc_ = doc;
  connect(doc_, &Document::selectionChanged, this, &TensorPanel::refresh);
  connect(doc_, &Document::runValuesChanged, this, &TensorPanel::refresh);
  refresh();
}

void TensorPanel::setRunPairs(FindRunPair find) {
  findPair_ = std::move(find);
  refresh();
}

bool TensorPanel::addComputed(const ir::Value* v, bool drawHistogram) {
  if (addPair(v, drawHistogram)) return true;
  const eval::Value* x = doc_->runValueOf(v);
  if (!x) return false;
  auto* sec = model_->addSection(tr("Computed: %1").arg(QString::fromStdString(v->name())));
  for (const auto& [name, text] : summaryRows(*x)) model_->addRow(sec, name, text);
  if (drawHistogram && x->isTensor() && !x->tensor().isString())
    histogram_->setHistogram(eval::histogramOf(x->tensor(), kHistogramBins), QString::fromStdString(v->name()));
  return true;
}

bool TensorPanel::addPair(const ir::Value* v, bool drawHistogram) {
  const std::optional<RunPair> pair = findPair_ ? findPair_(v) : std::nullopt;
  if (!pair) return false;
  const eval::Value* a = pair->source->runValueOf(pair->sourceValue);
  const eval::Value* b = pair->result->runValueOf(pair->resultValue);
  if (!a || !b) return false;
  const QString aName = QString::fromStdString(pair->sourceValue->name());
  const QString bName = QString::fromStdString(pair->resultValue->name());
  model_->setPairTitles(tr("Source"), tr("Result"));
  auto* sec = model_->addSection(tr("Source | result: %1").arg(QString::fromStdString(v->name())));
  if (aName != bName) model_->addPairRow(sec, tr("value"), aName, bName);
  // The rows of both, one list: a row only the result has (its NaN or infinity count) goes after the row it
  // follows there.
  const auto aRows = summaryRows(*a), bRows = summaryRows(*b);
  QStringList names;
  for (const auto& row : aRows) names << row.first;
  qsizetype at = 0;
  for (const auto& row : bRows) {
    const qsizetype found = names.indexOf(row.first);
    if (found < 0) names.insert(at, row.first);
    at = (found < 0 ? at : found) + 1;
  }
  auto textOf = [](const QList<QPair<QString, QString>>& rows, const QString& name) {
    for (const auto& row : rows)
      if (row.first == name) return row.second;
    return QString();
  };
  for (const QString& name : names) model_->addPairRow(sec, name, textOf(aRows, name), textOf(bRows, name));
  const eval::ValueDiff& d = pair->diff;
  if (!d.mismatch.empty()) {
    model_->addRow(sec, tr("not comparable"), QString::fromStdString(printable(d.mismatch)));
  } else {
    model_->addRow(sec, tr("max abs difference"), QString::number(d.maxAbs, 'g', 4));
    model_->addRow(sec, tr("max rel difference"), QString::number(d.maxRel, 'g', 4));
    if (d.outside) model_->addRow(sec, tr("outside tolerance"), tr("%1 elements").arg(d.outside));
  }
  if (drawHistogram && a->isTensor() && b->isTensor() && !a->tensor().isString() && !b->tensor().isString()) {
    // One range for both, so that the bars compare.
    const eval::ValueStats sa = eval::statsOf(a->tensor()), sb = eval::statsOf(b->tensor());
    const bool aFinite = sa.count > sa.nanCount + sa.infCount, bFinite = sb.count > sb.nanCount + sb.infCount;
    if (aFinite || bFinite) {
      const double lo = aFinite && bFinite ? std::min(sa.min, sb.min) : aFinite ? sa.min : sb.min;
      const double hi = aFinite && bFinite ? std::max(sa.max, sb.max) : aFinite ? sa.max : sb.max;
      histogram_->setHistogram(eval::histogramOver(a->tensor(), kHistogramBins, lo, hi), tr("source: %1").arg(aName));
      resultHistogram_->setHistogram(eval::histogramOver(b->tensor(), kHistogramBins, lo, hi),
                                     tr("result: %1").arg(bName));
    }
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
  resultHistogram_->clear();
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
  // An Identity of a weight (or a Constant) is folded away in the view: its output shows the values it passes on.
  const ir::Value* source = v;
  const ir::Tensor* init = v->initializer() ? v->initializer() : layout::foldedTensorOf(v, &source);
  const bool constant = source->producer() && source->producer()->opType == "Constant";
  model_->addRow(general, tr("kind"),
                 v->initializer() ? tr("initializer")
                 : source != v
                     ? tr("alias of %1 %2")
                           .arg(constant ? tr("constant") : tr("initializer"), QString::fromStdString(source->name()))
                 : constant          ? tr("constant")
                 : init              ? tr("initializer of an outer graph")
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
