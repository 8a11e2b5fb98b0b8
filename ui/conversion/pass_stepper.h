#pragma once
// The optimizer pipeline, pass by pass. Per-pass figures of the current conversion (runs, time, nodes removed
// and added) and its op counts before -> after; and stepping: the conversion is run again off the UI thread with
// a copy of the model kept after every pass run that changed it (core's PassManager::recordSteps), then each step
// shows its graph with what that pass added or modified marked, and what it removed and how op counts moved.
// Step 0 is the model after the handlers, before any pass. Like the preview, steps belong to the model and
// settings they were made with: any change drops them.
#include <QWidget>
#include <memory>

#include "convert/converter.h"
#include "ui/conversion/model_diff.h"

class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace fb::ui {

class ConversionController;
class Document;
class GraphScene;
class GraphView;
class StatusOverlay;

class PassStepper : public QWidget {
  Q_OBJECT
 public:
  PassStepper(Document* source, ConversionController* controller, QWidget* parent = nullptr);

  // Per-pass figures of the current conversion: pass, runs, ms, nodes removed, nodes added.
  QTableWidget* figuresTable() const { return figures_; }
  // Op counts before -> after of the current conversion (ops whose count changed first).
  QTableWidget* opsTable() const { return ops_; }
  QListWidget* stepList() const { return steps_; }
  QLabel* stepSummary() const { return summary_; }
  Document* stepDocument() const { return stepDoc_; }
  GraphScene* stepScene() const { return stepScene_; }
  StatusOverlay* stepOverlay() const { return overlay_; }

  // Converts the source again at the current settings, keeping every step (worker thread); stepsRecorded()
  // follows, or recordFailed().
  void recordSteps();
  bool isRecording() const { return recording_; }
  // Step 0 (after the handlers) plus one per pass run that changed the model; 0 before recordSteps().
  int stepCount() const;
  std::shared_ptr<const ir::Model> modelAt(int step) const;
  // The pass run of a step (nullptr for step 0).
  const passes::PassStep* passStep(int step) const;
  // Shows a step: its graph (the step's model itself, laid out off the UI thread), marks, and the summary;
  // stepShown() when on screen.
  void showStep(int step);
  int currentStep() const { return current_; }
  // What the current step changed against the one before (step 0: against the source model).
  const ModelDiff& currentDiff() const { return diff_; }

 signals:
  void stepsRecorded();
  void recordFailed(const QString& message);
  void stepShown(int step);
  void logMessage(const QString& text);

 private:
  void showFigures();
  void clearSteps();

  Document* source_;
  ConversionController* controller_;
  QTableWidget* figures_;
  QTableWidget* ops_;
  QLabel* figuresLabel_;
  QPushButton* record_;
  QPushButton* prev_;
  QPushButton* next_;
  QListWidget* steps_;
  QLabel* summary_;
  Document* stepDoc_;
  GraphScene* stepScene_;
  GraphView* stepView_;
  StatusOverlay* overlay_;
  std::shared_ptr<const convert::ConvertResult> recorded_;
  std::shared_ptr<const ir::Model> recordedFrom_;
  ModelDiff diff_;
  QHash<quint64, DiffKind> shownDiff_;  // the marks of the step on screen, by its node ids
  quint64 generation_ = 0;
  bool recording_ = false;
  int current_ = -1;
};

}  // namespace fb::ui
