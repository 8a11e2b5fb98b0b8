#include "ui/compare/compare_docks.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <map>

#include "diff/weight_diff.h"
#include "inspect/tensor_values.h"
#include "ir/model.h"
#include "ir/node_label.h"
#include "ui/compare/compare_controller.h"
#include "ui/compare/compare_table.h"
#include "ui/compare/compare_view_sync.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/status_overlay.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/save_paths.h"
#include "ui/theme/colors.h"

namespace fb::ui {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString swatch(const QColor& c, const QString& text) {
  return QStringLiteral("<span style='color:%1'>&#9632;</span> %2").arg(c.name(), text);
}

QString statsText(const ir::Tensor& t) {
  try {
    const ValueStats s = valueStats(t, 0);
    if (!s.finite) return QObject::tr("%1 elements").arg(s.count);
    return QObject::tr("min %1, max %2, mean %3")
        .arg(QString::number(s.min, 'g', 5), QString::number(s.max, 'g', 5), QString::number(s.mean, 'g', 5));
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace

CompareDocks::CompareDocks(QMainWindow* window, Document* a, GraphScene* sceneA, GraphView* viewA)
    : QObject(window),
      controller_(new CompareController(a, this)),
      scene_(new GraphScene(controller_->documentB(), this)),
      view_(new GraphView(scene_)),
      legend_(new QLabel),
      pane_(new QWidget),
      table_(new CompareTable(controller_)),
      progress_(new QProgressBar),
      cancel_(new QPushButton(tr("Cancel"))) {
  Document* b = controller_->documentB();
  overlayA_ = new StatusOverlay(
      sceneA, [this, a](uint64_t id) { return controller_->colourOf(a, id); }, this);
  overlayB_ = new StatusOverlay(
      scene_, [this, b](uint64_t id) { return controller_->colourOf(b, id); }, this);

  legend_->setWordWrap(true);
  legend_->setObjectName(QStringLiteral("compareLegend"));
  pane_->setObjectName(QStringLiteral("ComparePane"));
  auto* layout = new QVBoxLayout(pane_);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(legend_);
  layout->addWidget(view_, 1);
  pane_->hide();

  auto* dockWidget = new QWidget;
  auto* box = new QVBoxLayout(dockWidget);
  box->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  progress_->setRange(0, 100);
  progress_->setObjectName(QStringLiteral("compareProgress"));
  cancel_->setObjectName(QStringLiteral("compareCancel"));
  bar->addWidget(progress_, 1);
  bar->addWidget(cancel_);
  box->addLayout(bar);
  box->addWidget(table_, 1);
  progress_->hide();
  cancel_->hide();
  dock_ = new QDockWidget(tr("Compare"), window);
  dock_->setObjectName(QStringLiteral("CompareDock"));
  dock_->setWidget(dockWidget);
  window->addDockWidget(Qt::BottomDockWidgetArea, dock_);
  dock_->hide();

  compareAction_ = new QAction(tr("Compare &With..."), this);
  compareAction_->setObjectName(QStringLiteral("compareWith"));
  compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
  compareAction_->setToolTip(tr("Open another model beside this one, its nodes paired with this one's"));
  connect(compareAction_, &QAction::triggered, this, [this, window, a] {
    QString start = lastFolder(DialogKind::Open);
    if (start.isEmpty() && !a->path().isEmpty()) start = QFileInfo(a->path()).absolutePath();
    const QString p = QFileDialog::getOpenFileName(
        window, tr("Compare with"), start,
        tr("Models (*.onnx *.pb *.prototxt);;ONNX (*.onnx);;OneFlow graphs (*.pb *.prototxt);;All files (*)"));
    if (p.isEmpty()) return;
    rememberFolder(DialogKind::Open, p);
    controller_->compareWith(p);
  });
  closeAction_ = new QAction(tr("Close Comparison"), this);
  closeAction_->setObjectName(QStringLiteral("closeComparison"));
  closeAction_->setEnabled(false);
  connect(closeAction_, &QAction::triggered, controller_, &CompareController::close);

  sync_ = new CompareViewSync(controller_, viewA, view_, this);
  syncAction_ = new QAction(tr("&Sync Pan and Zoom of Compared Models"), this);
  syncAction_->setObjectName(QStringLiteral("syncCompareViews"));
  syncAction_->setCheckable(true);
  syncAction_->setChecked(true);
  syncAction_->setToolTip(tr("Moving one view of a comparison moves the other to the counterpart of its centre"));
  connect(syncAction_, &QAction::toggled, sync_, &CompareViewSync::setEnabled);

  connect(cancel_, &QPushButton::clicked, controller_, &CompareController::cancel);
  connect(controller_, &CompareController::started, this, [this] {
    dock_->show();
    dock_->raise();
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
  });
  connect(controller_, &CompareController::progress, this, [this](int percent, const QString& phase) {
    progress_->setValue(percent);
    progress_->setFormat(phase + QStringLiteral(" %p%"));
  });
  auto endRun = [this] {
    progress_->hide();
    cancel_->hide();
  };
  connect(controller_, &CompareController::cancelled, this, endRun);
  connect(controller_, &CompareController::failed, this, [this, endRun](const QString& message) {
    endRun();
    table_->summary()->setText(message.toHtmlEscaped());
  });
  connect(controller_, &CompareController::closed, this, [this, endRun] {
    endRun();
    pane_->hide();
    closeAction_->setEnabled(false);
    overlayA_->refresh();
    overlayB_->refresh();
  });
  connect(controller_, &CompareController::finished, this, [this, b, endRun] {
    endRun();
    const diff::DiffCounts c = controller_->result()->counts();
    legend_->setText(tr("B: %1 &nbsp; %2 &nbsp; %3 &nbsp; %4 &nbsp; %5 of %6 nodes of A paired")
                         .arg(b->name().toHtmlEscaped())
                         .arg(swatch(modifiedColor(), tr("changed (%1, regions %2)").arg(c.changed).arg(c.regions)))
                         .arg(swatch(removedColor(), tr("only in A (%1)").arg(c.onlyA)))
                         .arg(swatch(addedColor(), tr("only in B (%1)").arg(c.onlyB)))
                         .arg(c.paired)
                         .arg(c.nodesA));
    closeAction_->setEnabled(true);
    overlayA_->refresh();
    overlayB_->refresh();
    pane_->show();
  });
  // B starts at its first view once its scene is built, like any model.
  auto startPending = std::make_shared<bool>(false);
  connect(b, &Document::modelChanged, this, [startPending] { *startPending = true; });
  connect(scene_, &GraphScene::rebuilt, this, [this, startPending] {
    if (!*startPending) return;
    *startPending = false;
    view_->showStart();
  });
  connect(b, &Document::focusRequested, view_, &GraphView::centerOnNode);
}

void CompareDocks::annotate(NodePanel* nodes, TensorPanel* tensors) {
  nodes->setAnnotation(tr("Comparison"), [this](const ir::Node* n) {
    QList<QPair<QString, QString>> rows;
    const diff::NodeDiff* row = n ? controller_->rowOf(n) : nullptr;
    if (!row) return rows;
    const bool fromA = controller_->isA(n);
    const QString other = fromA ? tr("B") : tr("A");
    if (row->region >= 0) {
      QStringList names;
      for (const ir::Node* c : controller_->counterparts(n)) names << q(ir::nodeLabel(*c));
      rows.append(
          {tr("comparison"), tr("in a region rewritten: %1 in %2").arg(names.join(QStringLiteral(", ")), other)});
      return rows;
    }
    rows.append({tr("comparison"), QString::fromUtf8(diff::statusName(row->status).data())});
    const ir::Node* partner = fromA ? row->b : row->a;
    if (!partner) return rows;
    rows.append({tr("in %1").arg(other),
                 q(ir::nodeLabel(*partner)) + QStringLiteral(" (") + q(partner->qualifiedOp()) + QStringLiteral(")")});
    rows.append({tr("paired by"), QString::fromUtf8(diff::matchedByName(row->matchedBy).data())});
    for (const auto& c : row->changes)
      if (!c.starts_with("attribute ")) rows.append({tr("differs"), q(c)});
    // Both nodes' attributes, the differing ones marked.
    std::map<std::string, std::pair<const ir::Attribute*, const ir::Attribute*>> attrs;
    for (const auto& x : row->a->attributes) attrs[x.name].first = &x;
    for (const auto& x : row->b->attributes) attrs[x.name].second = &x;
    for (const auto& [name, pair] : attrs) {
      const bool differs = std::find(row->attributes.begin(), row->attributes.end(), name) != row->attributes.end();
      auto text = [](const ir::Attribute* x) { return x ? q(x->valueToString()) : tr("(absent)"); };
      rows.append({(differs ? QStringLiteral("\u2260 ") : QStringLiteral("= ")) + q(name),
                   differs ? tr("A %1, B %2").arg(text(pair.first), text(pair.second)) : text(pair.first)});
    }
    return rows;
  });
  connect(controller_, &CompareController::finished, nodes, &NodePanel::refresh);
  connect(controller_, &CompareController::closed, nodes, &NodePanel::refresh);

  tensors->setAnnotation(tr("Comparison"), [this](const ir::Value* v) {
    QList<QPair<QString, QString>> rows;
    const ir::Tensor* t = v ? v->initializer() : nullptr;
    const diff::WeightDiff* w = t ? controller_->weightOf(t) : nullptr;
    if (!w) return rows;
    const bool fromA = w->a == t;
    const ir::Tensor* other = fromA ? w->b : w->a;
    rows.append({tr("comparison"), QString::fromUtf8(diff::statusName(w->status).data())});
    if (!other) return rows;
    QStringList dims;
    for (int64_t d : other->dims) dims << QString::number(d);
    rows.append({tr("in %1").arg(fromA ? tr("B") : tr("A")),
                 tr("%1: %2[%3]")
                     .arg(q(other->name), QString::fromUtf8(ir::dataTypeName(other->dtype).data()),
                          dims.join(QStringLiteral(", ")))});
    rows.append({tr("its values"), statsText(*other)});
    if (!w->change.empty()) rows.append({tr("difference"), q(w->change)});
    if (w->maxAbs) {
      rows.append({tr("max abs diff"), QString::number(*w->maxAbs, 'g', 6)});
      rows.append({tr("max rel diff"), QString::number(*w->maxRel, 'g', 6)});
      rows.append({tr("elements differing"), tr("%1 of %2").arg(w->differing).arg(t->numElements())});
    }
    return rows;
  });
  connect(controller_, &CompareController::finished, tensors, &TensorPanel::refresh);
  connect(controller_, &CompareController::closed, tensors, &TensorPanel::refresh);
}

}  // namespace fb::ui
