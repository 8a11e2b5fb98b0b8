#pragma once
// Runs tests/oracle/run_model.mjs (ONNX Runtime from npm) from a QtTest: same seeded random inputs into a
// reference model and candidates, every output element within 1e-4 + 1e-3 * |reference|.
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace fb::test {

inline QString oracleDir() { return QStringLiteral(FB_SOURCE_DIR "/tests/oracle"); }

// True when `tests/oracle/install.sh` has run; tests fail (not skip) without it.
inline bool oracleInstalled() { return QFileInfo::exists(oracleDir() + "/node_modules/onnxruntime-node/package.json"); }

struct OracleRun {
  bool ran = false;     // node started and printed a JSON report
  QJsonObject report;   // {"ok", "results": [{model, ok, max_abs_err, error}]}
  QString diagnostics;  // stderr / parse problems
  bool ok() const { return ran && report.value("ok").toBool(); }
  // One line per candidate that disagrees with the reference.
  QString failures() const {
    QString out = diagnostics;
    if (report.contains("error")) out += " " + report.value("error").toString();
    for (const auto& r : report.value("results").toArray()) {
      auto o = r.toObject();
      if (!o.value("ok").toBool())
        out += QString("\n  %1: max_abs_err=%2 %3")
                   .arg(o.value("model").toString(), o.value("max_abs_err").toVariant().toString(),
                        o.value("error").toString());
    }
    return out;
  }
};

inline OracleRun runOracle(const QString& reference, const QStringList& candidates, int seed = 1,
                           int timeoutMs = 600000) {
  OracleRun run;
  QProcess p;
  QStringList args{oracleDir() + "/run_model.mjs", "--seed", QString::number(seed), reference};
  args += candidates;
  p.start("node", args);
  if (!p.waitForStarted(30000)) {
    run.diagnostics = "node did not start: " + p.errorString();
    return run;
  }
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    run.diagnostics = "oracle timed out";
    return run;
  }
  QByteArray out = p.readAllStandardOutput();
  run.diagnostics = QString::fromUtf8(p.readAllStandardError()).trimmed();
  QJsonParseError err;
  auto doc = QJsonDocument::fromJson(out.trimmed().split('\n').last(), &err);
  if (err.error != QJsonParseError::NoError || !doc.isObject()) {
    run.diagnostics += " unparsable oracle output: " + QString::fromUtf8(out.left(300));
    return run;
  }
  run.ran = true;
  run.report = doc.object();
  return run;
}

}  // namespace fb::test
