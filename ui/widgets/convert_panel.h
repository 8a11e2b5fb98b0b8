#pragma once
// The Convert dock: target opset, optimizer passes, the dry-run verdict per node (click to jump), and
// the buttons that build the preview and save the converted model.
#include <QWidget>

class QSpinBox;
class QLabel;
class QPushButton;
class QTableView;
class QListWidget;
class QComboBox;

namespace fb::ui {

class Document;
class ConversionController;
class ConversionReportModel;

class ConvertPanel : public QWidget {
  Q_OBJECT
 public:
  ConvertPanel(Document* doc, ConversionController* controller, QWidget* parent = nullptr);

  QSpinBox* opsetBox() const { return opset_; }
  QLabel* summaryLabel() const { return summary_; }
  QTableView* table() const { return table_; }
  ConversionReportModel* reportModel() const { return model_; }

 signals:
  void previewRequested();

 private:
  void updateFromDryRun();
  void applyPassChoice();

  Document* doc_;
  ConversionController* controller_;
  QSpinBox* opset_;
  QComboBox* passMode_;
  QListWidget* passList_;
  QLabel* summary_;
  QTableView* table_;
  ConversionReportModel* model_;
  QPushButton* convert_;
  QPushButton* cancel_;
  QPushButton* save_;
};

}  // namespace fb::ui
