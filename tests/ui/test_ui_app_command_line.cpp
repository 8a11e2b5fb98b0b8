// The real flowbridge binary's command line: --help and --version need no display, and --screenshot refuses
// to write over a model or any file that is not a picture, and rejects bad --size and --select values with one
// line on stderr and the exit codes the README documents (1 usage, 2 file refused or unreadable). A screenshot
// shows the model's first view, what a user sees on opening it, and neither reads nor changes the user's settings
// (issue 26, point 7).
#include <QtTest>

#include <QCryptographicHash>
#include <QDockWidget>
#include <QProcess>
#include <QSettings>

#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

using namespace fb;

namespace {

QString flowbridgeApp() { return QFileInfo(QStringLiteral(FB_CLI_PATH)).dir().filePath(QStringLiteral("flowbridge")); }

struct Run {
  int exitCode = -1;  // -2 hung, -3 crashed
  QByteArray out, err;
};

// The app's settings folder (XDG_CONFIG_HOME) is in the build folder, never the user's.
QString defaultConfigHome() { return QStringLiteral(FB_TEST_TMP) + QStringLiteral("/app_command_line_config"); }

Run runApp(const QStringList& args, bool withDisplay = true, int timeoutMs = 120000,
           const QString& configHome = defaultConfigHome()) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("XDG_CONFIG_HOME", configHome);
  env.remove("QT_QPA_PLATFORM");
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  if (withDisplay) env.insert("QT_QPA_PLATFORM", "offscreen");
  p.setProcessEnvironment(env);
  p.start(flowbridgeApp(), args);
  Run r;
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.exitCode = -2;
  } else {
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
  }
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

QByteArray digest(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// Exactly one error line, naming `what` (Qt may add its own warnings, such as a missing XDG_RUNTIME_DIR).
bool oneErrorLine(const QByteArray& err, const QString& what) {
  QList<QByteArray> ours;
  for (const QByteArray& line : err.split('\n'))
    if (line.startsWith("flowbridge:")) ours << line;
  return ours.size() == 1 && ours.first().startsWith("flowbridge: error: ") && ours.first().contains(what.toUtf8());
}

// A copy of a corpus model in a scratch folder (the corpus itself is read-only).
QString scratchModel(const QString& dir, const QString& corpusFile, const QString& as) {
  const QString path = dir + "/" + as;
  QFile::copy(test::corpusModel(corpusFile), path);
  return path;
}

// This process's windows read and write their settings in `dir` (an empty one: a first start).
void useSettingsIn(const QString& dir) { QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir); }

// Where the graph view and the left column of panels are in a first start's window of `size` (the layout
// --screenshot uses).
struct WindowRegions {
  QRect graph, leftColumn;
};
WindowRegions regionsAt(QSize size) {
  ui::MainWindow w;
  w.resize(size);
  w.show();
  if (!QTest::qWaitForWindowExposed(&w)) return {};
  QTest::qWait(50);
  auto* find = w.findChild<QDockWidget*>(QStringLiteral("Find"));
  return {QRect(w.view()->mapTo(&w, QPoint(0, 0)), w.view()->size()), find ? find->geometry() : QRect()};
}

// The share of pixels that differ between two pictures of the same size (1 when the sizes differ).
double differingShare(const QImage& a, const QImage& b) {
  if (a.size() != b.size() || a.isNull()) return 1;
  const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
  qint64 differing = 0;
  for (int row = 0; row < x.height(); ++row) {
    const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
    const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
    for (int col = 0; col < x.width(); ++col) differing += p[col] != q[col];
  }
  return double(differing) / (double(x.width()) * x.height());
}

}  // namespace

