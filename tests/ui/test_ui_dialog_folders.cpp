// Issue 26, point 9: dialogs remember the last folder per kind (open, save, report, export), across sessions;
// Save converted... with a code target asks for a folder with a folder chooser.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QPointer>
#include <QSpinBox>
#include <QThreadPool>
#include <QTimer>
#include <functional>

#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/status_table.h"
#include "ui/conversion/target_picker.h"
#include "ui/document.h"
#include "ui/export/scene_export.h"
#include "ui/main_window.h"
#include "ui/save_paths.h"

using namespace fb;
using namespace fb::ui;

namespace {

// Answers the next modal QFileDialog: `answer` sees it (to read its state and pick), then the dialog is accepted.
class DialogAnswerer : public QObject {
 public:
  explicit DialogAnswerer(std::function<void(QFileDialog*)> answer) : answer_(std::move(answer)) {
    timer_.setInterval(10);
    connect(&timer_, &QTimer::timeout, this, [this] {
      auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      if (!dialog || !dialog->isVisible()) return;
      timer_.stop();
      answer_(dialog);
      answered = true;
      QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection);
      // A dialog that does not take the answer (a save dialog given a folder opens it) is closed, not left waiting.
      QPointer<QFileDialog> guard(dialog);
      QTimer::singleShot(500, dialog, [guard] {
        if (guard && guard->isVisible()) guard->reject();
      });
    });
    timer_.start();
  }
  bool answered = false;

 private:
  std::function<void(QFileDialog*)> answer_;
  QTimer timer_;
};

// Records what each save dialog was offered and answers with a path of the test's choosing.
struct FakeDialogs {
  QStringList offered;
  QString answer;
  void install(MainWindow& w) {
    w.setSavePathChooser([this](QWidget*, const QString&, const QString& suggested, const QString&, QString*) {
      offered << suggested;
      return answer;
    });
  }
  QString lastFolderOffered() const { return QFileInfo(offered.value(offered.size() - 1)).absolutePath(); }
};

// Types `path` into the dialog's name field, as a user would (selectFile depends on the folder's listing, which the
// dialog reads in the background).
void typeInto(QFileDialog* d, const QString& path) {
  if (auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
    name->setText(path);
  else
    d->selectFile(path);
}

QAction* openAction(MainWindow& w) {
  for (QAction* a : w.menuBar()->findChildren<QAction*>())
    if (a->shortcut() == QKeySequence(QKeySequence::Open)) return a;
  return nullptr;
}

}  // namespace

