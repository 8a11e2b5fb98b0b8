#pragma once
// Change a node's op type and domain (set-op): a searchable list of the ops the chosen domain has at the model's
// opset, or any name typed for a domain no schema source knows.
#include <optional>

#include "ui/edit/dialogs/edit_dialog.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace fb::ui {

class OpTypeDialog : public EditDialog {
  Q_OBJECT

 public:
  OpTypeDialog(const ir::Model& model, const ir::Node& node, QWidget* parent = nullptr);
  static std::optional<edit::Edit> ask(QWidget* parent, const ir::Model& model, const ir::Node& node);

  std::vector<edit::Edit> edits() const override;

  void setDomain(const QString& domain);  // "" or "ai.onnx": ONNX's
  void setFilter(const QString& text);
  void setOpType(const QString& op);
  QListWidget* opList() const { return ops_; }
  QLabel* header() const { return header_; }

 protected:
  std::optional<std::string> formReason() const override;

 private:
  std::string domain() const;
  void fillOps();

  const ir::Node& node_;
  QLabel* header_ = nullptr;
  QComboBox* domain_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QListWidget* ops_ = nullptr;
  QLineEdit* op_ = nullptr;
  QStringList known_;                       // of the chosen domain at the model's opset
  std::optional<std::string> knownDomain_;  // the domain known_ is for
};

}  // namespace fb::ui
