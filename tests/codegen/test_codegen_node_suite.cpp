// ONNX's backend node tests (Debian's libonnx-testdata, data/node/) converted to PyTorch and OneFlow code:
// every test whose ops are all handled converts, runs (tests/codegen/run_node_suite.py, one Python process
// per flavour) and must match the expected outputs. The outcome of every test is checked against
// tests/codegen/node_suite_<flavour>.expected, so an improvement updates the file and a regression fails:
//   FB_UPDATE_EXPECTATIONS=1 ./test_codegen_node_suite   rewrites the files from this run.
#include <QtTest>

#include <map>

#include "codegen/code_generator.h"
#include "formats/model_io.h"
#include "support/helpers.h"

using namespace fb;

namespace {

QString nodeTestsDir() {
  QString env = qEnvironmentVariable("FB_ONNX_NODE_TESTS");
  return env.isEmpty() ? QStringLiteral("/usr/share/libonnx-testdata/data/node") : env;
}

QString expectationsFile(codegen::Flavour f) {
  return QStringLiteral(FB_SOURCE_DIR "/tests/codegen/node_suite_") +
         QString::fromLatin1(codegen::flavourName(f).data()) + ".expected";
}

std::map<QString, QString> readExpectations(const QString& path) {
  std::map<QString, QString> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return out;
  while (!f.atEnd()) {
    QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    auto cols = line.split('\t');
    if (cols.size() >= 2) out[cols[0]] = cols[1];
  }
  return out;
}

}  // namespace

class TestCodegenNodeSuite : public QObject {
  Q_OBJECT
 private slots:
  void nodeSuiteOutcomesAreAsExpected_data() {
    QTest::addColumn<int>("flavour");
    QTest::newRow("pytorch") << int(codegen::Flavour::PyTorch);
    QTest::newRow("oneflow") << int(codegen::Flavour::OneFlow);
  }

  void nodeSuiteOutcomesAreAsExpected() {
    QFETCH(int, flavour);
    const auto f = static_cast<codegen::Flavour>(flavour);
    QDir node(nodeTestsDir());
    QVERIFY2(node.exists(), qPrintable(node.path() + " missing: install the Debian package libonnx-testdata"));
    const QStringList tests = node.entryList(QStringList{"test_*"}, QDir::Dirs, QDir::Name);
    QVERIFY(tests.size() > 900);
    const QString work = test::scratchDir(QString("codegen_node_suite/") + codegen::flavourName(f).data());

    std::map<QString, QString> outcome;  // test -> "match" / "mismatch" / "error" / "unsupported:Op" / "unreadable"
    QJsonArray list;
    for (const QString& t : tests) {
      const QString dir = node.filePath(t);
      std::unique_ptr<ir::Model> model;
      try {
        model = loadModel((dir + "/model.onnx").toStdString());
      } catch (const std::exception&) {
        outcome[t] = "unreadable";
        continue;
      }
      codegen::CodegenOptions opts;
      opts.flavour = f;
      auto r = codegen::generatePython(*model, opts);
      if (!r.complete()) {
        QString why = "unsupported";
        for (const auto& n : r.conversion.nodes)
          if (n.status != convert::NodeStatus::Converted) {
            why = (n.status == convert::NodeStatus::Failed ? "failed:" : "unsupported:") +
                  QString::fromStdString(n.opType);
            break;
          }
        outcome[t] = why;
        continue;
      }
      const QString code = work + "/" + t;
      try {
        codegen::writeGeneratedFolder(*r.code, f, code.toStdString());
      } catch (const std::exception& e) {
        outcome[t] = "unwritable";
        continue;
      }
      list.append(QJsonObject{{"test", t}, {"dir", dir}, {"code", code}});
    }
    const QString listFile = work + "/list.json", resultsFile = work + "/results.json";
    {
      QFile lf(listFile);
      QVERIFY(lf.open(QIODevice::WriteOnly));
      lf.write(QJsonDocument(list).toJson());
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/codegen/run_node_suite.py", listFile, resultsFile});
    QVERIFY(p.waitForFinished(1800000));
    QCOMPARE(p.exitCode(), 0);
    QFile rf(resultsFile);
    QVERIFY(rf.open(QIODevice::ReadOnly));
    std::map<QString, QString> details;
    for (const auto& v : QJsonDocument::fromJson(rf.readAll()).array()) {
      auto o = v.toObject();
      outcome[o["test"].toString()] = o["result"].toString();
      details[o["test"].toString()] = o["detail"].toString();
    }

    std::map<QString, int> counts;
    for (const auto& [t, o] : outcome) ++counts[o.section(':', 0, 0)];
    const int generated = static_cast<int>(list.size());
    qInfo().noquote() << QString(
                             "%1 node tests, %2: %3 generated, %4 match, %5 mismatch, %6 error, %7 unsupported, %8 "
                             "failed, %9 unreadable")
                             .arg(tests.size())
                             .arg(codegen::flavourName(f).data())
                             .arg(generated)
                             .arg(counts["match"])
                             .arg(counts["mismatch"])
                             .arg(counts["error"])
                             .arg(counts["unsupported"])
                             .arg(counts["failed"])
                             .arg(counts["unreadable"]);

    const QString expFile = expectationsFile(f);
    if (qEnvironmentVariableIsSet("FB_UPDATE_EXPECTATIONS")) {
      QFile out(expFile);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(
          "# outcome of every ONNX backend node test as generated code (test_codegen_node_suite; "
          "FB_UPDATE_EXPECTATIONS=1 rewrites)\n");
      for (const auto& [t, o] : outcome) out.write((t + "\t" + o + "\n").toUtf8());
      return;
    }
    auto expected = readExpectations(expFile);
    QStringList changes;
    for (const auto& [t, o] : outcome) {
      auto it = expected.find(t);
      QString was = it == expected.end() ? "(none)" : it->second;
      if (was != o) changes << QString("%1: expected %2, got %3 %4").arg(t, was, o, details[t]);
    }
    QVERIFY2(changes.isEmpty(),
             qPrintable(QString::number(changes.size()) + " outcomes changed:\n" + changes.join('\n')));
  }
};

QTEST_GUILESS_MAIN(TestCodegenNodeSuite)
#include "test_codegen_node_suite.moc"
