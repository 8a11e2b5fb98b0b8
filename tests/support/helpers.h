#pragma once
// Shared helpers for the tests: the corpus, its manifest, a scratch folder, and running the CLI.
#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace fb::test {

QString corpusDir();
QString corpusModel(const QString& file);
// Every *.onnx in the corpus, sorted; fails the calling test (QFAIL-style via qFatal) if there are none.
QStringList corpusModels();
// manifest.json as a map from file name to facts.
QJsonObject manifest();
// A fresh, empty folder under the build tree for one test function.
QString scratchDir(const QString& name);
// Writes `text` to `path` (an edit script, a hand-made input); returns `path`. Stops the test run when it cannot.
QString writeText(const QString& path, const QByteArray& text);

struct CliResult {
  int exitCode = -1;
  QByteArray out;
  QByteArray err;
};
CliResult runCli(const QStringList& args, int timeoutMs = 300000);

}  // namespace fb::test