class UiDialogFolders : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_dialog_folders");
  }
  void init() { forgetLastFolders(); }
  void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

  // Save converted, Save report and Export image each start where their own kind was last answered, in this
  // session and the next; before any answer, beside the model.
  void saveReportAndExportRememberTheirFolders() {
    const QString dir = test::scratchDir("dialog_folders_kinds");
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    const QString modelFolder = QFileInfo(model).absolutePath();
    for (const char* sub : {"models", "reports", "pictures"}) QVERIFY(QDir(dir).mkpath(sub));
    {
      MainWindow w;
      FakeDialogs dialogs;
      dialogs.install(w);
      QVERIFY(test::openAndWait(w, model));
      w.conversion()->panel()->opsetBox()->setValue(13);
      QVERIFY(test::previewAndWait(w));

      // First time: beside the model.
      QSignalSpy saved(w.conversion()->controller(), &ConversionController::saved);
      dialogs.answer = dir + "/models/first.onnx";
      w.conversion()->panel()->saveAction()->trigger();
      QCOMPARE(dialogs.lastFolderOffered(), modelFolder);
      QVERIFY(test::waitForSignal(saved));
      dialogs.answer = dir + "/reports/first.json";
      w.conversion()->panel()->statusTable()->saveReportAction()->trigger();
      QCOMPARE(dialogs.lastFolderOffered(), modelFolder);
      QVERIFY(QFileInfo::exists(dir + "/reports/first.json"));
      QSignalSpy exported(w.exporter(), &SceneExporter::finished);
      dialogs.answer = dir + "/pictures/first.svg";
      w.exportImageInteractively();
      QCOMPARE(dialogs.lastFolderOffered(), modelFolder);
      QVERIFY(test::waitForSignal(exported));

      // Next time: each where its own kind went.
      dialogs.answer.clear();  // cancelled
      w.conversion()->panel()->saveAction()->trigger();
      QCOMPARE(dialogs.lastFolderOffered(), dir + "/models");
      QVERIFY(dialogs.offered.last().endsWith("/squeezenet1_0_op11_opset13.onnx"));  // the name is still the model's
      w.conversion()->panel()->statusTable()->saveReportAction()->trigger();
      QCOMPARE(dialogs.lastFolderOffered(), dir + "/reports");
      w.exportImageInteractively();
      QCOMPARE(dialogs.lastFolderOffered(), dir + "/pictures");
    }
    // A new session remembers them.
    MainWindow w;
    FakeDialogs dialogs;
    dialogs.install(w);
    QVERIFY(test::openAndWait(w, model));
    w.exportImageInteractively();
    QCOMPARE(dialogs.lastFolderOffered(), dir + "/pictures");
    // A remembered folder that is gone is not offered.
    QVERIFY(QDir(dir + "/pictures").removeRecursively());
    w.exportImageInteractively();
    QCOMPARE(dialogs.lastFolderOffered(), modelFolder);
  }

  // With a code target, Save converted... opens a folder chooser (directories only) where the last save went; the
  // Open dialog keeps its own folder meanwhile.
  void codeSavesUseAFolderChooserAndOpenKeepsItsFolder() {
    const QString dir = test::scratchDir("dialog_folders_code");
    const QString model = test::corpusModel("super_resolution_op11.onnx");
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction* open = openAction(w);
    QVERIFY(open);

    // Open... through the real dialog: the model's folder is picked.
    QString openedIn;
    {
      DialogAnswerer answer([&](QFileDialog* d) {
        openedIn = d->directory().absolutePath();
        typeInto(d, model);
      });
      QSignalSpy changed(w.document(), &Document::modelChanged);
      open->trigger();
      QVERIFY(answer.answered);
      QVERIFY(test::waitForSignal(changed));
    }
    QCOMPARE(QFileInfo(w.document()->path()).canonicalFilePath(), QFileInfo(model).canonicalFilePath());

    // A code target's Save converted...: a folder chooser, answered with a new, empty folder.
    QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
    w.conversion()->panel()->targetPicker()->pick(codegen::Flavour::PyTorch);
    QVERIFY(test::waitForSignal(dry));
    QSignalSpy done(w.conversion()->controller(), &ConversionController::conversionFinished);
    w.conversion()->panel()->previewAction()->trigger();
    QVERIFY(test::waitForSignal(done, 120000));
    const QString out = dir + "/generated";
    QVERIFY(QDir().mkpath(out));
    QFileDialog::FileMode mode = QFileDialog::AnyFile;
    bool dirsOnly = false;
    {
      DialogAnswerer answer([&](QFileDialog* d) {
        mode = d->fileMode();
        dirsOnly = d->testOption(QFileDialog::ShowDirsOnly);
        typeInto(d, out);
      });
      QSignalSpy saved(w.conversion()->controller(), &ConversionController::saved);
      QSignalSpy failed(w.conversion()->controller(), &ConversionController::saveFailed);
      w.conversion()->panel()->saveAction()->trigger();
      QVERIFY(answer.answered);
      QElapsedTimer t;
      t.start();
      while (saved.isEmpty() && failed.isEmpty() && t.elapsed() < 60000) QTest::qWait(10);
    }
    QCOMPARE(mode, QFileDialog::Directory);
    QVERIFY(dirsOnly);
    QVERIFY2(QFileInfo(out + "/model.py").isFile(), qPrintable(out));

    // Open... again: where the last model came from, not where the code went.
    QString reopenedIn;
    {
      DialogAnswerer answer([&](QFileDialog* d) {
        reopenedIn = d->directory().absolutePath();
        typeInto(d, test::corpusModel("squeezenet1_0_op11.onnx"));
      });
      QSignalSpy changed(w.document(), &Document::modelChanged);
      open->trigger();
      QVERIFY(answer.answered);
      QVERIFY(test::waitForSignal(changed));
    }
    QCOMPARE(QFileInfo(reopenedIn).canonicalFilePath(), QFileInfo(model).canonicalPath());
    QCOMPARE(lastFolder(DialogKind::Save), dir);
  }
};

QTEST_MAIN(UiDialogFolders)
#include "test_ui_dialog_folders.moc"
