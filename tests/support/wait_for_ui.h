#pragma once
// For UI tests: open a model, or run the Preview, in a MainWindow and wait (event loop running) until it is
// done. True on success; a load or conversion failure, or the time limit, gives false.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/conversion/convert_panel.h"
#include "ui/graph/graph_scene.h"
#include "ui/preview/preview_link.h"

namespace fb::test {

// Waits (event loop running) until the spied signal has fired at least once; false after `ms`.
template <typename Spy>
bool waitForSignal(const Spy& spy, int ms = 60000) {
  QElapsedTimer t;
  t.start();
  while (spy.isEmpty() && t.elapsed() < ms) QTest::qWait(10);
  return !spy.isEmpty();
}

inline bool openAndWait(ui::MainWindow& w, const QString& path, int timeoutMs = 60000) {
  QSignalSpy changed(w.document(), &ui::Document::modelChanged);
  QSignalSpy failed(w.document(), &ui::Document::loadFailed);
  w.openFile(path);
  QElapsedTimer t;
  t.start();
  while (changed.isEmpty() && failed.isEmpty() && t.elapsed() < timeoutMs) QTest::qWait(10);
  return !changed.isEmpty();
}

inline bool previewAndWait(ui::MainWindow& w) {
  QSignalSpy shown(w.conversion()->previewDocument(), &ui::Document::modelChanged);
  QSignalSpy failed(w.conversion()->controller(), &ui::ConversionController::conversionFailed);
  w.conversion()->panel()->previewAction()->trigger();
  QElapsedTimer t;
  t.start();
  while (shown.isEmpty() && failed.isEmpty() && t.elapsed() < 120000) QTest::qWait(10);
  // The selection pairs follow the preview from a worker, its scene a chunk per event-loop turn.
  while (!shown.isEmpty() && (w.conversion()->link()->pairsPending() || w.conversion()->previewScene()->isBuilding()) &&
         t.elapsed() < 120000)
    QTest::qWait(5);
  return !shown.isEmpty() && w.conversion()->previewDocument()->model();
}

}  // namespace fb::test
