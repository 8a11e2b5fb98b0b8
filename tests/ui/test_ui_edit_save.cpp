// Saving what was edited in the app (issue 28), on corpus models copied into the build folder: the modified mark
// (title "[*]", from the undo stack's clean state, clean again after undoing to the saved state), Save asking
// before it replaces the opened file (No leaves the file's bytes as they were), Save As and Export Edits writing
// atomically (no temporary file left, a folder as the target refused), and the byte identity the issue requires:
// the app's Save after edits equals `flowbridge-cli edit MODEL --script <the app's Export Edits> -o OUT`.
// Closing the window, opening another model or reloading with unsaved edits asks Save / Discard / Cancel: Cancel
// keeps the model and its edits.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include "edit/edit.h"
#include "ir/graph.h"
#include "support/edit_ui.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/document.h"
#include "ui/edit/edit_file_actions.h"
#include "ui/edit/editing.h"
#include "ui/main_window.h"

using namespace fb;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The edits of the byte-identity check: a shape, a symbolic dim, renames, an output, a bypass, the producer.
const std::vector<edit::Edit>& someEdits() {
  static const std::vector<edit::Edit> edits{
      edit::Edit{"set-dim", {}}.set("name", "batch").set("value", "1"),
      edit::Edit{"rename-node", {}}.set("from", "/relu/Relu").set("to", "first relu"),
      edit::Edit{"rename-value", {}}.set("from", "/relu_1/Relu_output_0").set("to", "mid=\"x\""),
      edit::Edit{"add-output", {}}.set("value", "mid=\"x\""),
      edit::Edit{"bypass-node", {}}.set("node", "/relu_2/Relu"),
      edit::Edit{"set-producer", {}}.set("name", "FlowBridge test"),
  };
  return edits;
}

}  // namespace

class EditSaveTest : public QObject {
  Q_OBJECT

  std::unique_ptr<ui::MainWindow> w_;
  QString dir_, model_;
  QList<ui::UnsavedEditsAnswer> unsavedAnswers_;
  int unsavedAsked_ = 0, overwriteAsked_ = 0;
  bool overwriteAnswer_ = false;
  QString savePath_;  // what the save dialog answers ("" cancels)

  ui::Document& doc() { return *w_->document(); }
  ui::EditFileActions& files() { return *w_->editing()->files(); }

  // A fresh window on a copy of the corpus model in a scratch folder, the questions answered here.
  bool open(const QString& test, const QString& file) {
    unsavedAnswers_.clear();
    unsavedAsked_ = overwriteAsked_ = 0;
    overwriteAnswer_ = false;
    savePath_.clear();
    dir_ = test::scratchDir(test);
    model_ = dir_ + "/" + file;
    if (!QFile::copy(test::corpusModel(file), model_)) return false;
    QFile(model_).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    w_ = std::make_unique<ui::MainWindow>(nullptr, ui::MainWindow::Settings::Ignore);
    w_->setSavePathChooser(
        [this](QWidget*, const QString&, const QString&, const QString&, QString*) { return savePath_; });
    files().setUnsavedEditsQuestion([this](QWidget*, const QString&, int) {
      ++unsavedAsked_;
      return unsavedAnswers_.isEmpty() ? ui::UnsavedEditsAnswer::Cancel : unsavedAnswers_.takeFirst();
    });
    files().setOverwriteQuestion([this](QWidget*, const QString&) {
      ++overwriteAsked_;
      return overwriteAnswer_;
    });
    w_->show();
    return test::openAndWait(*w_, model_);
  }

  void applyAll(const std::vector<edit::Edit>& edits) {
    for (const auto& e : edits) {
      QString error;
      QVERIFY2(doc().applyEdit(e, &error), qPrintable(error));
    }
  }

  // Nothing but the expected files in the scratch folder (no temporary file left by a write).
  void checkFolderHolds(const QStringList& names) {
    QStringList present = QDir(dir_).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
    present.sort();
    QStringList expected = names;
    expected.sort();
    QCOMPARE(present, expected);
  }

 private slots:
  void modifiedMark() {
    QVERIFY(open("edit_save_mark", "super_resolution_op13_dyn.onnx"));
    QVERIFY(w_->windowTitle().contains("[*]"));
    QVERIFY(!w_->isWindowModified());
    QVERIFY(!files().saveAction()->isEnabled());
    applyAll({someEdits()[0]});
    QVERIFY(w_->isWindowModified());
    QVERIFY(doc().isModified());
    QVERIFY(files().saveAction()->isEnabled());
    doc().undoStack()->undo();
    QVERIFY(!w_->isWindowModified());
    doc().undoStack()->redo();
    QVERIFY(w_->isWindowModified());
    // Saved (As): clean; one more edit and undoing it is clean again; undoing the saved edit is modified.
    savePath_ = dir_ + "/saved";
    QVERIFY(files().saveAs());
    QVERIFY(!w_->isWindowModified());
    QVERIFY(w_->windowTitle().contains("saved.onnx"));
    applyAll({someEdits()[1]});
    QVERIFY(w_->isWindowModified());
    doc().undoStack()->undo();
    QVERIFY(!w_->isWindowModified());
    doc().undoStack()->undo();
    QVERIFY(w_->isWindowModified());
  }

