#pragma once
// Puts the conversion UI into a main window: the Convert dock (opset, passes, per-node verdicts), halos on
// the source graph for nodes the chosen opset would change or cannot take, and a Preview pane (the main
// window puts it beside the source view, see preview/preview_split.h) that shows the converted graph with
// added and modified nodes marked, its selection linked to the source's (preview/preview_link.h).
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
class TensorPanel;
class StatusBadges;
class PassStepper;
class PreviewLink;
class VerifyController;
class ErrorLegend;

class ConversionDocks : public QObject {
  Q_OBJECT
 public:
  ConversionDocks(QMainWindow* window, Document* source, GraphScene* sourceScene);

  ConversionController* controller() const { return controller_; }
  ConvertPanel* panel() const { return panel_; }
  Document* previewDocument() const { return previewDoc_; }
  GraphScene* previewScene() const { return previewScene_; }
  QDockWidget* convertDock() const { return convertDock_; }
  // Legend and view of the converted graph; hidden while there is no preview.
  QWidget* previewPane() const { return previewPane_; }
  GraphView* previewView() const { return previewView_; }
  QLabel* legend() const { return legend_; }
  PreviewLink* link() const { return link_; }
  StatusOverlay* sourceOverlay() const { return sourceOverlay_; }
  StatusOverlay* previewOverlay() const { return previewOverlay_; }
  // The generated code of a PyTorch/OneFlow target, linked to the source graph.
  CodePreview* codePreview() const { return codePreview_; }
  StatusBadges* sourceBadges() const { return sourceBadges_; }
  // The Passes dock (per-pass figures, pass-by-pass stepping) and the action that shows it.
  PassStepper* passStepper() const { return passStepper_; }
  QDockWidget* passesDock() const { return passesDock_; }
  QAction* passesAction() const { return passesAction_; }
  // Verify: source and preview run on the same seeded inputs, the preview coloured by relative error.
  VerifyController* verifier() const { return verify_; }
  QAction* verifyAction() const { return verifyAction_; }
  ErrorLegend* errorLegend() const { return errorLegend_; }
  // Adds the dry run's verdict on the selected node (status, reason, warnings) to a Node panel.
  void annotate(NodePanel* panel);
  // After Verify, the Tensor panel shows a value of either side beside its counterpart on the other.
  void pairRunValues(TensorPanel* panel);

 private:
  Document* source_;
  ConversionController* controller_;
  ConvertPanel* panel_;
  Document* previewDoc_;
  GraphScene* previewScene_;
  GraphView* previewView_;
  QLabel* legend_;
  QDockWidget* convertDock_;
  QWidget* previewPane_;
  PreviewLink* link_;
  StatusOverlay* sourceOverlay_;
  StatusOverlay* previewOverlay_;
  CodePreview* codePreview_;
  StatusBadges* sourceBadges_;
  PassStepper* passStepper_;
  QDockWidget* passesDock_;
  QAction* passesAction_;
  VerifyController* verify_;
  QAction* verifyAction_;
  ErrorLegend* errorLegend_;
};

}  // namespace fb::ui
