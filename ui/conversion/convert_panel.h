#pragma once
// The Convert dock: target opset, optimizer passes, the dry-run verdict per node (click to jump), and
// the buttons that build the preview and save the converted model. Save is enabled only while the preview
// matches the current model and settings, and asks before writing an incomplete conversion.
#include <QWidget>

#include "ui/save_paths.h"

class QSpinBox;
class QLabel;
class QPushButton;
class QGridLayout;
class QTableView;
class QListWidget;
class QComboBox;
class QAction;
class QProgressBar;

namespace fb::ui {

class Document;
class ConversionController;
class ConversionReportModel;
class TargetPicker;
class StatusTable;

class ConvertPanel : public QWidget {
  Q_OBJECT
 public:
  ConvertPanel(Document* doc, ConversionController* controller, QWidget* parent = nullptr);

  QSpinBox* opsetBox() const { return opset_; }
  TargetPicker* targetPicker() const { return target_; }
  QLabel* summaryLabel() const { return summary_; }
  QTableView* table() const;
  // The table with its filters, details pane and Save report...
  StatusTable* statusTable() const { return statusTable_; }
  ConversionReportModel* reportModel() const { return model_; }
  // Preview conversion and Save converted..., for menus and shortcuts (the buttons trigger them too).
  QAction* previewAction() const { return previewAction_; }
  QAction* saveAction() const { return saveAction_; }
  QPushButton* saveButton() const { return save_; }
  // Replaces the file dialog (tests).
  void setSavePathChooser(ChooseSavePath chooser);
  // Replaces the folder dialog of Save converted... for code targets (tests).
  void setFolderChooser(ChooseFolder chooser) { chooseFolder_ = std::move(chooser); }
  // A button of another feature beside Convert / Cancel / Save (Verify).
  void addButton(QWidget* button);
  // The document that shows the preview: the progress bar and Cancel stay until its layout (on a worker) is on
  // screen, and Cancel then stops that layout.
  void followPreview(Document* preview);
  QProgressBar* progressBar() const { return progress_; }
  QPushButton* cancelButton() const { return cancel_; }

  // Save converted...: asks for the file (starting at <model folder>/<model>_opset<N>.onnx), adds .onnx when
  // missing, and for an incomplete conversion asks whether to write it anyway (default No).
  void saveConverted();

 signals:
  void previewRequested();
  void logMessage(const QString& text);

 private:
  void updateFromDryRun();
  void applyPassChoice();
  void updateActions();
  void cancel();
  // A conversion running, or its preview being laid out.
  bool previewing() const;
  // The target's own settings: the opset and passes apply to ONNX targets only.
  void updateTargetSettings();
  // Save converted... for a code target: asks for a new folder (convert_panel_code.cpp).
  void saveGeneratedCode();
  // A Yes/No question whose default (Enter, Escape) is No.
  bool confirm(const QString& objectName, const QString& title, const QString& text);

  Document* doc_;
  ConversionController* controller_;
  QSpinBox* opset_;
  QComboBox* passMode_;
  QListWidget* passList_;
  QLabel* summary_;
  ConversionReportModel* model_;
  StatusTable* statusTable_;
  QPushButton* convert_;
  QPushButton* cancel_;
  QPushButton* save_;
  QGridLayout* buttons_ = nullptr;  // two to a row: the Convert dock fits a fifth of a laptop screen
  QProgressBar* progress_;
  Document* preview_ = nullptr;
  QAction* previewAction_;
  QAction* saveAction_;
  // Made after the other widgets, so findChild<QComboBox*>() still finds the passes box first.
  TargetPicker* target_;
  ChooseSavePath choosePath_ = fileDialogChooser();
  ChooseFolder chooseFolder_ = directoryDialogChooser();
};

}  // namespace fb::ui
