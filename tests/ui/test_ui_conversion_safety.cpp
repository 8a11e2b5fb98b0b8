// What the desktop app writes is what the user sees: a preview belongs to one model and one set of conversion
// settings, Save is possible only for that preview, an incomplete conversion is written only after an explicit
// Yes, dialogs start beside the model with a derived name, and conversions and saves are in the Log.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QImageReader>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QThreadPool>

#include "support/wait_for_ui.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "support/helpers.h"
#include "support/message_box_answer.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/conversion_summary.h"
#include "ui/document.h"
#include "ui/export/scene_export.h"
#include "ui/graph/graph_scene.h"
#include "ui/main_window.h"
#include "ui/save_paths.h"
#include "ui/conversion/convert_panel.h"
#include "ui/widgets/log_panel.h"

using namespace fb;
using namespace fb::ui;

namespace {

using fb::test::openAndWait;

// Lets every worker finish and delivers what they report.
void settle() {
  QThreadPool::globalInstance()->waitForDone();
  QTest::qWait(20);
  QCoreApplication::processEvents();
}

// Preview at the panel's current settings and wait until the converted graph is on screen.
using fb::test::previewAndWait;

// Records the dialogs' questions and gives the answers a test chooses.
struct FakeDialog {
  QStringList suggestions;
  QString answer;
  QString answerFilter;  // empty: keep the selected one
  ChooseSavePath chooser() {
    return [this](QWidget*, const QString&, const QString& suggested, const QString&, QString* filter) {
      suggestions << suggested;
      if (filter && !answerFilter.isEmpty()) *filter = answerFilter;
      return answer;
    };
  }
};

using test::MessageBoxAnswer;

std::unique_ptr<ir::Model> readBack(const QString& path) { return loadModel(path.toStdString()); }

// The corpus transformer with its first MatMul turned into a GridSample (two inputs, one output): GridSample
// exists from opset 16 and has no exact older form, so converting to 13 leaves it unsupported and the check fails.
QString modelWithUnconvertibleNode(const QString& dir) {
  auto m = loadModel(test::corpusModel("transformer_encoder_op17.onnx").toStdString());
  for (const auto& n : m->graph().nodes())
    if (n->opType == "MatMul") {
      n->opType = "GridSample";
      break;
    }
  const QString path = dir + "/encoder_gridsample.onnx";
  onnxfmt::writeOnnxFile(*m, path.toStdString());
  return path;
}

QString logText(MainWindow& w) { return w.logPanel()->toPlainText(); }

}  // namespace

