#pragma once
// The model's header: opset imports, IR version, producer name and version, metadata (a key/value table). OK
// gives the edits that turn the header as it was into the form's (set-opset, set-ir-version, set-producer,
// set-metadata, remove-metadata), applied in order as one action.
#include <optional>

#include "ui/edit/dialogs/edit_dialog.h"

class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace fb::ui {

class ModelInfoDialog : public EditDialog {
  Q_OBJECT

 public:
  explicit ModelInfoDialog(const ir::Model& model, QWidget* parent = nullptr);
  static std::optional<std::vector<edit::Edit>> ask(QWidget* parent, const ir::Model& model);

  std::vector<edit::Edit> edits() const override;

  // Sets the version of a domain's import, adding a row for a domain the model does not import yet.
  void setOpset(const QString& domain, int version);
  void setIrVersion(int version);
  void setProducer(const QString& name, const QString& version);
  // Sets a key's value, adding a row for a new key.
  void setMetadata(const QString& key, const QString& value);
  void removeMetadata(const QString& key);
  QTableWidget* opsetTable() const { return opsets_; }
  QTableWidget* metadataTable() const { return metadata_; }

 protected:
  std::optional<std::string> formReason() const override;

 private:
  int rowOfKey(const QTableWidget* table, const QString& key) const;

  QTableWidget* opsets_ = nullptr;
  QSpinBox* irVersion_ = nullptr;
  QLineEdit* producerName_ = nullptr;
  QLineEdit* producerVersion_ = nullptr;
  QTableWidget* metadata_ = nullptr;
};

}  // namespace fb::ui