  void saveAsksBeforeReplacingTheOpenedFile() {
    QVERIFY(open("edit_save_replace", "super_resolution_op13_dyn.onnx"));
    const QByteArray original = readAll(model_);
    applyAll(someEdits());
    // No to the question, then Cancel in Save As: nothing written.
    overwriteAnswer_ = false;
    savePath_.clear();
    QVERIFY(!files().save());
    QCOMPARE(overwriteAsked_, 1);
    QCOMPARE(readAll(model_), original);
    QVERIFY(doc().isModified());
    checkFolderHolds({"super_resolution_op13_dyn.onnx"});
    // Yes: the opened file is replaced (atomically: nothing else left in the folder), and the document is clean.
    overwriteAnswer_ = true;
    QVERIFY(files().save());
    QCOMPARE(overwriteAsked_, 2);
    QVERIFY(readAll(model_) != original);
    QVERIFY(!doc().isModified());
    checkFolderHolds({"super_resolution_op13_dyn.onnx"});
    // The next Save writes there again without asking; the model reads back with the edits.
    applyAll({edit::Edit{"set-producer", {}}.set("version", "2")});
    QVERIFY(files().save());
    QCOMPARE(overwriteAsked_, 2);
    QVERIFY(test::openAndWait(*w_, model_));
    QCOMPARE(doc().model()->producerName, std::string("FlowBridge test"));
    QCOMPARE(doc().model()->producerVersion, std::string("2"));
  }

  // The proof: Save after edits equals the CLI's replay of Export Edits, byte for byte.
  void saveEqualsCliReplayOfExportedEdits_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("undos");
    QTest::newRow("super_resolution, all") << "super_resolution_op13_dyn.onnx" << 0;
    QTest::newRow("super_resolution, two undone") << "super_resolution_op13_dyn.onnx" << 2;
  }
  void saveEqualsCliReplayOfExportedEdits() {
    QFETCH(QString, file);
    QFETCH(int, undos);
    QVERIFY(open(QStringLiteral("edit_save_cli_%1").arg(undos), file));
    applyAll(someEdits());
    for (int i = 0; i < undos; ++i) doc().undoStack()->undo();
    savePath_ = dir_ + "/edits.txt";
    QVERIFY(files().exportEdits());
    const QByteArray script = readAll(savePath_);
    QCOMPARE(script.count('\n') - 1, qsizetype(someEdits().size()) - undos);  // a comment line, then one per edit
    QVERIFY(script.contains("rename-value from=/relu_1/Relu_output_0 to=\"mid=\\\"x\\\"\""));
    savePath_ = dir_ + "/app.onnx";
    QVERIFY(files().saveAs());
    const auto cli = test::runCli({"edit", model_, "--script", dir_ + "/edits.txt", "-o", dir_ + "/cli.onnx"});
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const QByteArray app = readAll(dir_ + "/app.onnx");
    QVERIFY(!app.isEmpty());
    QVERIFY(app == readAll(dir_ + "/cli.onnx"));
    QVERIFY(app != readAll(model_));
    checkFolderHolds({file, "edits.txt", "app.onnx", "cli.onnx"});
  }

  void saveAsRefusesAFolderAndAsksForTheOpenedFile() {
    QVERIFY(open("edit_save_as", "super_resolution_op13_dyn.onnx"));
    const QByteArray original = readAll(model_);
    applyAll({someEdits()[0]});
    QVERIFY(QDir(dir_).mkdir("folder.onnx"));
    savePath_ = dir_ + "/folder.onnx";
    QVERIFY(!files().saveAs());
    QVERIFY(doc().isModified());
    QVERIFY(QFileInfo(dir_ + "/folder.onnx").isDir());
    // Save As naming the opened file asks too; No writes nothing.
    savePath_ = model_;
    overwriteAnswer_ = false;
    QVERIFY(!files().saveAs());
    QCOMPARE(overwriteAsked_, 1);
    QCOMPARE(readAll(model_), original);
    checkFolderHolds({"super_resolution_op13_dyn.onnx"});
  }

  void unsavedEditsQuestion() {
    QVERIFY(open("edit_save_question", "super_resolution_op13_dyn.onnx"));
    // Nothing to ask without edits.
    QVERIFY(test::openAndWait(*w_, model_));
    QCOMPARE(unsavedAsked_, 0);
    applyAll(someEdits());
    const std::string edited = test::modelBytes(*doc().model());
    // Cancel: opening another model, reloading and closing the window leave everything as it is.
    unsavedAnswers_ = {ui::UnsavedEditsAnswer::Cancel, ui::UnsavedEditsAnswer::Cancel, ui::UnsavedEditsAnswer::Cancel};
    w_->openFile(test::corpusModel("squeezenet1_0_op11.onnx"));
    QTest::qWait(100);
    QCOMPARE(unsavedAsked_, 1);
    QVERIFY(!doc().isLoading());
    QCOMPARE(doc().path(), model_);
    QVERIFY(!w_->close());
    QCOMPARE(unsavedAsked_, 2);
    QVERIFY(w_->isVisible());
    QCOMPARE(test::modelBytes(*doc().model()), edited);
    QCOMPARE(doc().undoStack()->count(), int(someEdits().size()));
    // Save: written (through Save As here), then the other model opens.
    unsavedAnswers_ = {ui::UnsavedEditsAnswer::Save};
    savePath_ = dir_ + "/kept.onnx";
    overwriteAnswer_ = false;
    QVERIFY(test::openAndWait(*w_, test::corpusModel("squeezenet1_0_op11.onnx")));
    QCOMPARE(unsavedAsked_, 3);
    QVERIFY(QFileInfo::exists(dir_ + "/kept.onnx"));
    QCOMPARE(doc().undoStack()->count(), 0);
    // Discard: the window closes.
    applyAll({edit::Edit{"set-producer", {}}.set("name", "x")});
    unsavedAnswers_ = {ui::UnsavedEditsAnswer::Discard};
    QVERIFY(w_->close());
    QCOMPARE(unsavedAsked_, 4);
  }

  void cleanup() { w_.reset(); }
};

QTEST_MAIN(EditSaveTest)
#include "test_ui_edit_save.moc"