class UiConversionSafety : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_conversion_safety");
    forgetLastFolders();  // dialogs of earlier runs would move the suggestions checked below
  }

  // Point 1: the saved model is the conversion of the current settings, never an older preview.
  void changingSettingsDropsThePreviewAndDisablesSave() {
    MainWindow w;
    FakeDialog dialog;
    w.setSavePathChooser(dialog.chooser());
    auto* panel = w.conversion()->panel();
    auto* controller = w.conversion()->controller();
    QVERIFY(openAndWait(w, test::corpusModel("mobilenet_v2_op11.onnx")));
    QVERIFY(!panel->saveAction()->isEnabled());
    panel->opsetBox()->setValue(7);
    QVERIFY(previewAndWait(w));
    QCOMPARE(w.conversion()->previewDocument()->model()->opsetVersion(""), int64_t(7));
    QVERIFY(panel->saveAction()->isEnabled());
    QVERIFY(panel->saveButton()->isEnabled());

    // Another target: the opset-7 preview goes and Save is off until the next preview.
    panel->opsetBox()->setValue(11);
    QVERIFY(!panel->saveAction()->isEnabled());
    QVERIFY(!panel->saveButton()->isEnabled());
    QVERIFY(!controller->hasConversion());
    QVERIFY(!w.conversion()->previewDocument()->model());
    QCOMPARE(w.conversion()->previewScene()->nodeItemCount(), 0);
    // Neither the action (a shortcut is disabled with it) nor the controller writes anything.
    const QString dir = test::scratchDir("ui_safety_stale");
    dialog.answer = dir + "/stale.onnx";
    panel->saveAction()->trigger();
    QVERIFY(dialog.suggestions.isEmpty());
    QSignalSpy failed(controller, &ConversionController::saveFailed);
    controller->save(dir + "/stale.onnx", false);
    QCOMPARE(failed.size(), 1);
    settle();
    QVERIFY(!QFile::exists(dir + "/stale.onnx"));

    // Preview again: now Save writes the opset-11 model.
    QVERIFY(previewAndWait(w));
    QSignalSpy saved(controller, &ConversionController::saved);
    panel->saveAction()->trigger();
    QVERIFY(saved.wait(30000));
    QCOMPARE(readBack(dir + "/stale.onnx")->opsetVersion(""), int64_t(11));

    // Changing the passes drops it too.
    QVERIFY(panel->saveAction()->isEnabled());
    panel->findChild<QComboBox*>()->setCurrentIndex(1);  // no passes
    QVERIFY(!panel->saveAction()->isEnabled());
    QVERIFY(!w.conversion()->previewDocument()->model());

    // A conversion still running when the target changes is dropped when it arrives.
    panel->opsetBox()->setValue(7);
    settle();
    QSignalSpy finished(controller, &ConversionController::conversionFinished);
    panel->previewAction()->trigger();
    QVERIFY(controller->isConverting());
    panel->opsetBox()->setValue(9);
    QVERIFY(!controller->isConverting());
    QVERIFY(panel->previewAction()->isEnabled());
    settle();
    QCOMPARE(finished.size(), 0);
    QVERIFY(!controller->hasConversion());
    QVERIFY(!panel->saveAction()->isEnabled());
    QVERIFY(!w.conversion()->previewDocument()->model());
  }

  // Point 3: opening another model takes the old preview and Save away.
  void openingAnotherModelClearsThePreview() {
    MainWindow w;
    w.show();
    auto* panel = w.conversion()->panel();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    panel->opsetBox()->setValue(9);
    QVERIFY(previewAndWait(w));
    QVERIFY(w.conversion()->previewPane()->isVisible());
    QVERIFY(w.conversion()->previewScene()->nodeItemCount() > 0);
    QVERIFY(panel->saveAction()->isEnabled());

    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    settle();
    QVERIFY(!w.conversion()->previewDocument()->model());
    QCOMPARE(w.conversion()->previewScene()->nodeItemCount(), 0);
    QVERIFY(!w.conversion()->previewPane()->isVisible());
    QVERIFY(!panel->saveAction()->isEnabled());
    QVERIFY(!panel->saveButton()->isEnabled());
    QVERIFY(!w.conversion()->controller()->hasConversion());
    // The new model previews and saves as usual.
    panel->opsetBox()->setValue(9);
    QVERIFY(previewAndWait(w));
    QCOMPARE(w.conversion()->previewDocument()->model()->graph().nodeCount(),
             w.conversion()->controller()->convertedModel()->graph().nodeCount());
    QCOMPARE(w.conversion()->previewScene()->nodeItemCount(),
             int(w.conversion()->controller()->convertedModel()->graph().nodeCount()));
  }

  // Point 2: an incomplete conversion is written only after an explicit Yes, and the Log says what was written.
  void incompleteConversionIsSavedOnlyOnYes() {
    const QString dir = test::scratchDir("ui_safety_incomplete");
    const QString model = modelWithUnconvertibleNode(dir);
    MainWindow w;
    w.show();
    FakeDialog dialog;
    w.setSavePathChooser(dialog.chooser());
    auto* panel = w.conversion()->panel();
    auto* controller = w.conversion()->controller();
    QVERIFY(openAndWait(w, model));
    panel->opsetBox()->setValue(13);
    QVERIFY(previewAndWait(w));
    const auto* r = controller->conversion();
    QVERIFY(r);
    QCOMPARE(r->count(convert::NodeStatus::Unsupported), size_t(1));
    QVERIFY(!r->check.ok);
    QVERIFY(!r->complete());
    QVERIFY(panel->saveAction()->isEnabled());

    // The controller alone refuses, as the CLI does without --continue-on-error.
    const QString out = dir + "/encoder_opset13.onnx";
    QSignalSpy failed(controller, &ConversionController::saveFailed);
    controller->save(out, false);
    QCOMPARE(failed.size(), 1);
    QVERIFY(failed.first().first().toString().contains("1 unsupported"));
    settle();
    QVERIFY(!QFile::exists(out));

    // Save asks, with the counts; the default answer (Enter) is No and nothing is written.
    dialog.answer = out;
    MessageBoxAnswer no;
    no.arm("saveIncompleteQuestion", QMessageBox::NoButton);
    panel->saveAction()->trigger();
    QCOMPARE(no.objectName, QString("saveIncompleteQuestion"));
    QVERIFY(no.defaultIsNo);
    QVERIFY2(no.text.contains("1 unsupported and 0 failed"), qPrintable(no.text));
    QVERIFY2(no.text.contains("failed the check"), qPrintable(no.text));
    const QString counts = QString("%1 unchanged, %2 converted, 1 unsupported")
                               .arg(r->count(convert::NodeStatus::Unchanged))
                               .arg(r->count(convert::NodeStatus::Converted));
    QVERIFY2(no.text.contains(counts), qPrintable(no.text));
    settle();
    QVERIFY(!QFile::exists(out));
    QVERIFY(logText(w).contains("Not saved: " + out));

    // Yes writes it, with the unsupported node as it was, and the Log says so.
    MessageBoxAnswer yes;
    yes.arm("saveIncompleteQuestion", QMessageBox::Yes);
    QSignalSpy saved(controller, &ConversionController::saved);
    panel->saveAction()->trigger();
    QCOMPARE(yes.objectName, QString("saveIncompleteQuestion"));
    QVERIFY(saved.wait(30000));
    auto back = readBack(out);
    QCOMPARE(back->opsetVersion(""), int64_t(13));
    QCOMPARE(back->graph().nodeCount(), controller->convertedModel()->graph().nodeCount());
    size_t kept = 0;  // the unsupported node, written as it was
    for (const auto& n : back->graph().nodes()) kept += n->opType == "GridSample";
    QCOMPARE(kept, size_t(1));
    const QString log = logText(w);
    QVERIFY2(log.contains("Saved " + out), qPrintable(log));
    QVERIFY2(log.contains("INCOMPLETE: 1 unsupported and 0 failed"), qPrintable(log));
  }

  // Point 16: shortcuts for Preview and Save, and what they did in the Log.
  void shortcutsAndLog() {
    MainWindow w;
    FakeDialog dialog;
    w.setSavePathChooser(dialog.chooser());
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));  // menu shortcuts need the active window
    const QString model = test::corpusModel("mobilenet_v2_op13_raw.onnx");
    QVERIFY(openAndWait(w, model));
    auto* controller = w.conversion()->controller();
    w.conversion()->panel()->opsetBox()->setValue(9);
    settle();
    // Save has nothing to save yet: its shortcut does nothing.
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(dialog.suggestions.isEmpty());
    QSignalSpy shown(w.conversion()->previewDocument(), &Document::modelChanged);
    QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(shown.wait(120000));
    const auto* r = controller->conversion();
    QVERIFY(r);
    QCOMPARE(r->targetOpset, int64_t(9));
    // The Log line: source, opsets, passes, counts by status, nodes before and after.
    const QString converted =
        QString(
            "Converted mobilenet_v2_op13_raw.onnx (onnx) from opset 13 to 9 with default passes: %1; %2 -> %3 nodes")
            .arg(statusCounts(*r))
            .arg(w.document()->model()->graph().nodeCount())
            .arg(controller->convertedModel()->graph().nodeCount());
    QVERIFY2(logText(w).contains(converted), qPrintable(logText(w)));
    QVERIFY(logText(w).contains("check passed"));

    const QString dir = test::scratchDir("ui_safety_shortcuts");
    dialog.answer = dir + "/m9.onnx";
    QSignalSpy saved(controller, &ConversionController::saved);
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(dialog.suggestions.size(), 1);
    QVERIFY(saved.wait(30000));
    const qint64 bytes = QFileInfo(dir + "/m9.onnx").size();
    QVERIFY(bytes > 0);
    const QString line =
        QString(
            "Saved %1: mobilenet_v2_op13_raw.onnx converted to opset 9 with default passes, %2 nodes (%3); %4 bytes")
            .arg(dir + "/m9.onnx")
            .arg(controller->convertedModel()->graph().nodeCount())
            .arg(statusCounts(*r))
            .arg(bytes);
    QVERIFY2(logText(w).contains(line), qPrintable(logText(w)));
    // A failed save is in the Log too (never over the source).
    dialog.answer = model;
    QSignalSpy failed(controller, &ConversionController::saveFailed);
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(failed.wait(30000));
    QVERIFY(logText(w).contains("Error: cannot save " + model));
  }

  // Point 6: where the dialogs start and what a name without extension becomes.
  void suggestedNamesAndExtensions() {
    const QString model = test::corpusModel("mobilenet_v2_op11.onnx");
    const QString folder = QFileInfo(model).absolutePath();
    QCOMPARE(suggestedConvertedPath(model, 9), folder + "/mobilenet_v2_op11_opset9.onnx");
    QCOMPARE(suggestedConvertedPath(folder + "/net_opset11.onnx", 13), folder + "/net_opset13.onnx");
    QCOMPARE(suggestedExportPath(model, "svg"), folder + "/mobilenet_v2_op11.svg");
    // A OneFlow model is a folder: the file goes beside it.
    const QString dir = test::scratchDir("ui_safety_names");
    QDir().mkpath(dir + "/resnet18_of");
    QCOMPARE(suggestedConvertedPath(dir + "/resnet18_of", 17), dir + "/resnet18_of_opset17.onnx");
    QCOMPARE(suggestedConvertedPath(dir + "/resnet18_of/", 17), dir + "/resnet18_of_opset17.onnx");
    QCOMPARE(withSuffix("/x/out", {"onnx"}, "onnx"), QString("/x/out.onnx"));
    QCOMPARE(withSuffix("/x/out.ONNX", {"onnx"}, "onnx"), QString("/x/out.ONNX"));
    QCOMPARE(withSuffix("/x/v1.2", {"onnx"}, "onnx"), QString("/x/v1.2.onnx"));
    QCOMPARE(withSuffix("/x/pic.png", {"svg", "png"}, "svg"), QString("/x/pic.png"));
    QCOMPARE(suffixOfFilter("PNG (*.png)"), QString("png"));

    // In the app, with no folder remembered from the saves above: the save dialog is offered that name, and a
    // typed name gets .onnx.
    forgetLastFolders();
    MainWindow w;
    FakeDialog dialog;
    w.setSavePathChooser(dialog.chooser());
    QVERIFY(openAndWait(w, model));
    w.conversion()->panel()->opsetBox()->setValue(9);
    QVERIFY(previewAndWait(w));
    dialog.answer = dir + "/converted";
    QSignalSpy saved(w.conversion()->controller(), &ConversionController::saved);
    w.conversion()->panel()->saveAction()->trigger();
    QCOMPARE(dialog.suggestions.value(0), folder + "/mobilenet_v2_op11_opset9.onnx");
    QVERIFY(saved.wait(30000));
    QVERIFY(!QFile::exists(dir + "/converted"));
    QCOMPARE(readBack(dir + "/converted.onnx")->opsetVersion(""), int64_t(9));
    // Export Image: offered <model>.svg beside the model; PNG chosen and no extension typed -> .png.
    dialog.answer = dir + "/picture";
    dialog.answerFilter = "PNG (*.png)";
    QSignalSpy exported(w.exporter(), &SceneExporter::finished);
    w.exportImageInteractively();
    QCOMPARE(dialog.suggestions.value(1), folder + "/mobilenet_v2_op11.svg");
    QVERIFY(exported.wait(60000));  // written off the UI thread
    QVERIFY(!QFile::exists(dir + "/picture"));
    QImageReader picture(dir + "/picture.png");  // a tall graph: more pixels than QImage loads by default
    QCOMPARE(picture.format(), QByteArray("png"));
    QVERIFY(picture.size().height() > 1000);
  }

  // The real file dialog opens in the suggested folder with the suggested name, and adds the filter's suffix.
  void fileDialogStartsAtTheSuggestion() {
    const QString dir = test::scratchDir("ui_safety_dialog");
    QString seenFolder, seenName;
    QTimer::singleShot(0, [&] {
      std::function<void(int)> poll = [&](int tries) {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
          if (tries < 1000) QTimer::singleShot(10, [&poll, tries] { poll(tries + 1); });
          return;
        }
        seenFolder = dialog->directory().absolutePath();
        auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
        seenName = name ? name->text() : QString();
        if (name) name->setText("typed");
        QMetaObject::invokeMethod(dialog, "accept");
      };
      poll(0);
    });
    QString filter = "ONNX models (*.onnx)";
    const QString chosen = fileDialogChooser()(nullptr, "Save", dir + "/net_opset9.onnx", filter, &filter);
    QCOMPARE(seenFolder, dir);
    QCOMPARE(seenName, QString("net_opset9.onnx"));
    QCOMPARE(chosen, dir + "/typed.onnx");
  }
};

QTEST_MAIN(UiConversionSafety)
#include "test_ui_conversion_safety.moc"
