// Issue 12, point 16: the canvas follows the system palette (a dark window colour gives a dark canvas with light
// edges), Help > Keyboard Shortcuts lists every command that has a key (Preview and Save converted included) with
// no key bound twice, and conversions and saves are recorded in the Log panel.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <QPainter>
#include <QSpinBox>
#include <QTableWidget>
#include <QThreadPool>

#include "support/wait_for_ui.h"
#include "support/helpers.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/document.h"
#include "ui/graph/edge_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/main_window.h"
#include "ui/save_paths.h"
#include "ui/theme/canvas_theme.h"
#include "ui/conversion/convert_panel.h"
#include "ui/widgets/log_panel.h"
#include "ui/widgets/shortcuts_dialog.h"

using namespace fb;
using namespace fb::ui;

namespace {

using fb::test::openAndWait;

QPalette paletteWithWindow(const QColor& window, const QColor& text) {
  QPalette p;
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, window);
  p.setColor(QPalette::Text, text);
  return p;
}

// The scene as a picture, at 1:1.
QImage render(GraphScene* scene) {
  const QRectF r = scene->sceneRect();
  QImage image(r.size().toSize(), QImage::Format_ARGB32);
  image.fill(Qt::magenta);
  QPainter p(&image);
  scene->render(&p, QRectF(QPointF(0, 0), r.size()), r);
  return image;
}

// The lightness difference between the canvas and a vertical edge drawn on it with the current theme.
int edgeContrast() {
  QGraphicsScene scene;
  scene.setBackgroundBrush(canvasTheme().background);
  scene.addItem(new EdgeItem(QRectF(0, 0, 20, 20), QRectF(0, 200, 20, 20), QString()));
  const QRectF r(-20, -20, 60, 260);
  QImage image(r.size().toSize(), QImage::Format_ARGB32);
  QPainter p(&image);
  scene.render(&p, QRectF(QPointF(0, 0), r.size()), r);
  p.end();
  const int background = QColor(image.pixel(1, 1)).lightness();
  int most = 0;
  for (int y = 60; y < 200; ++y)  // along the edge's middle, away from the arrow head
    for (int x = 0; x < image.width(); ++x)
      most = std::max(most, std::abs(QColor(image.pixel(x, y)).lightness() - background));
  return most;
}

}  // namespace

class UiThemeShortcuts : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_theme_shortcuts");
  }

  void canvasFollowsTheSystemPalette() {
    const QPalette original = QApplication::palette();
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    QVERIFY(!w.scene()->edgeItems().isEmpty());
    QApplication::setPalette(paletteWithWindow(QColor("#f0f0f0"), Qt::black));
    QVERIFY(!canvasTheme().dark);
    const QImage light = render(w.scene());
    QVERIFY(QColor(light.pixel(2, 2)).lightness() > 200);

    // A dark system palette: the canvas turns dark, and edges stay visible on it.
    QApplication::setPalette(paletteWithWindow(QColor("#2d2d30"), QColor("#e0e0e0")));
    QVERIFY(canvasTheme().dark);
    QVERIFY(QColor(w.scene()->backgroundBrush().color()).lightness() < 60);
    QVERIFY(canvasTheme().edge.lightness() - canvasTheme().background.lightness() > 100);
    const QImage dark = render(w.scene());
    QVERIFY(QColor(dark.pixel(2, 2)).lightness() < 60);
    // An edge drawn on the dark canvas is light; on the light canvas dark.
    QVERIFY(edgeContrast() > 100);
    QApplication::setPalette(paletteWithWindow(QColor("#f0f0f0"), Qt::black));
    QVERIFY(edgeContrast() > 100);
    QApplication::setPalette(paletteWithWindow(QColor("#2d2d30"), QColor("#e0e0e0")));
    // The preview scene follows too.
    QCOMPARE(w.conversion()->previewScene()->backgroundBrush().color(), canvasTheme().background);

    QApplication::setPalette(original);
    QCOMPARE(canvasTheme().dark, original.color(QPalette::Window).lightness() < 128);
  }

  void shortcutsDialogListsEveryCommandWithAKey() {
    MainWindow w;
    w.show();
    const auto entries = shortcutsOf(&w);
    auto keysOf = [&](const QString& where) {
      for (const auto& e : entries)
        if (e.where == where) return e.keys;
      return QKeySequence();
    };
    QCOMPARE(keysOf("Convert > Preview Conversion"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    // In two menus, listed once, at the first.
    QCOMPARE(keysOf("File > Save Converted..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QCOMPARE(keysOf("Convert > Pass Figures and Steps"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    QCOMPARE(keysOf("File > Export Image..."), QKeySequence(Qt::CTRL | Qt::Key_E));
    QCOMPARE(keysOf("Help > Keyboard Shortcuts"), QKeySequence(QKeySequence::HelpContents));
    // Every action with a key, in a menu or not, is listed once.
    QSet<QAction*> listed;
    for (const auto& e : entries) {
      QVERIFY(!listed.contains(e.action));
      listed.insert(e.action);
    }
    for (QAction* a : w.findChildren<QAction*>())
      if (!a->shortcut().isEmpty() && !a->menu()) QVERIFY2(listed.contains(a), qPrintable(a->text()));

    // Help > Keyboard Shortcuts opens the dialog with the same rows, and no key does two things.
    QAction* open = nullptr;
    for (const auto& e : entries)
      if (e.where == "Help > Keyboard Shortcuts") open = e.action;
    QVERIFY(open);
    open->trigger();
    auto* dialog = w.findChild<ShortcutsDialog*>("shortcutsDialog");
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->table()->rowCount(), int(entries.size()));
    QVERIFY2(dialog->conflicts().isEmpty(), qPrintable(dialog->conflicts().join(", ")));
    QList<QString> rows;
    for (int i = 0; i < dialog->table()->rowCount(); ++i) rows << dialog->table()->item(i, 0)->text();
    QVERIFY(rows.contains("Convert > Preview Conversion"));
    QVERIFY(rows.contains("File > Save Converted..."));
    dialog->close();
  }

  // Preview and Save by their keys, and what they did is in the Log.
  void shortcutsConvertAndSaveAndTheLogSaysSo() {
    const QString dir = test::scratchDir("ui_theme_shortcuts_log");
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setSavePathChooser(
        [&](QWidget*, const QString&, const QString&, const QString&, QString*) { return dir + "/out"; });
    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    auto* controller = w.conversion()->controller();
    QSignalSpy dry(controller, &ConversionController::dryRunFinished);
    w.conversion()->panel()->opsetBox()->setValue(9);
    QVERIFY(dry.wait(30000));
    w.activateWindow();
    QSignalSpy finished(controller, &ConversionController::conversionFinished);
    QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(finished.wait(60000));
    QSignalSpy saved(controller, &ConversionController::saved);
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(saved.wait(30000));
    QVERIFY(QFile::exists(dir + "/out.onnx"));
    const QString log = w.logPanel()->toPlainText();
    QVERIFY2(log.contains("Converted super_resolution_op11.onnx (onnx) from opset 11 to 9"), qPrintable(log));
    QVERIFY2(log.contains("Saved " + dir + "/out.onnx: super_resolution_op11.onnx converted to opset 9"),
             qPrintable(log));
  }
};

QTEST_MAIN(UiThemeShortcuts)
#include "test_ui_theme_shortcuts.moc"
