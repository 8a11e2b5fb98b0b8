#include "ui/inspector/tensor_panel.h"

#include <cmath>
#include <limits>

#include "inspect/tensor_values.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"
#include "util/error.h"
#include "util/mapped_file.h"

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
  model_->addRow(general, tr("kind"),
                 init                ? tr("initializer")
                 : v->isGraphInput() ? tr("graph input")
                                     : tr("activation"));
  if (!init) {
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
  finish();
}

}  // namespace fb::ui
