// Pictures (issue 12, point 15): Export Image runs off the UI thread with progress and can leave out the selection
// and the conversion marks; `flowbridge --screenshot --graph-only` writes the graph alone, and --select centres the
// picture on the node at 100 %.
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QImage>
#include <QImageReader>
#include <QProcess>
#include <QSpinBox>

#include "support/wait_for_ui.h"
#include "support/helpers.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/graph/status_overlay.h"
#include "ui/document.h"
#include "ui/export/scene_export.h"
#include "ui/graph/graph_scene.h"
#include "ui/main_window.h"
#include "ui/conversion/convert_panel.h"
#include "ui/widgets/log_panel.h"
#include "ui/theme/colors.h"

using namespace fb;
using namespace fb::ui;

namespace {

using fb::test::openAndWait;

// Pixels within `tolerance` of `c` on every channel, in `area` (the whole image when null).
int pixelsNear(const QImage& image, const QColor& c, int tolerance = 12, QRect area = {}) {
  if (area.isNull()) area = image.rect();
  area = area.intersected(image.rect());
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  int n = 0;
  for (int y = area.top(); y <= area.bottom(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    for (int x = area.left(); x <= area.right(); ++x)
      n += std::abs(qRed(line[x]) - c.red()) <= tolerance && std::abs(qGreen(line[x]) - c.green()) <= tolerance &&
           std::abs(qBlue(line[x]) - c.blue()) <= tolerance;
  }
  return n;
}

QImage readPicture(const QString& path) {
  QImageReader reader(path);
  reader.setAllocationLimit(0);
  return reader.read();
}

// The selected node's outline, as the canvas draws it.
QColor selectedOutline() { return itemColors().selected; }
const QColor kConverted = statusColor(convert::NodeStatus::Converted);

QString appPath() { return QFileInfo(QStringLiteral(FB_CLI_PATH)).dir().filePath(QStringLiteral("flowbridge")); }

int runApp(const QStringList& args, QByteArray* err = nullptr) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  p.setProcessEnvironment(env);
  p.start(appPath(), args);
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    return -2;
  }
  if (err) *err = p.readAllStandardError();
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
}

}  // namespace

class UiExportImage : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_export_image");
  }

  void exportRunsOffTheUiThreadAndCanLeaveOutMarks() {
    const QString dir = test::scratchDir("ui_export_image");
    MainWindow w;
    w.show();
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    QVERIFY(openAndWait(w, model));
    QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
    w.conversion()->panel()->opsetBox()->setValue(9);
    QVERIFY(dry.wait(60000));
    QVERIFY(w.conversion()->sourceOverlay()->markedCount() > 0);  // halos on the converted nodes
    const ir::Node* conv = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (!conv && n->opType == "Conv") conv = n.get();
    QVERIFY(conv);
    w.document()->selectNode(conv);

    // Interactive export: returns at once, progress arrives, the file is whole at the end.
    w.setSavePathChooser(
        [&](QWidget*, const QString&, const QString&, const QString&, QString*) { return dir + "/marked.png"; });
    QSignalSpy progress(w.exporter(), &SceneExporter::progress);
    QSignalSpy finished(w.exporter(), &SceneExporter::finished);
    w.exportImageInteractively();
    QVERIFY(w.exporter()->isRunning());  // the UI thread is free while the worker draws and writes
    QVERIFY(finished.wait(120000));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().first().toInt(), 100);
    const QImage marked = readPicture(dir + "/marked.png");
    QVERIFY(!marked.isNull());
    QVERIFY(pixelsNear(marked, selectedOutline()) > 20);
    QVERIFY(pixelsNear(marked, kConverted) > 20);
    QVERIFY(w.logPanel()->toPlainText().contains("Exported " + dir + "/marked.png"));

    // Plain: no selection outline and no halo in the picture; the window keeps both.
    w.plainExportAction()->setChecked(true);
    QVERIFY(w.exportImage(dir + "/plain.png"));
    const QImage plain = readPicture(dir + "/plain.png");
    QCOMPARE(plain.size(), marked.size());
    QCOMPARE(pixelsNear(plain, selectedOutline()), 0);
    QCOMPARE(pixelsNear(plain, kConverted), 0);
    QCOMPARE(w.document()->focusNode(), conv);
    QVERIFY(w.conversion()->sourceOverlay()->markedCount() > 0);
    QVERIFY(w.exportImage(dir + "/plain.svg"));
    QFile svg(dir + "/plain.svg");
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray svgText = svg.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(!svgText.contains("#d62728"));

    // Cancelled right away: nothing is left behind (or, if the worker was quicker, a whole picture).
    QSignalSpy failed(w.exporter(), &SceneExporter::failed);
    finished.clear();
    QVERIFY(w.exporter()->start(dir + "/cancelled.png", {}));
    w.exporter()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty() || !finished.isEmpty(), 60000);
    if (!failed.isEmpty())
      QVERIFY(!QFile::exists(dir + "/cancelled.png"));
    else
      QVERIFY(!readPicture(dir + "/cancelled.png").isNull());
    QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden).filter(".tmp").size(), 0);
    // Never over the model.
    QVERIFY(!w.exportImage(model));
  }

  void screenshotGraphOnlyAndCentredOnTheSelection() {
    const QString dir = test::scratchDir("ui_export_screenshot");
    const QString model = test::corpusModel("mobilenet_v2_op11.onnx");
    QByteArray err;
    QCOMPARE(runApp({"--screenshot", dir + "/window.png", "--size", "1200x800", model}, &err), 0);
    QCOMPARE(runApp({"--screenshot", dir + "/graph.png", "--size", "1200x800", "--graph-only", model}, &err), 0);
    const QImage window = readPicture(dir + "/window.png"), graph = readPicture(dir + "/graph.png");
    QCOMPARE(window.size(), QSize(1200, 800));
    // The graph alone, filling the window: no panels, menus or status bar; only the breadcrumb above it.
    QVERIFY2(graph.width() > 1150 && graph.width() <= 1200, qPrintable(QString::number(graph.width())));
    QVERIFY2(graph.height() > 700 && graph.height() < 800, qPrintable(QString::number(graph.height())));

    // --select: the node is in the middle at 100 %, its outline red around the centre.
    const QString node = "/features/features.16/conv/conv.0/conv.0.0/Conv";
    QCOMPARE(runApp({"--screenshot", dir + "/selected.png", "--graph-only", "--select", node, model}, &err), 0);
    const QImage selected = readPicture(dir + "/selected.png");
    const QRect middle(selected.width() / 2 - 90, selected.height() / 2 - 40, 180, 80);
    QVERIFY2(pixelsNear(selected, selectedOutline(), 12, middle) > 30,
             qPrintable(QString::number(pixelsNear(selected, selectedOutline(), 12, middle))));
    // --graph-only means nothing without --screenshot.
    QCOMPARE(runApp({"--graph-only", model}, &err), 1);
    QVERIFY(err.contains("--graph-only"));
  }
};

QTEST_MAIN(UiExportImage)
#include "test_ui_export_image.moc"