class AppCommandLine : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { useSettingsIn(test::scratchDir("app_command_line_settings")); }

  void helpAndVersionNeedNoDisplay() {
    const Run help = runApp({"--help"}, false);
    QVERIFY2(help.exitCode == 0, help.err.constData());
    QVERIFY(help.out.contains("--screenshot"));
    QVERIFY(help.out.contains("Exit codes"));
    const Run version = runApp({"--version"}, false);
    QVERIFY2(version.exitCode == 0, version.err.constData());
    QVERIFY(version.out.contains(FLOWBRIDGE_VERSION));
    // A bad option or --size is a usage error, also without a display; Qt's own options are still Qt's.
    Run bad = runApp({"--no-such-option"}, false);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(oneErrorLine(bad.err, "no-such-option"), bad.err.constData());
    bad = runApp({"-platform", "offscreen", "--screenshot", "x.png", "--size", "wide"}, false);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(oneErrorLine(bad.err, "--size wide"), bad.err.constData());
  }

  void screenshotNeverReplacesAModel() {
    const QString dir = test::scratchDir("app_screenshot_refusals");
    const QString model = scratchModel(dir, "super_resolution_op11.onnx", "model.onnx");
    const QByteArray before = digest(model);
    QVERIFY(!before.isEmpty());
    // The picture's name forgotten: the model's name is taken for the output.
    Run r = runApp({"--screenshot", model});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(oneErrorLine(r.err, model), r.err.constData());
    QCOMPARE(digest(model), before);
    // Output and input the same file.
    r = runApp({"--screenshot", model, model});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(oneErrorLine(r.err, "model.onnx"), r.err.constData());
    QCOMPARE(digest(model), before);
    // A model that happens to be named .png, given as both: refused as the input.
    const QString pngModel = scratchModel(dir, "super_resolution_op11.onnx", "model.png");
    const QByteArray pngModelBefore = digest(pngModel);
    r = runApp({"--screenshot", pngModel, pngModel});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(oneErrorLine(r.err, "model.png"), r.err.constData());
    QCOMPARE(digest(pngModel), pngModelBefore);
    // A .png name that holds something else than a picture.
    const QString notPicture = scratchModel(dir, "super_resolution_op11.onnx", "shot.png");
    const QByteArray notPictureBefore = digest(notPicture);
    r = runApp({"--screenshot", notPicture, model});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(oneErrorLine(r.err, "shot.png"), r.err.constData());
    QCOMPARE(digest(notPicture), notPictureBefore);
    // A name without .png or .svg that does not exist yet: refused too, nothing created.
    r = runApp({"--screenshot", dir + "/picture", model});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!QFile::exists(dir + "/picture"));
    QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden).size(), 3);  // no temporary files left either
  }

  void badSizeAndSelectAreErrors() {
    const QString dir = test::scratchDir("app_screenshot_usage");
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    const QString out = dir + "/shot.png";
    for (const QString& size : {QStringLiteral("12x"), QStringLiteral("0x0"), QStringLiteral("big"),
                                QStringLiteral("1200x-5"), QStringLiteral("99999x800")}) {
      const Run r = runApp({"--screenshot", out, "--size", size, model});
      QVERIFY2(r.exitCode == 1, qPrintable(size));
      QVERIFY2(oneErrorLine(r.err, "--size " + size), r.err.constData());
      QVERIFY(!QFile::exists(out));
    }
    Run r = runApp({"--screenshot", out, "--select", "no_such_node", model});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(oneErrorLine(r.err, "no_such_node"), r.err.constData());
    QVERIFY(!QFile::exists(out));
    // --size and --select mean nothing without --screenshot.
    r = runApp({"--size", "800x600", model});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(oneErrorLine(r.err, "--screenshot"), r.err.constData());
  }

  void screenshotWritesPngAndSvgAndReplacesAPicture() {
    const QString dir = test::scratchDir("app_screenshot_ok");
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    const QString png = dir + "/shot.png";
    // A node the model has, by name (the first Conv of squeezenet).
    Run r = runApp({"--screenshot", png, "--size", "900x700", "--select", "/features/features.0/Conv", model});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QImage img(png);
    QCOMPARE(img.size(), QSize(900, 700));
    // Running again replaces the earlier picture.
    const QByteArray first = digest(png);
    r = runApp({"--screenshot", png, "--size", "800x600", model});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(digest(png) != first);
    QCOMPARE(QImage(png).size(), QSize(800, 600));
    const QString svg = dir + "/shot.svg";
    r = runApp({"--screenshot", svg, model});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.size() > 10000);  // the window's widgets and the graph, not an empty page
  }

  // The window a user sees on opening a model (here without saved settings, at a laptop's size) and the
  // screenshot's picture show the same graph: its first view, not the whole graph fitted into a strip.
  void screenshotShowsTheFirstView() {
    const QSize size(1366, 768);
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    ui::MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy rebuilt(w.scene(), &ui::GraphScene::rebuilt);
    QVERIFY(test::openAndWait(w, model));
    QVERIFY(!rebuilt.isEmpty() || rebuilt.wait(30000));
    QTest::qWait(100);
    const QRect graph(w.view()->mapTo(&w, QPoint(0, 0)), w.view()->size());
    const QImage seen = w.grab(graph).toImage();
    // The test tells the two apart: this model's first view is not its fitted whole.
    w.view()->fitAll();
    QVERIFY(differingShare(w.grab(graph).toImage(), seen) > 0.05);

    const QString out = test::scratchDir("app_screenshot_first_view") + "/shot.png";
    const Run r = runApp({"--screenshot", out, "--size", "1366x768", model});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage shot(out);
    QCOMPARE(shot.size(), size);
    const double differing = differingShare(shot.copy(graph), seen);
    QVERIFY2(differing < 0.01, qPrintable(QStringLiteral("%1 % of the graph differs").arg(differing * 100)));
  }

  // Saved settings (panels closed, Open Recent) change neither the picture nor themselves.
  void screenshotNeitherReadsNorChangesTheSettings() {
    const QString dir = test::scratchDir("app_screenshot_settings");
    const QString saved = dir + "/saved", none = dir + "/none";
    QVERIFY(QDir().mkpath(saved) && QDir().mkpath(none));
    // The user's settings, as the app writes them: the left column's panels closed, a list of recent files.
    useSettingsIn(saved);
    QCoreApplication::setOrganizationName(QStringLiteral("FlowBridge"));
    QCoreApplication::setApplicationName(QStringLiteral("FlowBridge"));
    {
      ui::MainWindow w;
      w.resize(1366, 768);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      for (QDockWidget* dock : w.findChildren<QDockWidget*>())
        if (w.dockWidgetArea(dock) == Qt::LeftDockWidgetArea) dock->close();
      w.close();  // saves the layout
    }
    QSettings().setValue(QStringLiteral("recentFiles"), QStringList{QStringLiteral("/elsewhere/recent.onnx")});
    QSettings().sync();
    useSettingsIn(none + "_inprocess");  // this process's windows below: a first start
    const QString conf = saved + "/FlowBridge/FlowBridge.conf";
    const QByteArray before = digest(conf);
    QVERIFY2(!before.isEmpty(), qPrintable(conf));

    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    Run r = runApp({"--screenshot", dir + "/with_saved.png", "--size", "1366x768", model}, true, 120000, saved);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runApp({"--screenshot", dir + "/without.png", "--size", "1366x768", model}, true, 120000, none);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(digest(conf), before);  // Open Recent untouched, no layout written
    QVERIFY(QDir(none).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());  // nothing written at all
    // The same panels and graph in both pictures (the Log strip holds timings, so it is left out).
    const WindowRegions regions = regionsAt(QSize(1366, 768));
    QVERIFY(regions.leftColumn.isValid());
    const QImage withSaved(dir + "/with_saved.png"), without(dir + "/without.png");
    for (const QRect& region : {regions.graph, regions.leftColumn}) {
      const double differing = differingShare(withSaved.copy(region), without.copy(region));
      QVERIFY2(differing < 0.01, qPrintable(QStringLiteral("%1 % differs").arg(differing * 100)));
    }
  }
};

QTEST_MAIN(AppCommandLine)
#include "test_ui_app_command_line.moc"
