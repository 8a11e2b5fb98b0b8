#include "ui/main_window.h"

#include <QAction>
#include <QBuffer>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/compare/compare_controller.h"
#include "ui/compare/compare_docks.h"
#include "ui/conversion/code_preview.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/pass_stepper.h"
#include "ui/conversion/status_table.h"
#include "ui/conversion/verify_controller.h"
#include "ui/document.h"
#include "ui/edit/edit_file_actions.h"
#include "ui/edit/edit_dialog_actions.h"
#include "ui/edit/editing.h"
#include "ui/export/scene_export.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/edit/problems_dock.h"
#include "ui/edit/revalidator.h"
#include "ui/inspector/find_panel.h"
#include "ui/inspector/model_panel.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/operators_panel.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/preview/preview_split.h"
#include "ui/run/model_runner.h"
#include "ui/run/subgraph_extractor.h"
#include "ui/widgets/breadcrumb_bar.h"
#include "ui/widgets/log_panel.h"
#include "ui/widgets/panel_layout.h"
#include "ui/widgets/shortcuts_dialog.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace fb::ui {

namespace {
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
}  // namespace

MainWindow::MainWindow(QWidget* parent, Settings settings)
    : QMainWindow(parent),
      doc_(new Document(this)),
      scene_(new GraphScene(doc_, this)),
      view_(new GraphView(scene_)),
      progress_(new QProgressBar),
      cancel_(new QPushButton(tr("Cancel"))),
      zoomLabel_(new QLabel) {
  settings_ = settings;
  runner_ = new ModelRunner(doc_, this);
  extractor_ = new SubgraphExtractor(doc_, this, this);
  // The graph's context menu: what applies to the selection.
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  view_->addAction(extractor_->action());
  editing_ = new Editing(doc_, this);
  editing_->addContextActionsTo(view_);
  addEditDialogActions(*editing_);
  // An edit waits for the jobs reading the model (ui/model_readers.h): the long ones stop first.
  connect(doc_, &Document::aboutToEditModel, runner_, &ModelRunner::cancel);
  connect(doc_, &Document::aboutToEditModel, extractor_, &SubgraphExtractor::cancel);
  auto* central = new QWidget(this);
  auto* box = new QVBoxLayout(central);
  box->setContentsMargins(0, 0, 0, 0);
  box->setSpacing(0);
  box->addWidget(new BreadcrumbBar(doc_, central));
  split_ = new PreviewSplit(view_);
  box->addWidget(split_, 1);
  setCentralWidget(central);
  buildDocks();
  buildMenus();
  resize(1400, 900);
  // A saved layout has its own sizes; the first start's are set once the window has its size (showEvent).
  if (settings_ == Settings::UseSaved && restorePanelLayout(this)) sizeDocksOnShow_ = false;

  progress_->setRange(0, 100);
  progress_->setMaximumWidth(220);
  progress_->hide();
  cancel_->hide();
  statusBar()->addPermanentWidget(zoomLabel_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  connect(cancel_, &QPushButton::clicked, doc_, &Document::cancelLoad);
  connect(cancel_, &QPushButton::clicked, runner_, &ModelRunner::cancel);
  connect(runner_, &ModelRunner::started, this, [this](int nodes) {
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    statusBar()->showMessage(tr("Running %1 nodes ...").arg(nodes));
  });
  connect(runner_, &ModelRunner::progress, this, [this](int done, int total) {
    progress_->setValue(total ? done * 100 / total : 100);
    statusBar()->showMessage(tr("Running: %1 of %2 nodes").arg(done).arg(total));
  });
  // Verify (Convert dock) shares the status bar's progress and Cancel with opening and Run.
  VerifyController* verify = conversion_->verifier();
  connect(cancel_, &QPushButton::clicked, verify, &VerifyController::cancel);
  connect(doc_, &Document::aboutToEditModel, verify, &VerifyController::cancel);
  connect(verify, &VerifyController::started, this, [this] {
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
  });
  connect(verify, &VerifyController::progress, this, [this](int percent, const QString& phase) {
    progress_->setValue(percent);
    statusBar()->showMessage(phase);
  });
  connect(verify, &VerifyController::finished, this, [this](bool ok, const QString& message) {
    progress_->hide();
    cancel_->hide();
    statusBar()->showMessage(ok ? message : tr("Verify stopped: %1").arg(message));
    emit doc_->logMessage(ok ? message : tr("Error: Verify: %1").arg(message));
  });
  connect(verify, &VerifyController::thresholdChanged, this, [this, verify] {
    if (verify->hasResult()) statusBar()->showMessage(verify->summary());
  });
  connect(extractor_, &SubgraphExtractor::started, this, [this](const QString& folder) {
    statusBar()->showMessage(tr("Extracting the selection into %1 ...").arg(folder));
  });
  connect(extractor_, &SubgraphExtractor::finished, this, [this](bool ok, const QString& message) {
    statusBar()->showMessage(ok ? message : tr("Extract Subgraph: %1").arg(message));
  });
  connect(runner_, &ModelRunner::finished, this, [this](bool ok, const QString& message) {
    progress_->hide();
    cancel_->hide();
    statusBar()->showMessage(
        ok ? tr("Ran the model: select a node or value to see what it computed") : tr("Run stopped: %1").arg(message),
        ok ? 8000 : 0);
  });
  connect(view_, &GraphView::zoomChanged, this,
          [this](double z) { zoomLabel_->setText(tr("zoom %1%").arg(int(z * 100))); });

  connect(doc_, &Document::loadStarted, this, [this](const QString& path) {
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    statusBar()->showMessage(tr("Opening %1 ...").arg(QFileInfo(path).fileName()));
  });
  connect(doc_, &Document::loadProgress, this, [this](int percent, const QString& phase) {
    progress_->setValue(percent);
    statusBar()->showMessage(phase);
  });
  auto endLoad = [this] {
    progress_->hide();
    cancel_->hide();
  };
  connect(doc_, &Document::loadFailed, this, [this, endLoad](const QString& path, const QString& message) {
    endLoad();
    showError(path, message);
  });
  connect(doc_, &Document::loadCancelled, this, [this, endLoad] {
    endLoad();
    statusBar()->showMessage(tr("Cancelled"), 3000);
  });
  connect(doc_, &Document::modelChanged, this, [this, endLoad] {
    endLoad();
    if (!doc_->model()) {  // closed: nothing to title or count
      setWindowTitle(tr("FlowBridge"));
      return;
    }
    if (doc_->isApplyingEdit()) return;  // the same model, edited: the view stays where it is
    fitOnNextLayout_ = true;
    // [*]: the modified mark, from the undo stack's clean state (Editing).
    setWindowTitle(tr("FlowBridge - %1[*]").arg(QFileInfo(doc_->path()).fileName()));
    rememberRecent(doc_->path());
    statusBar()->showMessage(tr("%1 nodes").arg(doc_->model()->graph().nodeCount()), 5000);
  });
  connect(scene_, &GraphScene::rebuilt, this, [this] {
    if (!fitOnNextLayout_) return;
    fitOnNextLayout_ = false;
    view_->showStart();
  });
  connect(doc_, &Document::focusRequested, view_, &GraphView::centerOnNode);
  exporter_ = new SceneExporter(doc_, scene_, this);
  connect(exporter_, &SceneExporter::finished, this, [this](const QString& path, qint64 bytes) {
    if (exportWaiting_) return;
    emit doc_->logMessage(tr("Exported %1 (%2 bytes)").arg(path).arg(bytes));
  });
  connect(exporter_, &SceneExporter::failed, this, [this](const QString& path, const QString& message) {
    // exportImage() logs its own outcome; an interactive export says it here and in a message.
    if (exportWaiting_) return;
    emit doc_->logMessage(tr("Error: %1: %2").arg(path, message));
    if (message != tr("cancelled")) showError(path, tr("the picture could not be written: %1").arg(message));
  });
  setAcceptDrops(true);
  setWindowTitle(QStringLiteral("FlowBridge"));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  modelPanel_ = new ModelPanel(doc_);
  nodePanel_ = new NodePanel(doc_);
  tensorPanel_ = new TensorPanel(doc_);
  operatorsPanel_ = new OperatorsPanel(doc_);
  findPanel_ = new FindPanel(doc_);
  logPanel_ = new LogPanel(doc_);
  auto dock = [this](QWidget* w, const QString& title) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(title);
    d->setWidget(w);
    return d;
  };
  nodeDock_ = dock(nodePanel_, tr("Node"));
  tensorDock_ = dock(tensorPanel_, tr("Tensor"));
  modelDock_ = dock(modelPanel_, tr("Model"));
  findDock_ = dock(findPanel_, tr("Find"));
  operatorsDock_ = dock(operatorsPanel_, tr("Operators"));
  logDock_ = dock(logPanel_, tr("Log"));
  // Convert (left, tabbed with Find) and the converted-graph Preview (right, shown after a conversion).
  conversion_ = new ConversionDocks(this, doc_, scene_);
  connect(conversion_->controller(), &ConversionController::logMessage, logPanel_, &LogPanel::append);
  connect(conversion_->panel(), &ConvertPanel::logMessage, logPanel_, &LogPanel::append);
  connect(conversion_->passStepper(), &PassStepper::logMessage, logPanel_, &LogPanel::append);
  conversion_->annotate(nodePanel_);
  split_->setPreviewPane(conversion_->previewPane(), conversion_->previewView());
  split_->linkNodePanel(nodePanel_, doc_, conversion_->previewDocument());
  split_->linkTensorPanel(tensorPanel_);
  conversion_->pairRunValues(tensorPanel_);
  // After each edit: the check and the dry run at the current target again, on a worker; the Problems dock.
  problems_ = new ProblemsDock(this, doc_, scene_);
  ConversionController* controller = conversion_->controller();
  problems_->revalidator()->setDryRunSource([controller] {
    auto [ticket, run] = controller->dryRunJob();
    return Revalidator::DryRunJob{ticket, std::move(run)};
  });
  connect(problems_->revalidator(), &Revalidator::dryRunFinished, controller, &ConversionController::adoptDryRun);
  // Compare With...: the other model in a pane of its own beside the source, its table in a dock.
  compare_ = new CompareDocks(this, doc_, scene_, view_);
  compare_->annotate(nodePanel_, tensorPanel_);
  connect(compare_->controller(), &CompareController::logMessage, logPanel_, &LogPanel::append);
  split_->addPane(compare_->pane(), compare_->view(), compare_->controller()->documentB());
  // Beside a preview or a compared model both graphs start at their first view; the docks keep the widths the
  // user gave them.
  connect(split_, &PreviewSplit::previewShown, this, [this] {
    view_->showStart();
    if (GraphView* shown = split_->shownView()) shown->showStart();
  });
  arrangeDocks();
  keepPassesReadable();
  // Node and Tensor come out when there is something to show in them: after the event that selected (a press on
  // a node), since the window's layout changes under the pointer.
  connect(doc_, &Document::selectionChanged, this, [this] {
    QTimer::singleShot(0, this, [this] {
      QDockWidget* wanted = doc_->selectedValue() ? tensorDock_ : doc_->focusNode() ? nodeDock_ : nullptr;
      if (!wanted || wanted->isVisible()) return;
      const bool columnWasEmpty = nodeDock_->isHidden() && tensorDock_->isHidden();
      wanted->show();
      wanted->raise();
      // The first of the two to come out gets a readable width (showing it put it into the layout).
      if (columnWasEmpty) resizeDocks({wanted}, {std::clamp(width() / 5, 260, 420)}, Qt::Horizontal);
    });
  });
}

