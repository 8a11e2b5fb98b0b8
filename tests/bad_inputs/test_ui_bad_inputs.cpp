// The app reads models through the same core readers as the CLI (ui/model_loader -> loadModel). A sample of the
// bad-input suite opened the way Document opens a file: an InputError or a model with warnings, never a crash.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>

#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "ir/value.h"
#include "support/helpers.h"
#include "ui/document.h"
#include "ui/model_loader.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/tensor_panel.h"
#include "util/error.h"
#include "util/mapped_file.h"

using namespace fb;

class UiBadInputs : public QObject {
  Q_OBJECT
  QString cases_;

 private slots:
  void initTestCase() {
    cases_ = test::scratchDir("ui_bad_inputs") + "/cases";
    QProcess gen;
    gen.start("/usr/bin/python3", {QString(FB_SOURCE_DIR) + "/tests/bad_inputs/make_bad_inputs.py", "--out", cases_,
                                   "--corpus", test::corpusDir()});
    QVERIFY(gen.waitForFinished(300000));
    QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
  }

  void opens_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("readable");
    auto c = [&](const char* name, const QString& file, bool readable) {
      QTest::newRow(name) << cases_ + "/" + name + file << readable;
    };
    c("fifo_model", "/model.onnx", false);
    c("external_symlink_out", "/model.onnx", false);
    c("raw_dims_overflow_mapped", "/model.onnx", false);
    c("nesting_too_deep", "/model.onnx", false);
    c("of_variable_dotdot", "", false);
    c("sm_checkpoint_dir_dotdot", "", false);
    c("of_flow_save_b_out_symlink", "", false);  // format B weights whose `out` links out of the model's folder
    c("of_flow_save_c_symlink", "", false);      // format C weights.of linked in from outside
    c("depth_to_space_huge_blocksize", "/model.onnx", true);
    c("scan_without_body", "/model.onnx", true);
    c("recursive_function", "/model.onnx", true);
    c("sm_concat_axis_2_40", "", true);
    c("sm_transpose_perm_wrong_length", "", true);
  }

  void opens() {
    QFETCH(QString, path);
    QFETCH(bool, readable);
    std::atomic<bool> cancel{false};
    ui::LoadSettings settings;
    try {
      auto loaded = ui::loadForDisplay(path, settings, cancel, [](int, const QString&) {});
      QVERIFY2(readable, "a bad file opened without an error");
      QVERIFY(loaded.model);
    } catch (const InputError& e) {
      QVERIFY2(!readable, e.what());
      QVERIFY(!std::string(e.what()).empty());
    }
  }

  // A model cut short on disk while the app has it open (its weights stay in the map until shown): showing a
  // weight past the new end is an error naming the file in the Tensor panel, not SIGBUS and not zeros shown as
  // values; and the fault does not fail models opened afterwards.
  void truncatedWhileOpen() {
    const QString path = test::scratchDir("ui_truncated_while_open") + "/squeezenet.onnx";
    QFile::remove(path);
    QVERIFY(QFile::copy(test::corpusModel("squeezenet1_0_op11.onnx"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    ui::Document doc;
    ui::TensorPanel panel(&doc);
    QSignalSpy changed(&doc, &ui::Document::modelChanged);
    doc.open(path);
    QVERIFY(changed.wait(120000));
    QVERIFY(doc.model());
    const ir::Value* last = doc.model()->graph().findValue("classifier.1.weight");
    QVERIFY(last && last->initializer());
    QVERIFY2(last->initializer()->storage != ir::Tensor::Storage::External,
             "expected the weight inside the .onnx file");

    const uint64_t faultsBefore = mappedFaultCount();
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.resize(64 * 1024));  // in place: the map now reaches past the end of the file
    f.close();
    doc.selectValue(last);
    const QString error = panel.model()->valueOf("error");
    QVERIFY2(error.contains("truncated or changed") && error.contains("squeezenet.onnx"), qPrintable(error));
    QVERIFY(panel.model()->valueOf("min").isEmpty());
    QVERIFY(mappedFaultCount() > faultsBefore);

    // The fault was this file's: the original model still opens.
    std::atomic<bool> cancel{false};
    auto loaded = ui::loadForDisplay(test::corpusModel("squeezenet1_0_op11.onnx"), ui::LoadSettings{}, cancel,
                                     [](int, const QString&) {});
    QVERIFY(loaded.model);

    // Saving is judged by the model's own files: the damaged one is refused with its name, and a model of another
    // file is still written after the fault (the writer once failed every later save in the process).
    const QString out = test::scratchDir("ui_truncated_while_open") + "/saved.onnx";
    QFile::remove(out);
    try {
      onnxfmt::writeOnnxFile(*doc.model(), out.toStdString());
      QFAIL("the damaged model was written");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromStdString(e.file()).endsWith("squeezenet.onnx"), e.file().c_str());
    }
    QVERIFY(!QFile::exists(out));
    onnxfmt::writeOnnxFile(*loaded.model, out.toStdString());
    QVERIFY(QFileInfo(out).size() > 1000000);
  }
};

QTEST_MAIN(UiBadInputs)
#include "test_ui_bad_inputs.moc"
