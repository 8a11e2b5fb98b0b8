// The app reads models through the same core readers as the CLI (ui/model_loader -> loadModel). A sample of the
// bad-input suite opened the way Document opens a file: an InputError or a model with warnings, never a crash.
#include <QtTest>

#include <QDir>
#include <QProcess>

#include "support/helpers.h"
#include "ui/model_loader.h"
#include "util/error.h"

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
};

QTEST_MAIN(UiBadInputs)
#include "test_ui_bad_inputs.moc"
