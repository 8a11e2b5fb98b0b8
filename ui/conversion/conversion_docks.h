#pragma once
// Puts the conversion UI into a main window: the Convert dock (opset, passes, per-node verdicts), halos on
// the source graph for nodes the chosen opset would change or cannot take, and a Preview dock beside the
// source that shows the converted graph with added and modified nodes marked.
#include <QObject>

class QMainWindow;
class QDockWidget;
class QLabel;
class QAction;

namespace fb::ui {

class Document;
class GraphScene;
class GraphView;
class ConversionController;
class ConvertPanel;
class StatusOverlay;
class CodePreview;
class NodePanel;
class StatusBadges;
class PassStepper;

class ConversionDocks : public QObject {
  Q_OBJECT
 public:
  ConversionDocks(QMainWindow* window, Document* source, GraphScene* sourceScene);

  ConversionController* controller() const { return controller_; }
  ConvertPanel* panel() const { return panel_; }
  Document* previewDocument() const { return previewDoc_; }
  GraphScene* previewScene() const { return previewScene_; }
  QDockWidget* convertDock() const { return convertDock_; }
  QDockWidget* previewDock() const { return previewDock_; }
  StatusOverlay* sourceOverlay() const { return sourceOverlay_; }
  StatusOverlay* previewOverlay() const { return previewOverlay_; }
  // The generated code of a PyTorch/OneFlow target, linked to the source graph.
  CodePreview* codePreview() const { return codePreview_; }
  StatusBadges* sourceBadges() const { return sourceBadges_; }
  // The Passes dock (per-pass figures, pass-by-pass stepping) and the action that shows it.
  PassStepper* passStepper() const { return passStepper_; }
  QDockWidget* passesDock() const { return passesDock_; }
  QAction* passesAction() const { return passesAction_; }
  // Adds the dry run's verdict on the selected node (status, reason, warnings) to a Node panel.
  void annotate(NodePanel* panel);

 private:
  ConversionController* controller_;
  ConvertPanel* panel_;
  Document* previewDoc_;
  GraphScene* previewScene_;
  GraphView* previewView_;
  QLabel* legend_;
  QDockWidget* convertDock_;
  QDockWidget* previewDock_;
  StatusOverlay* sourceOverlay_;
  StatusOverlay* previewOverlay_;
  CodePreview* codePreview_;
  StatusBadges* sourceBadges_;
  PassStepper* passStepper_;
  QDockWidget* passesDock_;
  QAction* passesAction_;
};

}  // namespace fb::ui
