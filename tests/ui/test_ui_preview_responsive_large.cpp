// Issue 26, point 1 at full size: Preview conversion of generated graphs of 30k and 100k nodes never stalls the
// event loop for more than 100 ms, from the click until the preview is on screen with its pairs and types (a
// 10 ms timer records the largest gap). Before the change: 150-230 ms at 30k and 300-380 ms at 100k.
#include <QtTest>

#include "preview_stalls.h"

using namespace fb;

class TestUiPreviewResponsiveLarge : public QObject {
  Q_OBJECT

 private slots:
  void largestGapUnder100ms_data() {
    QTest::addColumn<int>("nodes");
    QTest::newRow("30k") << 30000;
    QTest::newRow("100k") << 100000;
  }
  void largestGapUnder100ms() {
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
    QVERIFY2(run.largestGapMs < 100, qPrintable(QString::number(run.largestGapMs)));
  }
};

QTEST_MAIN(TestUiPreviewResponsiveLarge)
#include "test_ui_preview_responsive_large.moc"
