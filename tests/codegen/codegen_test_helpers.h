#pragma once
// Small helpers of the code-generation tests that convert with the CLI and run Python checks on the result.
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtDebug>

#include "support/helpers.h"

namespace fb::test {

// Converts `model` with the CLI into DIR/pytorch and DIR/oneflow; returns the folders (empty when one failed).
inline QStringList convertToBothFlavours(const QString& model, const QString& dir) {
  QStringList folders;
  for (const char* flavour : {"pytorch", "oneflow"}) {
    const QString out = dir + "/" + flavour;
    auto convert = runCli({"convert", model, "--to", flavour, "-o", out});
    if (convert.exitCode != 0) {
      qWarning().noquote() << convert.out << convert.err;
      return {};
    }
    folders << out;
  }
  return folders;
}

inline QString readText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Runs /usr/bin/python3 with `args`; true when it exits 0. `report` gets its output.
inline bool runPython(const QStringList& args, QString& report, int timeoutMs = 300000) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", args);
  const bool finished = p.waitForFinished(timeoutMs);
  report = QString::fromUtf8(p.readAll());
  return finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

}  // namespace fb::test
