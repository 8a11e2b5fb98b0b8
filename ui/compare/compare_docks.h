#pragma once
// Puts Compare with... into a main window: the compared model (B) in a pane beside the open one (A) (the main window
// adds it to the split view, preview/preview_split.h), changed nodes and nodes only on one side marked on both
// graphs, the Compare dock (summary, progress and Cancel, the table of differences), and a Comparison section in
// the Node panel (the counterpart, its attributes with the differing ones marked) and the Tensor panel (the other
// weight and the difference).
#include <QObject>

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QProgressBar;
class QPushButton;

namespace fb::ui {

class CompareController;
class CompareTable;
class CompareViewSync;
class Document;
class GraphScene;
class GraphView;
class NodePanel;
class StatusOverlay;
class TensorPanel;

class CompareDocks : public QObject {
  Q_OBJECT
 public:
  CompareDocks(QMainWindow* window, Document* a, GraphScene* sceneA, GraphView* viewA);

  CompareController* controller() const { return controller_; }
  CompareTable* table() const { return table_; }
  QDockWidget* dock() const { return dock_; }
  QWidget* pane() const { return pane_; }
  GraphView* view() const { return view_; }
  GraphScene* scene() const { return scene_; }
  QLabel* legend() const { return legend_; }
  StatusOverlay* overlayA() const { return overlayA_; }
  StatusOverlay* overlayB() const { return overlayB_; }
  QAction* compareAction() const { return compareAction_; }
  QAction* closeAction() const { return closeAction_; }
  // View > Sync Pan and Zoom of Compared Models (checkable, on).
  QAction* syncAction() const { return syncAction_; }
  CompareViewSync* viewSync() const { return sync_; }
  // Adds the Comparison sections to the panels.
  void annotate(NodePanel* nodes, TensorPanel* tensors);

 private:
  CompareController* controller_;
  GraphScene* scene_;
  GraphView* view_;
  QLabel* legend_;
  QWidget* pane_;
  CompareTable* table_;
  QDockWidget* dock_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  StatusOverlay* overlayA_;
  StatusOverlay* overlayB_;
  QAction* compareAction_;
  QAction* closeAction_;
  QAction* syncAction_;
  CompareViewSync* sync_;
};

}  // namespace fb::ui