void MainWindow::arrangeDocks() {
  // The graph gets the room (on a 1366x768 laptop too). The panels about the whole model share one column of
  // tabs on the left, so the status table gets the column's height; Node and Tensor, empty until something is
  // selected, wait hidden in the right column, where the generated code also goes; the Log is a strip under the
  // graph, with the Passes tab beside it, and the Compare table opens next to it.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  QDockWidget* convert = conversion_->convertDock();
  QDockWidget* passes = conversion_->passesDock();
  QDockWidget* code = conversion_->codePreview()->dock();
  QDockWidget* compare = compare_->dock();
  for (QDockWidget* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) d->setFloating(false);
  addDockWidget(Qt::LeftDockWidgetArea, findDock_);
  for (QDockWidget* d : {convert, operatorsDock_, modelDock_}) tabifyDockWidget(findDock_, d);
  for (QDockWidget* d : {findDock_, convert, operatorsDock_, modelDock_}) d->show();
  findDock_->raise();
  addDockWidget(Qt::RightDockWidgetArea, nodeDock_);
  tabifyDockWidget(nodeDock_, tensorDock_);
  addDockWidget(Qt::RightDockWidgetArea, code, Qt::Vertical);
  nodeDock_->setVisible(doc_->focusNode());
  tensorDock_->setVisible(doc_->selectedValue());
  addDockWidget(Qt::BottomDockWidgetArea, logDock_);
  tabifyDockWidget(logDock_, passes);
  tabifyDockWidget(logDock_, problems_->dock());
  passes->hide();
  problems_->dock()->hide();  // it comes out when an edit leaves a problem
  logDock_->show();
  logDock_->raise();
  addDockWidget(Qt::BottomDockWidgetArea, compare, Qt::Horizontal);
}

