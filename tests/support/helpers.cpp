#include "support/helpers.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>

namespace fb::test {

QString corpusDir() { return QStringLiteral(FB_CORPUS_DIR); }

QString corpusModel(const QString& file) { return corpusDir() + "/models/" + file; }

QStringList corpusModels() {
  QDir d(corpusDir() + "/models");
  QStringList files = d.entryList({"*.onnx"}, QDir::Files, QDir::Name);
  if (files.isEmpty()) qFatal("no corpus models found in %s", qPrintable(d.absolutePath()));
  return files;
}

QJsonObject manifest() {
  QFile f(corpusDir() + "/manifest.json");
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QJsonDocument::fromJson(f.readAll()).object();
}

QString scratchDir(const QString& name) {
  QDir d(QStringLiteral(FB_TEST_TMP) + "/" + name);
  d.removeRecursively();
  QDir().mkpath(d.absolutePath());
  return d.absolutePath();
}

QString writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(text);
  return path;
}

CliResult runCli(const QStringList& args, int timeoutMs) {
  QProcess p;
  p.start(QStringLiteral(FB_CLI_PATH), args);
  CliResult r;
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.exitCode = -2;  // hung
  } else {
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;  // -3: crashed
  }
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

}  // namespace fb::test
