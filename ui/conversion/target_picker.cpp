#include "ui/conversion/target_picker.h"

#include <QSignalBlocker>
#include <QStandardItemModel>

#include "ui/conversion/code_target.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/document.h"

namespace fb::ui {
namespace {
constexpr int kOnnx = -1;  // item data; code items hold int(Flavour)
}

TargetPicker::TargetPicker(Document* doc, ConversionController* controller, QWidget* parent)
    : QComboBox(parent), doc_(doc), controller_(controller) {
  addItem(tr("ONNX"), kOnnx);
  addItem(codeTargetName(codegen::Flavour::PyTorch), int(codegen::Flavour::PyTorch));
  addItem(codeTargetName(codegen::Flavour::OneFlow), int(codegen::Flavour::OneFlow));
  setItemData(0, tr("Retarget the model to the ONNX opset below"), Qt::ToolTipRole);
  setItemData(1, tr("Generate a PyTorch nn.Module (model.py, run.py, weights.pt) from the ONNX model"),
              Qt::ToolTipRole);
  setItemData(2, tr("Generate a OneFlow nn.Module (model.py, run.py, weights/) from the ONNX model"), Qt::ToolTipRole);
  setToolTip(tr("What to convert to: ONNX at another opset, or Python code (ONNX models only)"));
  connect(this, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { controller_->setCodeTarget(picked()); });
  connect(controller_, &ConversionController::codeTargetChanged, this, &TargetPicker::followController);
  connect(doc_, &Document::modelChanged, this, &TargetPicker::updateAvailability);
  updateAvailability();
  followController();
}

std::optional<codegen::Flavour> TargetPicker::picked() const {
  const int data = currentData().toInt();
  if (data == kOnnx) return std::nullopt;
  return codegen::Flavour(data);
}

bool TargetPicker::isCodeTargetAvailable(codegen::Flavour flavour) const {
  auto* items = qobject_cast<QStandardItemModel*>(model());
  const int row = findData(int(flavour));
  return items && row >= 0 && items->item(row)->isEnabled();
}

void TargetPicker::pick(std::optional<codegen::Flavour> flavour) {
  if (flavour && !isCodeTargetAvailable(*flavour)) return;
  setCurrentIndex(findData(flavour ? int(*flavour) : kOnnx));
}

void TargetPicker::followController() {
  const auto target = controller_->codeTarget();
  const QSignalBlocker block(this);
  setCurrentIndex(findData(target ? int(*target) : kOnnx));
}

void TargetPicker::updateAvailability() {
  // Code is generated from ONNX graphs only; a OneFlow graph converts to ONNX first (the controller drops a
  // code target when such a model opens).
  auto* items = qobject_cast<QStandardItemModel*>(model());
  const bool available = controller_->canGenerateCode() || !doc_->model();
  for (codegen::Flavour f : {codegen::Flavour::PyTorch, codegen::Flavour::OneFlow})
    if (QStandardItem* item = items ? items->item(findData(int(f))) : nullptr) item->setEnabled(available);
}

}  // namespace fb::ui
