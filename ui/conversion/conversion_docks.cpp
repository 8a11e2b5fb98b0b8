#include "ui/conversion/conversion_docks.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QVBoxLayout>

#include "ir/model.h"
#include "ui/conversion/code_preview.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/pass_stepper.h"
#include "ui/conversion/status_badges.h"
#include "ui/conversion/error_legend.h"
#include "ui/conversion/verify_controller.h"
#include "ui/graph/status_overlay.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/preview/preview_link.h"
#include "ui/theme/colors.h"

namespace fb::ui {

ConversionDocks::ConversionDocks(QMainWindow* window, Document* source, GraphScene* sourceScene)
    : QObject(window),
      source_(source),
      controller_(new ConversionController(source, this)),
      panel_(new ConvertPanel(source, controller_)),
      previewDoc_(new Document(this)),
      previewScene_(new GraphScene(previewDoc_, this)),
      previewView_(new GraphView(previewScene_)),
      legend_(new QLabel) {
  previewScene_->setBuildNewModelsInChunks(true);  // the window stays responsive while a large preview appears
  auto diffMap = std::make_shared<QHash<quint64, DiffKind>>();
  sourceOverlay_ = new StatusOverlay(
      sourceScene,
      [this](uint64_t id) {
        auto s = controller_->statusOf(id);
        return s ? statusColor(*s) : QColor();
      },
      this);
  verify_ = new VerifyController(source, previewDoc_, this);
  // After Verify the preview's marks are its nodes' errors; before, what the conversion added and modified.
  previewOverlay_ = new StatusOverlay(
      previewScene_,
      [this, diffMap](uint64_t id) {
        if (!verify_->hasResult()) return diffColor(diffMap->value(id, DiffKind::Same));
        const auto e = verify_->previewNodeError(previewDoc_->findNode(id));
        return e ? errorColor(*e, verify_->threshold()) : QColor();
      },
      this);
  connect(verify_, &VerifyController::thresholdChanged, previewOverlay_, &StatusOverlay::refresh);
  connect(controller_, &ConversionController::dryRunFinished, sourceOverlay_, &StatusOverlay::refresh);
  sourceBadges_ = new StatusBadges(
      source, sourceScene, [this](uint64_t id) { return controller_->statusOf(id); }, this);
  connect(controller_, &ConversionController::dryRunFinished, sourceBadges_, &StatusBadges::statusesChanged);
  // The preview shows the converted model itself (no file in between): its nodes keep the ids and provenance the
  // conversion gave them, which the marks and the selection link read.
  connect(controller_, &ConversionController::conversionFinished, this, [this, source] {
    // Laid out on a worker with the blocks the source has open (the panel's progress and Cancel follow it).
    if (auto converted = controller_->convertedModel())
      previewDoc_->show(converted, controller_->previewName(),
                        std::make_shared<const CollapseState>(source->collapseState()));
  });
  // A preview belongs to the conversion it shows: when that is dropped (other model, opset or passes), so is
  // the preview, and a new model also closes the dock.
  connect(controller_, &ConversionController::conversionInvalidated, previewDoc_, &Document::close);
  connect(source, &Document::modelChanged, this, [this] { previewPane_->hide(); });
  connect(previewDoc_, &Document::modelChanged, this, [this, diffMap] {
    const ir::Model* shown = previewDoc_->model();
    // The marks belong to the conversion on screen (a newer one may have finished while this one was laid out).
    *diffMap = shown && shown == controller_->convertedModel().get() ? controller_->previewDiffs()
                                                                     : QHash<quint64, DiffKind>{};
    previewOverlay_->refresh();
    if (!shown) {
      legend_->setText(tr("No preview for the current model and settings: Preview conversion (%1)")
                           .arg(panel_->previewAction()->shortcut().toString(QKeySequence::NativeText)));
      return;
    }
    int added = 0, modified = 0;
    for (DiffKind k : *diffMap) (k == DiffKind::Added ? added : modified)++;
    // The count is of the converted model's nodes, subgraphs included, not of the boxes on screen (blocks fold
    // many into one, constants are drawn inside their consumers): the legend says so.
    const size_t total = shown->graph().totalNodeCount(), inSubgraphs = total - shown->graph().nodeCount();
    const QString count =
        inSubgraphs ? tr("%1 nodes in the converted model (%2 of them in subgraphs)").arg(total).arg(inSubgraphs)
                    : tr("%1 nodes in the converted model").arg(total);
    legend_->setText(tr("Opset %6, %7 &nbsp; <span style='color:%1'>&#9632;</span> added (%2) &nbsp; <span "
                        "style='color:%3'>&#9632;</span> "
                        "modified (%4) &nbsp; %5")
                         .arg(diffColor(DiffKind::Added).name())
                         .arg(added)
                         .arg(diffColor(DiffKind::Modified).name())
                         .arg(modified)
                         .arg(count)
                         .arg(shown->opsetVersion(""))
                         .arg(controller_->passesDescription().toHtmlEscaped()));
    previewPane_->show();
  });

  convertDock_ = new QDockWidget(tr("Convert"), window);
  convertDock_->setObjectName("ConvertDock");
  convertDock_->setWidget(panel_);
  window->addDockWidget(Qt::LeftDockWidgetArea, convertDock_);

  legend_->setWordWrap(true);  // a long legend must not hold the pane wider than half the window
  previewPane_ = new QWidget;
  previewPane_->setObjectName("PreviewPane");
  auto* layout = new QVBoxLayout(previewPane_);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(legend_);
  errorLegend_ = new ErrorLegend(verify_, previewPane_);
  layout->addWidget(errorLegend_);
  layout->addWidget(previewView_, 1);
  connect(errorLegend_, &ErrorLegend::showFirstDivergence, this, [this, source] {
    if (const ir::Node* b = verify_->firstDivergentPreviewNode()) previewDoc_->showNode(b);
    if (const ir::Node* a = verify_->firstDivergentSourceNode()) source->showNode(a);
  });
  verifyAction_ = new QAction(tr("&Verify Conversion"), this);
  verifyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
  verifyAction_->setToolTip(
      tr("Run the source and the previewed conversion on the same seeded inputs and colour the preview by error"));
  verifyAction_->setEnabled(false);
  connect(previewDoc_, &Document::modelChanged, this, [this] { verifyAction_->setEnabled(previewDoc_->model()); });
  connect(verifyAction_, &QAction::triggered, verify_, [this] { verify_->start(0); });
  auto* verifyButton = new QPushButton(tr("Verify"), panel_);
  verifyButton->setToolTip(verifyAction_->toolTip());
  verifyButton->setEnabled(false);
  connect(verifyAction_, &QAction::changed, verifyButton,
          [this, verifyButton] { verifyButton->setEnabled(verifyAction_->isEnabled()); });
  connect(verifyButton, &QPushButton::clicked, verifyAction_, &QAction::trigger);
  panel_->addButton(verifyButton);
  panel_->followPreview(previewDoc_);
  previewPane_->hide();
  link_ = new PreviewLink(source, previewDoc_, this);
  // Each new preview starts at its first view, like the source (once its scene is built).
  auto startPending = std::make_shared<bool>(false);
  connect(previewDoc_, &Document::modelChanged, this, [startPending] { *startPending = true; });
  connect(previewScene_, &GraphScene::rebuilt, this, [this, startPending] {
    if (!*startPending) return;
    *startPending = false;
    previewView_->showStart();
  });
  codePreview_ = new CodePreview(window, source, controller_, this);

  passStepper_ = new PassStepper(source, controller_);
  passesDock_ = new QDockWidget(tr("Passes"), window);
  passesDock_->setObjectName("PassesDock");
  passesDock_->setWidget(passStepper_);
  window->addDockWidget(Qt::BottomDockWidgetArea, passesDock_);
  passesDock_->hide();
  passesAction_ = new QAction(tr("Pass &Figures and Steps"), this);
  passesAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  passesAction_->setToolTip(tr("Per-pass time and node counts of the preview; step through the pipeline pass by pass"));
  connect(passesAction_, &QAction::triggered, this, [this] {
    passesDock_->show();
    passesDock_->raise();
  });
}

void ConversionDocks::pairRunValues(TensorPanel* panel) {
  panel->setRunPairs([this](const ir::Value* v) -> std::optional<TensorPanel::RunPair> {
    const VerifyController::PairedValue* p = verify_->hasResult() ? verify_->pairOf(v) : nullptr;
    if (!p) return std::nullopt;
    return TensorPanel::RunPair{source_, p->source, previewDoc_, p->result, p->diff};
  });
  // Verify's result arrives with the run values (which refresh the panel); a dropped one goes without them.
  connect(verify_, &VerifyController::thresholdChanged, panel, &TensorPanel::refresh);
}

void ConversionDocks::annotate(NodePanel* panel) {
  panel->setAnnotation(tr("Conversion"), [this](const ir::Node* n) {
    QList<QPair<QString, QString>> rows;
    const convert::NodeReport* r = n ? controller_->reportOf(n->id()) : nullptr;
    if (!r) return rows;
    const QString kind = ConversionReportModel::kindOf(*r);
    rows.append(
        {tr("status"),
         tr("%1 at %2%3")
             .arg(QString::fromUtf8(convert::statusName(r->status).data(), int(convert::statusName(r->status).size())),
                  controller_->targetDescription(), kind.isEmpty() ? QString() : tr(" (%1)").arg(kind))});
    if (!r->message.empty()) rows.append({tr("reason"), QString::fromStdString(r->message)});
    if (r->lowestOpset && r->status == convert::NodeStatus::Unsupported)
      rows.append({tr("converts from"), tr("target opset %1").arg(*r->lowestOpset)});
    for (const auto& w : r->warnings) rows.append({tr("warning"), QString::fromStdString(w)});
    return rows;
  });
  connect(controller_, &ConversionController::dryRunFinished, panel, &NodePanel::refresh);
}

}  // namespace fb::ui
