#pragma once
// The Convert dock's choice of what to convert to: ONNX (at the opset beside it), or PyTorch or OneFlow code
// (ONNX sources only: the code items are disabled for OneFlow graphs). It sets the controller's code target and
// follows it when the controller changes it.
#include <QComboBox>
#include <optional>

#include "codegen/flavour.h"

namespace fb::ui {

class Document;
class ConversionController;

class TargetPicker : public QComboBox {
  Q_OBJECT
 public:
  TargetPicker(Document* doc, ConversionController* controller, QWidget* parent = nullptr);

  // Picks a target as the user would (nullopt: ONNX); a code target is refused while the model is not ONNX.
  void pick(std::optional<codegen::Flavour> flavour);
  std::optional<codegen::Flavour> picked() const;
  bool isCodeTargetAvailable(codegen::Flavour flavour) const;

 private:
  void followController();
  void updateAvailability();

  Document* doc_;
  ConversionController* controller_;
};

}  // namespace fb::ui
