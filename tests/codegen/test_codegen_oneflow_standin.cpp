// tests/oneflow_standin: the OneFlow stand-in that generated OneFlow code and weights are run against. Its names
// must all exist in OneFlow 0.8, 0.9 and 1.0, cover section 3 of oneflow-python-api.md, and make PyTorch-style
// calls fail where OneFlow would (check_standin.py holds the snippets). Every OneFlow name the code generator
// may emit (codegen::oneflowApiNames) must exist in it, or generated OneFlow code could not be run in the tests.
#include <QtTest>

#include "codegen/flavour.h"
#include "support/helpers.h"

class OneflowStandin : public QObject {
  Q_OBJECT
 private slots:
  void namesAndSignaturesAreOneflows();
};

void OneflowStandin::namesAndSignaturesAreOneflows() {
  const QString src = QStringLiteral(FB_SOURCE_DIR);
  const QString names = fb::test::scratchDir("oneflow_standin") + "/generator_names.txt";
  QFile f(names);
  QVERIFY(f.open(QIODevice::WriteOnly));
  for (const auto& n : fb::codegen::oneflowApiNames()) f.write((n + "\n").c_str());
  f.close();
  // The stand-in checks arguments as the chosen release does (codegen/oneflow_signatures.inc): the oldest and the
  // newest supported one.
  for (const QString& release : {QStringLiteral("0.8"), QStringLiteral("1.0")}) {
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", src + "/tests/oneflow_standin");
    env.insert("ONEFLOW_STANDIN_VERSION", release);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3",
            {src + "/tests/oneflow_standin/check_standin.py", QStringLiteral(FB_SHARED_DOCS), names});
    QVERIFY(p.waitForFinished(300000));
    const QString out = QString::fromUtf8(p.readAll());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out));
    // The audit really ran over the version table and section 3 (about 170 names exist in all three versions).
    QRegularExpression counts("OneFlow " + QRegularExpression::escape(release) +
                              ".0: names exposed: (\\d+); section-3 names in all three versions: (\\d+); failures: 0");
    auto m = counts.match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    QVERIFY(m.captured(1).toInt() >= 300);
    QVERIFY(m.captured(2).toInt() >= 160);
  }
}

QTEST_GUILESS_MAIN(OneflowStandin)
#include "test_codegen_oneflow_standin.moc"
