#include "ui/widgets/tensor_panel.h"

#include <cmath>
#include <limits>

#include "ir/tensor.h"
#include "ir/value.h"
#include "util/error.h"
#include "util/mapped_file.h"
#include "ui/document.h"
#include "ui/models/property_tree_model.h"

namespace fb::ui {

TensorPanel::TensorPanel(Document* doc, QWidget* parent) : PropertyPanel(doc, parent) {
  connect(doc_, &Document::selectionChanged, this, &TensorPanel::refresh);
}

void TensorPanel::refresh() {
  model_->reset();
  const ir::Value* v = doc_->selectedValue();
  if (!v) return;
  auto* general = model_->addSection(tr("Tensor"));
  model_->addRow(general, tr("name"), QString::fromStdString(v->name()));
  const ir::TypeInfo* t = doc_->typeOf(v);
  model_->addRow(general, tr("type"), t ? QString::fromStdString(t->toString()) : tr("unknown"));
  const ir::Tensor* init = v->initializer();
  model_->addRow(general, tr("kind"), init ? tr("initializer") : v->isGraphInput() ? tr("graph input") : tr("activation"));
  if (!init) {
    finish();
    return;
  }
  model_->addRow(general, tr("dtype"), QString::fromUtf8(ir::dataTypeName(init->dtype).data()));
  QStringList dims;
  for (auto d : init->dims) dims << QString::number(d);
  model_->addRow(general, tr("shape"), "[" + dims.join(", ") + "]");
  model_->addRow(general, tr("elements"), QString::number(init->numElements()));
  auto* stats = model_->addSection(tr("Values"));
  try {
    if (init->dtype == ir::DataType::String) {
      model_->addRow(stats, tr("strings"), QString::number(init->strings.size()));
    } else {
      // asDouble covers every numeric dtype; statistics over all elements, in one pass.
      // Weights are read here, lazily: a file truncated since it was opened reads as zeros, which must not be
      // shown as the tensor's values.
      const uint64_t faultsBefore = mappedFaultCount();
      const std::vector<double> values = init->asDouble();
      throwIfMappedFileDamagedSince(faultsBefore);
      double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0, sq = 0;
      for (double x : values) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
        sq += x * x;
      }
      const double n = double(values.size());
      if (!values.empty()) {
        const double mean = sum / n;
        model_->addRow(stats, tr("min"), QString::number(lo, 'g', 6));
        model_->addRow(stats, tr("max"), QString::number(hi, 'g', 6));
        model_->addRow(stats, tr("mean"), QString::number(mean, 'g', 6));
        model_->addRow(stats, tr("std"), QString::number(std::sqrt(std::max(0.0, sq / n - mean * mean)), 'g', 6));
      }
      QStringList first;
      for (size_t i = 0; i < values.size() && i < 32; ++i) first << QString::number(values[i], 'g', 5);
      model_->addRow(stats, tr("first values"), first.join(", ") + (values.size() > 32 ? ", ..." : ""));
    }
  } catch (const InputError& e) {  // e.g. a missing side file, or one truncated since it was opened
    model_->addRow(stats, tr("error"), QString::fromStdString(e.file().empty() ? e.what() : e.file() + ": " + e.what()));
  } catch (const std::exception& e) {
    model_->addRow(stats, tr("error"), QString::fromStdString(e.what()));
  }
  finish();
}

}  // namespace fb::ui
