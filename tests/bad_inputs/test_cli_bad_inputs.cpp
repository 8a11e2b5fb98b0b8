// Bad inputs give exit code 2 and one line naming the file and the problem; never a crash, a hang or output.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QRandomGenerator>

#include "support/helpers.h"
#include "support/proto_builders.h"

using namespace fb;

class CliBadInputs : public QObject {
  Q_OBJECT
  QString dir_;

  QString write(const QString& name, const QByteArray& bytes) {
    QString p = dir_ + "/" + name;
    QFile f(p);
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return p;
  }

 private slots:
  void initTestCase() { dir_ = test::scratchDir("bad_inputs"); }

  void rejected_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty file") << write("empty.onnx", {}) << "empty";
    QFile full(test::corpusModel("squeezenet1_0_op11.onnx"));
    full.open(QIODevice::ReadOnly);
    QByteArray bytes = full.readAll();
    QTest::newRow("corpus model cut in half")
        << write("half.onnx", bytes.left(bytes.size() / 2)) << "truncated or corrupt";
    QByteArray noise(64 * 1024, 0);
    QRandomGenerator rng(1234);
    for (auto& c : noise) c = static_cast<char>(rng.bounded(256));
    QTest::newRow("random bytes") << write("noise.onnx", noise) << "not";
    QDir().mkpath(dir_ + "/nested/deeper");
    test::saveProto(test::externalDataModel("../../etc/passwd", 4),
                    (dir_ + "/nested/deeper/escape.onnx").toStdString());
    QTest::newRow("external data ../../etc/passwd") << dir_ + "/nested/deeper/escape.onnx"
                                                    << "outside the model's folder";
    test::saveProto(test::cyclicModel(), (dir_ + "/cycle.onnx").toStdString());
    QTest::newRow("graph with a cycle") << dir_ + "/cycle.onnx"
                                        << "cycle";
    test::saveProto(test::undefinedInputModel(), (dir_ + "/undefined.onnx").toStdString());
    QTest::newRow("input nothing produces") << dir_ + "/undefined.onnx"
                                            << "'ghost'";
    QTest::newRow("missing file") << dir_ + "/does-not-exist.onnx"
                                  << "no such file";
    QTest::newRow("a folder") << dir_ + "/nested"
                              << "folder";
  }

  void rejected() {
    QFETCH(QString, path);
    QFETCH(QString, reason);
    const QStringList before = QDir(dir_).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    auto r = test::runCli({"inspect", "--json", path}, 60000);
    QCOMPARE(r.exitCode, 2);  // not a crash (-3) or a hang (-2)
    QVERIFY(r.out.isEmpty());
    const QString err = QString::fromUtf8(r.err);
    QCOMPARE(err.count('\n'), 1);
    QVERIFY2(err.startsWith("flowbridge-cli: error: " + path + ": "), qPrintable(err));
    QVERIFY2(err.contains(reason), qPrintable(err));
    // Nothing new appears next to the inputs.
    QCOMPARE(QDir(dir_).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
  }
};

QTEST_GUILESS_MAIN(CliBadInputs)
#include "test_cli_bad_inputs.moc"