void MainWindow::sizeDocks() {
  // A fifth of the width for the left column (within what its panels need), a tenth of the height for the Log.
  resizeDocks({findDock_}, {std::clamp(width() / 5, 240, 380)}, Qt::Horizontal);
  resizeDocks({logDock_}, {std::clamp(height() / 10, 60, 120)}, Qt::Vertical);
  const int right = std::clamp(width() / 5, 260, 420);
  for (QDockWidget* d : {nodeDock_, tensorDock_})
    if (d->isVisible()) resizeDocks({d}, {right}, Qt::Horizontal);
}

void MainWindow::resetLayout() {
  passesGrown_ = false;
  arrangeDocks();
  // The sizes apply to the docks' new places, which the layout takes on its next pass.
  QTimer::singleShot(0, this, &MainWindow::sizeDocks);
}

void MainWindow::keepPassesReadable() {
  // Passes is a tab of the Log's strip, and unreadable at the strip's height: the strip grows to half the window
  // while Passes is open (its figures and op counts then show a few rows each), and gets its height back when
  // Passes is closed. The strip's own height is followed while Passes is closed (eventFilter): the layout makes
  // room for Passes' minimum size as soon as it is shown.
  QDockWidget* passes = conversion_->passesDock();
  logDock_->installEventFilter(this);
  connect(passes, &QDockWidget::visibilityChanged, this, [this, passes] {
    QTimer::singleShot(0, this, [this, passes] {
      if (passes->isHidden()) {
        if (passesGrown_ && stripHeightBeforePasses_ > 0 && logDock_->isVisible())
          resizeDocks({logDock_}, {stripHeightBeforePasses_}, Qt::Vertical);
        passesGrown_ = false;
        return;
      }
      if (passesGrown_ || !passes->isVisible()) return;
      passesGrown_ = true;
      if (passes->height() < height() / 2) resizeDocks({passes}, {height() / 2}, Qt::Vertical);
    });
  });
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  // The strip's own height: what it has while Passes is closed.
  if (watched == logDock_ && event->type() == QEvent::Resize && conversion_->passesDock()->isHidden())
    stripHeightBeforePasses_ = logDock_->height();
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::buildMenus() {
  auto* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    const QString p = QFileDialog::getOpenFileName(
        this, tr("Open model"), lastFolder(DialogKind::Open),
        tr("Models (*.onnx *.pb *.prototxt);;ONNX (*.onnx);;OneFlow graphs (*.pb *.prototxt);;All files (*)"));
    if (p.isEmpty()) return;
    rememberFolder(DialogKind::Open, p);
    openFile(p);
  });
  // OneFlow models are folders (a job or SavedModel with its weight folders).
  file->addAction(tr("Open &Folder..."), this, [this] {
    const QString p =
        QFileDialog::getExistingDirectory(this, tr("Open a OneFlow model folder"), lastFolder(DialogKind::Open));
    if (p.isEmpty()) return;
    rememberFolder(DialogKind::Open, p);
    openFile(p);
  });
  file->addAction(compare_->compareAction());
  file->addAction(compare_->closeAction());
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  rebuildRecentMenu();
  file->addAction(tr("&Reload"), QKeySequence(Qt::Key_F5), this, [this] {
    if (editing_->files()->maySetModelAside()) doc_->reload();
  });
  editing_->fillFileMenu(file);
  file->addAction(tr("&Export Image..."), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                  &MainWindow::exportImageInteractively);
  plainExport_ = file->addAction(tr("&Plain Export (No Selection or Marks)"));
  plainExport_->setCheckable(true);
  plainExport_->setToolTip(tr("Exported pictures leave out the selection and the conversion halos and badges"));
  file->addAction(conversion_->panel()->saveAction());
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  editing_->fillEditMenu(menuBar()->addMenu(tr("&Edit")));

  auto* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Zoom &In"), QKeySequence(Qt::CTRL | Qt::Key_Equal), this, [this] { view_->zoomBy(1.25); });
  view->addAction(tr("Zoom &Out"), QKeySequence(Qt::CTRL | Qt::Key_Minus), this, [this] { view_->zoomBy(0.8); });
  view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), view_, &GraphView::fitAll);
  auto* fitBoth = view->addAction(tr("Fit &Both (source and preview)"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0),
                                  split_, &PreviewSplit::fitBoth);
  fitBoth->setObjectName(QStringLiteral("fitBoth"));
  view->addAction(compare_->syncAction());
  view->addSeparator();
  auto* weights = view->addAction(tr("Show &Initializers"));
  weights->setCheckable(true);
  weights->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  connect(weights, &QAction::toggled, doc_, &Document::setShowInitializers);
  auto* folded = view->addAction(tr("Show &Constants and Weights on Nodes"));
  folded->setObjectName(QStringLiteral("showFoldedValues"));
  folded->setCheckable(true);
  folded->setChecked(doc_->showFoldedValues());
  connect(folded, &QAction::toggled, doc_, &Document::setShowFoldedValues);
  auto* horizontal = view->addAction(tr("&Horizontal Layout"));
  horizontal->setCheckable(true);
  connect(horizontal, &QAction::toggled, this, [this](bool on) {
    fitOnNextLayout_ = true;
    doc_->setHorizontal(on);
  });
  // Esc anywhere in the window (a graph view clears its own graph; see GraphView).
  auto* clear = view->addAction(tr("Clear &Selection"), QKeySequence(Qt::Key_Escape), this, [this] {
    scene_->deselectAll();
    if (nodePanel_->document() != doc_) nodePanel_->document()->clearSelection();  // the preview's, shown there
  });
  clear->setObjectName(QStringLiteral("clearSelection"));
  view->addAction(tr("&Expand All Blocks"), doc_, &Document::expandAll);
  view->addAction(tr("&Collapse All Blocks"), doc_, &Document::collapseAll);
  view->addSeparator();
  view->addAction(tr("&Convert..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this, [this] {
    conversion_->convertDock()->show();
    conversion_->convertDock()->raise();
  });
  view->addAction(tr("&Find..."), QKeySequence::Find, this, [this] {
    findPanel_->parentWidget()->show();
    findPanel_->parentWidget()->raise();  // in front of the Convert tab
    findPanel_->focusSearch();
  });
  auto* panels = view->addMenu(tr("&Panels"));
  panels->setObjectName(QStringLiteral("panelsMenu"));
  fillPanelsMenu(this, panels);
  auto* reset = view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  reset->setObjectName(QStringLiteral("resetLayout"));
  reset->setToolTip(tr("The panels where a first start puts them, sized for the window"));

  auto* graph = menuBar()->addMenu(tr("&Graph"));
  graph->addAction(extractor_->action());

  auto* convert = menuBar()->addMenu(tr("&Convert"));
  convert->addAction(conversion_->panel()->previewAction());
  convert->addAction(conversion_->panel()->saveAction());
  convert->addAction(conversion_->panel()->statusTable()->saveReportAction());
  convert->addAction(conversion_->passesAction());
  convert->addAction(conversion_->verifyAction());

  auto* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(tr("&Run Model (Seeded Inputs)"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                 [this] { runner_->runSeeded(0); });
  run->addAction(tr("Run with &Inputs from Folder..."), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Folder with <input name>.npy or input_<k>.pb files"), QFileInfo(doc_->path()).absolutePath());
    if (!dir.isEmpty()) runner_->runWithInputsFrom(dir);
  });
  run->addAction(tr("&Cancel Run"), runner_, &ModelRunner::cancel);

  auto* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] {
    auto* dialog = new ShortcutsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  });
}

