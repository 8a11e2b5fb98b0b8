#pragma once
// Issue 28, live validation, shared by test_ui_edit_problems and test_ui_edit_problems_large: an edit of the open
// model in place, then the wait for its revalidation (check, shape inference, dry run) with the event loop's
// largest gap measured from the edit until the problems are on screen.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "support/edit_in_place.h"
#include "support/event_loop_gap.h"
#include "support/scene_items.h"
#include "ui/edit/problems_dock.h"
#include "ui/edit/revalidator.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/graph/status_overlay.h"
#include "ui/main_window.h"

namespace fb::test {

// Waits until the revalidation of the newest edit is shown; false when it did not finish within `timeoutMs`.
inline bool waitForRevalidation(ui::MainWindow& w, int timeoutMs = 60000) {
  ui::Revalidator* r = w.problems()->revalidator();
  QElapsedTimer t;
  t.start();
  while ((r->isRunning() || !r->hasResult()) && t.elapsed() < timeoutMs) QTest::qWait(5);
  return !r->isRunning() && r->hasResult();
}

struct EditRun {
  bool ok = false;
  double applyMs = 0;        // the edit on the UI thread (aboutToEditModel, the change, modelEdited)
  double revalidatedMs = 0;  // from the edit until the problems are on screen
  double largestGapMs = 0;   // the event loop's worst freeze after the edit returned, until revalidated
};

inline EditRun editMeasured(ui::MainWindow& w, const edit::Edit& e, int timeoutMs = 120000) {
  EditRun run;
  QElapsedTimer t;
  t.start();
  editInPlace(*w.document(), e);
  run.applyMs = double(t.nsecsElapsed()) / 1e6;
  // The gaps from here on: what follows the edit on the event loop (redraw, the revalidation's hand-offs). The edit
  // itself (applyMs: the document's synchronous re-layout) is reported apart, as bench_ui_edit does.
  EventLoopGapMeter gap;
  gap.start();
  run.ok = waitForRevalidation(w, timeoutMs);
  run.revalidatedMs = double(t.nsecsElapsed()) / 1e6;
  run.largestGapMs = gap.stop();
  return run;
}

// The node item drawn for `node` in the main scene, or nullptr.
inline ui::NodeItem* nodeItemOf(ui::MainWindow& w, const ir::Node* node) {
  for (ui::NodeItem* n : itemsOf<ui::NodeItem>(w.scene()))
    if (n->node() == node) return n;
  return nullptr;
}

// Whether the Problems' outline is on the node's item.
inline bool hasProblemOutline(const ui::NodeItem* item) {
  for (QGraphicsItem* child : item->childItems())
    if (child->data(ui::StatusOverlay::kProblemHaloKey).toBool()) return true;
  return false;
}

}  // namespace fb::test
