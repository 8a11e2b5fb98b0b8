#pragma once
// The inspector window: the graph view in the middle, the panels as docks around it, and the menus.
#include <QMainWindow>

#include "ui/export/scene_export.h"
#include "ui/save_paths.h"

class QProgressBar;
class QPushButton;
class QLabel;
class QMenu;
class QMimeData;
class QDockWidget;

namespace fb::ui {

class Document;
class GraphScene;
class GraphView;
class ModelPanel;
class NodePanel;
class TensorPanel;
class OperatorsPanel;
class FindPanel;
class LogPanel;
class ConversionDocks;
class CompareDocks;
class ProblemsDock;
class PreviewSplit;
class ModelRunner;
class SubgraphExtractor;
class Editing;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // Whether the window reads and writes the user's settings (panel layout, window geometry, Open Recent).
  // --screenshot's window ignores them: its picture must not depend on them, and it must not change them.
  enum class Settings { UseSaved, Ignore };
  explicit MainWindow(QWidget* parent = nullptr, Settings settings = Settings::UseSaved);
  ~MainWindow() override;

  // View > Reset Layout: the panels where a first start puts them, sized for the window's current size.
  void resetLayout();

  // Starts loading in the background; errors are shown in a message and in the log, and the previous
  // model stays open.
  void openFile(const QString& path);
  // Writes the whole graph to .svg or .png; returns false (and says why in the log) on failure. Waits for the
  // export (which runs on a worker) to end.
  bool exportImage(const QString& path);
  // What a drop does: opens the first local file among the URLs; false when there is none.
  bool openFromMime(const QMimeData* mime);
  // What a drop with Shift held does: compares the first local file among the URLs with the open model.
  bool compareFromMime(const QMimeData* mime);
  // Opens `path` beside the open model and pairs their nodes (File > Compare With...).
  void compareWith(const QString& path);
  // File > Export Image...: asks for the file (starting at <model folder>/<model>.svg), adds the chosen
  // format's extension when missing, and exports off the UI thread with a progress dialog (Cancel leaves nothing).
  void exportImageInteractively();
  // File > Plain Export: pictures leave out the selection and the conversion marks (halos, badges).
  QAction* plainExportAction() const { return plainExport_; }
  SceneExporter* exporter() const { return exporter_; }
  // Replaces the file dialogs of Export Image and Save converted (tests).
  void setSavePathChooser(ChooseSavePath chooser);

  Document* document() const { return doc_; }
  GraphScene* scene() const { return scene_; }
  GraphView* view() const { return view_; }
  NodePanel* nodePanel() const { return nodePanel_; }
  TensorPanel* tensorPanel() const { return tensorPanel_; }
  ModelPanel* modelPanel() const { return modelPanel_; }
  OperatorsPanel* operatorsPanel() const { return operatorsPanel_; }
  FindPanel* findPanel() const { return findPanel_; }
  LogPanel* logPanel() const { return logPanel_; }
  ConversionDocks* conversion() const { return conversion_; }
  CompareDocks* compare() const { return compare_; }
  ProblemsDock* problems() const { return problems_; }
  PreviewSplit* split() const { return split_; }
  ModelRunner* runner() const { return runner_; }
  // Graph > Extract Subgraph... (also on the graph's context menu).
  SubgraphExtractor* extractor() const { return extractor_; }
  // Edit menu, Undo History, Save / Save As / Export Edits... (issue 28).
  Editing* editing() const { return editing_; }
  QString lastError() const;

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void buildMenus();
  void buildDocks();
  // The first start's arrangement (which dock is where, tabbed with which, shown or hidden) and its sizes,
  // which depend on the window's size.
  void arrangeDocks();
  void sizeDocks();
  void keepPassesReadable();
  void rememberRecent(const QString& path);
  void rebuildRecentMenu();
  void showError(const QString& path, const QString& message);
  SceneExportOptions exportOptions() const;
  void startExport(const QString& path);

  Document* doc_;
  GraphScene* scene_;
  GraphView* view_;
  ModelPanel* modelPanel_;
  NodePanel* nodePanel_;
  TensorPanel* tensorPanel_;
  OperatorsPanel* operatorsPanel_;
  FindPanel* findPanel_;
  LogPanel* logPanel_;
  QDockWidget* nodeDock_ = nullptr;
  QDockWidget* tensorDock_ = nullptr;
  QDockWidget* modelDock_ = nullptr;
  QDockWidget* findDock_ = nullptr;
  QDockWidget* operatorsDock_ = nullptr;
  QDockWidget* logDock_ = nullptr;
  Settings settings_ = Settings::UseSaved;
  bool sizeDocksOnShow_ = true;      // no saved layout: the docks get their sizes once the window has its size
  bool passesGrown_ = false;         // the Passes tab has grown the Log's strip
  int stripHeightBeforePasses_ = 0;  // the strip's height while Passes is closed, 0: unknown
  ConversionDocks* conversion_ = nullptr;
  CompareDocks* compare_ = nullptr;
  ProblemsDock* problems_ = nullptr;
  PreviewSplit* split_ = nullptr;
  ModelRunner* runner_ = nullptr;
  SubgraphExtractor* extractor_ = nullptr;
  Editing* editing_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QAction* plainExport_ = nullptr;
  SceneExporter* exporter_ = nullptr;
  bool exportWaiting_ = false;  // exportImage() reports its own outcome
  ChooseSavePath choosePath_ = fileDialogChooser();
  QProgressBar* progress_;
  QPushButton* cancel_;
  QLabel* zoomLabel_;
  bool fitOnNextLayout_ = true;
};

}  // namespace fb::ui