void MainWindow::setSavePathChooser(ChooseSavePath chooser) {
  choosePath_ = chooser;
  editing_->files()->setSavePathChooser(chooser);
  conversion_->panel()->setSavePathChooser(std::move(chooser));
}

void MainWindow::exportImageInteractively() {
  const QString svg = tr("SVG (*.svg)"), png = tr("PNG (*.png)");
  QString filter = svg;
  const QString suggested = inLastFolder(DialogKind::Export, suggestedExportPath(doc_->path(), QStringLiteral("svg")));
  const QString chosen = choosePath_(this, tr("Export image"), suggested, svg + QStringLiteral(";;") + png, &filter);
  if (chosen.isEmpty()) return;
  rememberFolder(DialogKind::Export, chosen);
  const QString fallback = suffixOfFilter(filter).isEmpty() ? QStringLiteral("svg") : suffixOfFilter(filter);
  const QString path = withSuffix(chosen, {QStringLiteral("svg"), QStringLiteral("png")}, fallback);
  if (path != chosen && QFileInfo::exists(path) &&
      QMessageBox::question(this, tr("Export image"), tr("%1 already exists. Replace it?").arg(path),
                            QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
    return;
  startExport(path);
}

void MainWindow::openFile(const QString& path) {
  if (editing_->files()->maySetModelAside()) doc_->open(path);
}

QString MainWindow::lastError() const { return doc_->lastError(); }

void MainWindow::showError(const QString& path, const QString& message) {
  statusBar()->showMessage(tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), message));
  // Not modal-blocking: tests and --screenshot keep running, the user dismisses it.
  auto* box = new QMessageBox(QMessageBox::Warning, tr("FlowBridge"), tr("Cannot open %1:\n%2").arg(path, message),
                              QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("errorMessage"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::rememberRecent(const QString& path) {
  if (settings_ == Settings::Ignore) return;
  QSettings settings;
  QStringList recent = settings.value(kRecentKey).toStringList();
  const QString abs = QFileInfo(path).absoluteFilePath();
  recent.removeAll(abs);
  recent.prepend(abs);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(kRecentKey, recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent =
      settings_ == Settings::Ignore ? QStringList() : QSettings().value(kRecentKey).toStringList();
  for (const QString& p : recent) recentMenu_->addAction(p, this, [this, p] { openFile(p); });
  recentMenu_->setEnabled(!recent.isEmpty());
}

bool MainWindow::exportImage(const QString& path) {
  QString error;
  exportWaiting_ = true;
  const bool ok = exporter_->run(path, exportOptions(), &error);
  exportWaiting_ = false;
  if (!ok) {
    emit doc_->logMessage(tr("Error: %1: %2").arg(path, error));
    return false;
  }
  emit doc_->logMessage(tr("Exported %1 (%2 bytes)").arg(path).arg(QFileInfo(path).size()));
  return true;
}

SceneExportOptions MainWindow::exportOptions() const {
  SceneExportOptions o;
  o.plain = plainExport_ && plainExport_->isChecked();
  o.title = QFileInfo(doc_->path()).fileName();
  o.protectedInput = doc_->path();
  return o;
}

void MainWindow::startExport(const QString& path) {
  auto* dialog = new QProgressDialog(tr("Exporting %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 100, this);
  dialog->setObjectName(QStringLiteral("exportProgress"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setMinimumDuration(300);
  dialog->setAutoClose(false);
  dialog->setAutoReset(false);
  connect(exporter_, &SceneExporter::progress, dialog, &QProgressDialog::setValue);
  connect(dialog, &QProgressDialog::canceled, exporter_, &SceneExporter::cancel);
  auto done = [dialog] { dialog->close(); };
  connect(exporter_, &SceneExporter::finished, dialog, done);
  connect(exporter_, &SceneExporter::failed, dialog, done);
  if (!exporter_->start(path, exportOptions())) dialog->close();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!editing_->files()->maySetModelAside()) {
    event->ignore();
    return;
  }
  if (settings_ == Settings::UseSaved) savePanelLayout(this);
  QMainWindow::closeEvent(event);
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (!sizeDocksOnShow_) return;
  sizeDocksOnShow_ = false;
  sizeDocks();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  // Shift held: the dropped model is compared with the open one instead of replacing it.
  const bool compare = event->modifiers().testFlag(Qt::ShiftModifier) && doc_->model();
  if (compare ? compareFromMime(event->mimeData()) : openFromMime(event->mimeData())) event->acceptProposedAction();
}

bool MainWindow::compareFromMime(const QMimeData* mime) {
  const auto urls = mime ? mime->urls() : QList<QUrl>{};
  if (urls.isEmpty() || !urls.first().isLocalFile()) return false;
  compareWith(urls.first().toLocalFile());
  return true;
}

void MainWindow::compareWith(const QString& path) { compare_->controller()->compareWith(path); }

bool MainWindow::openFromMime(const QMimeData* mime) {
  const auto urls = mime ? mime->urls() : QList<QUrl>{};
  if (urls.isEmpty() || !urls.first().isLocalFile()) return false;
  openFile(urls.first().toLocalFile());
  return true;
}

}  // namespace fb::ui
