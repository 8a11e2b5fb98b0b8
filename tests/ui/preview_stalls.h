#pragma once
// Issue 26 point 1, shared by test_ui_preview_responsive and test_ui_preview_responsive_large: a generated
// transformer-like graph is opened and left to settle (types, dry run), a block is toggled in the source, and
// Preview conversion runs while a 10 ms timer records the event loop's largest gap, until the preview is on
// screen: laid out, built, painted, paired with the source, and with its types when they follow the first frame.
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <map>

#include "formats/onnx/onnx_writer.h"
#include "resources/synthetic_graph.h"
#include "support/event_loop_gap.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/convert_panel.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/preview/preview_link.h"
#include "ui/preview/preview_split.h"

namespace fb::test {

// The generated model of about `nodes` nodes, written once per process.
inline QString syntheticModel(size_t nodes) {
  static std::map<size_t, QString> made;
  QString& path = made[nodes];
  if (path.isEmpty()) {
    path = scratchDir(QStringLiteral("preview_stalls_%1").arg(nodes)) + QStringLiteral("/synthetic.onnx");
    onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(nodes, true), path.toStdString());
  }
  return path;
}

// Opens `path` and waits for what follows the first frame: the deferred types and the conversion dry run.
inline bool openAndSettle(ui::MainWindow& w, const QString& path) {
  if (!openAndWait(w, path, 180000)) return false;
  QElapsedTimer t;
  t.start();
  while ((w.document()->typesPending() || !w.conversion()->controller()->dryRun()) && t.elapsed() < 300000)
    QTest::qWait(20);
  QTest::qWait(100);
  return !w.document()->typesPending() && w.conversion()->controller()->dryRun();
}

// Expands the first collapsed block and collapses the first open one (not the root; each one its path names alone)
// of the source's main graph, so that its collapse state differs from the one a fresh layout would choose.
// Returns their paths.
struct Toggled {
  std::string expanded, collapsed;
};
inline Toggled toggleSourceBlocks(ui::Document* doc) {
  Toggled out;
  int open = -1, closed = -1;
  const auto& lay = *doc->level(0).layout;
  std::map<std::string, int> uses;
  for (int b = 1; b < int(lay.tree().blocks.size()); ++b) ++uses[lay.tree().path(b)];
  for (int b = 1; b < int(lay.tree().blocks.size()); ++b) {
    // Blocks a path names alone (a scope, not one of several groups of consecutive nodes named by their ops).
    if (lay.tree().blocks[size_t(b)].totalNodes < 2 || uses[lay.tree().path(b)] != 1) continue;
    if (lay.isExpanded(b) && open < 0 && lay.isExpanded(lay.tree().blocks[size_t(b)].parent)) open = b;
    if (!lay.isExpanded(b) && closed < 0 && lay.isExpanded(lay.tree().blocks[size_t(b)].parent)) closed = b;
  }
  if (closed > 0) {
    doc->toggleBlock(closed);
    out.expanded = lay.tree().path(closed);
  }
  if (open > 0) {
    doc->toggleBlock(open);
    out.collapsed = lay.tree().path(open);
  }
  return out;
}

struct PreviewRun {
  bool ok = false;
  double largestGapMs = -1;
  double onScreenMs = -1;  // Preview to the converted graph built and painted
  // Seen each time the preview's layout reported progress (after the conversion, before it was on screen).
  int layoutProgressSeen = 0;
  bool cancelAlwaysEnabled = true, progressAlwaysShown = true;
};

inline PreviewRun previewMeasured(ui::MainWindow& w) {
  PreviewRun r;
  ui::ConversionDocks* docks = w.conversion();
  ui::Document* preview = docks->previewDocument();
  ui::ConvertPanel* panel = docks->panel();
  QSignalSpy shown(preview, &ui::Document::modelChanged);
  QSignalSpy failed(docks->controller(), &ui::ConversionController::conversionFailed);
  QSignalSpy paneShown(w.split(), &ui::PreviewSplit::previewShown);
  auto watch = QObject::connect(preview, &ui::Document::loadProgress, [&] {
    ++r.layoutProgressSeen;
    r.cancelAlwaysEnabled = r.cancelAlwaysEnabled && panel->cancelButton()->isEnabled();
    r.progressAlwaysShown = r.progressAlwaysShown && panel->progressBar()->isVisibleTo(panel);
  });
  EventLoopGapMeter gaps;
  QElapsedTimer t;
  t.start();
  gaps.start();
  panel->previewAction()->trigger();
  while ((shown.isEmpty() || paneShown.isEmpty() || docks->previewScene()->isBuilding()) && failed.isEmpty() &&
         t.elapsed() < 300000)
    QTest::qWait(5);
  if (!shown.isEmpty() && preview->model()) {
    docks->previewView()->viewport()->repaint();  // the first frame, inside the measured span
    r.onScreenMs = double(t.nsecsElapsed()) / 1e6;
    while ((docks->link()->pairsPending() || preview->typesPending()) && t.elapsed() < 300000) QTest::qWait(5);
    QTest::qWait(30);  // the paint that follows the types, as the event loop schedules it
    docks->previewView()->viewport()->repaint();
    QTest::qWait(30);
    r.ok = !docks->link()->pairsPending() && !preview->typesPending();
  }
  r.largestGapMs = gaps.stop();
  QObject::disconnect(watch);
  return r;
}

}  // namespace fb::test
