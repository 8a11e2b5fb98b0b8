#pragma once
// The Convert panel's table of per-node verdicts: a group filter (needs attention, rewrites, trivial
// conversions...), an operator filter, sortable columns, a details pane with the whole reason of the current row,
// and Save report..., which writes the JSON report flowbridge-cli writes (convert --report after a Preview,
// check --json before).
#include <QWidget>

#include "ui/save_paths.h"

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableView;

namespace fb::ui {

class ConversionController;
class ConversionReportModel;
class Document;
class StatusFilterModel;

class StatusTable : public QWidget {
  Q_OBJECT
 public:
  StatusTable(Document* doc, ConversionController* controller, ConversionReportModel* model, QWidget* parent = nullptr);

  QTableView* view() const { return view_; }
  StatusFilterModel* filter() const { return filter_; }
  QComboBox* groupBox() const { return group_; }
  QLineEdit* opFilterEdit() const { return op_; }
  QPlainTextEdit* detailsPane() const { return details_; }
  QAction* saveReportAction() const { return saveReport_; }
  void setSavePathChooser(ChooseSavePath chooser) { choosePath_ = std::move(chooser); }

  // Writes the report of the conversion (or, before one, of the dry run) as JSON, atomically; false (and a line
  // in the log) on failure.
  bool saveReport(const QString& path);
  void saveReportInteractively();

 signals:
  void logMessage(const QString& text);

 private:
  void showDetails();
  void updateCount();

  Document* doc_;
  ConversionController* controller_;
  ConversionReportModel* model_;
  StatusFilterModel* filter_;
  QComboBox* group_;
  QLineEdit* op_;
  QLabel* count_;
  QTableView* view_;
  QPlainTextEdit* details_;
  QAction* saveReport_;
  ChooseSavePath choosePath_ = fileDialogChooser();
};

}  // namespace fb::ui
