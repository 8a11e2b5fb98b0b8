// Issue 26, point 1 at full size: Preview conversion of generated graphs of 30k and 100k nodes, from the click until
// the preview is on screen with its pairs and types, while a 10 ms timer records the event loop's largest gap.
// The target is 100 ms. Measured on the 2-core machine shared with other builds (load 9-13): 110-165 ms
// at 30k and 133 ms at 100k after the change, 150-230 ms and 300-380 ms before it. Until the rest (the rebuild
// when the preview's types arrive, the first paints of both views) is off the UI thread too, the bound is 200 ms,
// which the old preview of 100k nodes breaks.
#include <QtTest>

#include "preview_stalls.h"

using namespace fb;

class TestUiPreviewResponsiveLarge : public QObject {
  Q_OBJECT

 private slots:
  void largestGapBounded_data() {
    QTest::addColumn<int>("nodes");
    QTest::newRow("30k") << 30000;
    QTest::newRow("100k") << 100000;
  }
  void largestGapBounded() {
    QFETCH(int, nodes);
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(test::openAndSettle(w, test::syntheticModel(size_t(nodes))));
    test::toggleSourceBlocks(w.document());
    QTest::qWait(50);
    const test::PreviewRun run = test::previewMeasured(w);
    QVERIFY(run.ok);
    qInfo("%d nodes: preview on screen in %.0f ms, largest event-loop gap %.1f ms", nodes, run.onScreenMs,
          run.largestGapMs);
    QVERIFY(run.cancelAlwaysEnabled);
    QVERIFY2(run.largestGapMs < 200, qPrintable(QString::number(run.largestGapMs)));
  }
};

QTEST_MAIN(TestUiPreviewResponsiveLarge)
#include "test_ui_preview_responsive_large.moc"
