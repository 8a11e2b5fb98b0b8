// tests/oneflow_standin: the OneFlow stand-in that generated OneFlow code and weights are run against. Its names
// must all exist in OneFlow 0.8, 0.9 and 1.0, cover section 3 of oneflow-python-api.md, and make PyTorch-style
// calls fail where OneFlow would (check_standin.py holds the snippets).
#include <QtTest>

#include "support/helpers.h"

class OneflowStandin : public QObject {
  Q_OBJECT
 private slots:
  void namesAndSignaturesAreOneflows();
};

void OneflowStandin::namesAndSignaturesAreOneflows() {
  const QString src = QStringLiteral(FB_SOURCE_DIR);
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("PYTHONPATH", src + "/tests/oneflow_standin");
  p.setProcessEnvironment(env);
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", {src + "/tests/oneflow_standin/check_standin.py", QStringLiteral(FB_CORPUS_DIR) + "/../docs"});
  QVERIFY(p.waitForFinished(300000));
  const QString out = QString::fromUtf8(p.readAll());
  QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out));
  // The audit really ran over the version table and section 3 (about 170 names exist in all three versions).
  QRegularExpression counts("names exposed: (\\d+); section-3 names in all three versions: (\\d+); failures: 0");
  auto m = counts.match(out);
  QVERIFY2(m.hasMatch(), qPrintable(out));
  QVERIFY(m.captured(1).toInt() >= 300);
  QVERIFY(m.captured(2).toInt() >= 160);
}

QTEST_GUILESS_MAIN(OneflowStandin)
#include "test_codegen_oneflow_standin.moc"
