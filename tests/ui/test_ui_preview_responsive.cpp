// Issue 26, point 1: Preview never freezes the window. After the conversion, the preview is laid out on a worker
// with the Convert panel's progress bar and Cancel alive until it is on screen; Cancel stops that layout; the
// preview opens with the source's blocks open and collapsed as the user left them; and the event loop keeps
// running throughout (a 10 ms timer records the largest gap). CI size: a 10k-node generated graph, with a bound
// that a freeze breaks but a loaded CI machine does not; test_ui_preview_responsive_large holds 30k and 100k nodes
// to 100 ms.
#include <QtTest>

#include "layout/hierarchical_layout.h"
#include "preview_stalls.h"

using namespace fb;

namespace {
constexpr size_t kNodes = 10000;
// Largest gaps measured on the 2-core machine shared with other builds (load 9-13): 70-170 ms after the change,
// 170-250 ms before it (diff, selection pairs and the whole scene on the UI thread). The bound is what a loaded CI
// machine allows; a freeze of the kind issue 26 reports (seconds) breaks it.
constexpr double kGapBoundMs = 250;
}  // namespace

class TestUiPreviewResponsive : public QObject {
  Q_OBJECT

 private slots:
  void cancelStopsThePreviewLayout() {
    ui::MainWindow w;
    w.show();
    QVERIFY(test::openAndSettle(w, test::syntheticModel(kNodes)));
    ui::ConversionDocks* docks = w.conversion();
    ui::ConvertPanel* panel = docks->panel();
    ui::Document* preview = docks->previewDocument();
    QSignalSpy cancelled(preview, &ui::Document::loadCancelled);
    QSignalSpy shown(preview, &ui::Document::modelChanged);
    // The user clicks Cancel once the conversion is done and its preview is being laid out.
    bool enabledWhenLaidOut = false;
    connect(preview, &ui::Document::loadStarted, this, [&] {
      enabledWhenLaidOut = panel->cancelButton()->isEnabled() && panel->progressBar()->isVisibleTo(panel);
      QMetaObject::invokeMethod(panel->cancelButton(), &QPushButton::click, Qt::QueuedConnection);
    });
    panel->previewAction()->trigger();
    QVERIFY(cancelled.wait(120000));
    QVERIFY(enabledWhenLaidOut);
    QTest::qWait(50);
    QCOMPARE(shown.size(), 0);
    QVERIFY(!preview->model());
    QVERIFY(!docks->previewPane()->isVisible());
    // Nothing runs any more: Cancel and the bar are gone, Preview can start again; the conversion itself is kept.
    QVERIFY(!panel->cancelButton()->isEnabled());
    QVERIFY(!panel->progressBar()->isVisibleTo(panel));
    QVERIFY(panel->previewAction()->isEnabled());
    QVERIFY(docks->controller()->hasConversion());
  }

  void previewKeepsTheWindowResponsiveAndTheSourcesBlocks() {
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(test::openAndSettle(w, test::syntheticModel(kNodes)));
    const test::Toggled toggled = test::toggleSourceBlocks(w.document());
    QVERIFY(!toggled.expanded.empty());
    QVERIFY(!toggled.collapsed.empty());
    QTest::qWait(50);

    const test::PreviewRun run = test::previewMeasured(w);
    QVERIFY(run.ok);
    qInfo("%zu nodes: preview on screen in %.0f ms, largest event-loop gap %.1f ms", kNodes, run.onScreenMs,
          run.largestGapMs);
    // Progress and Cancel stayed while the preview was laid out.
    QVERIFY(run.layoutProgressSeen > 0);
    QVERIFY(run.cancelAlwaysEnabled);
    QVERIFY(run.progressAlwaysShown);
    ui::ConvertPanel* panel = w.conversion()->panel();
    QVERIFY(!panel->cancelButton()->isEnabled());
    QVERIFY(!panel->progressBar()->isVisibleTo(panel));
    QVERIFY2(run.largestGapMs < kGapBoundMs, qPrintable(QString::number(run.largestGapMs)));

    // The preview's blocks are open where the source's are: each block whose path names one block on either side
    // (scopes; groups of consecutive nodes are named by their ops, and such names repeat), the two the user
    // toggled included.
    const auto& src = *w.document()->level(0).layout;
    const auto& prev = *w.conversion()->previewDocument()->level(0).layout;
    std::map<std::string, int> sourceUses, previewUses;
    std::map<std::string, bool> sourceOpen;
    for (int b = 1; b < int(src.tree().blocks.size()); ++b) {
      sourceOpen[src.tree().path(b)] = src.isExpanded(b);
      ++sourceUses[src.tree().path(b)];
    }
    for (int b = 1; b < int(prev.tree().blocks.size()); ++b) ++previewUses[prev.tree().path(b)];
    int matched = 0, expandedSeen = 0, collapsedSeen = 0;
    for (int b = 1; b < int(prev.tree().blocks.size()); ++b) {
      const std::string path = prev.tree().path(b);
      auto it = sourceOpen.find(path);
      if (it == sourceOpen.end() || sourceUses[path] != 1 || previewUses[path] != 1) continue;
      ++matched;
      QVERIFY2(prev.isExpanded(b) == it->second, path.c_str());
      expandedSeen += path == toggled.expanded && prev.isExpanded(b);
      collapsedSeen += path == toggled.collapsed && !prev.isExpanded(b);
    }
    QVERIFY(matched > 10);
    QCOMPARE(expandedSeen, 1);
    QCOMPARE(collapsedSeen, 1);
  }
};

QTEST_MAIN(TestUiPreviewResponsive)
#include "test_ui_preview_responsive.moc"
