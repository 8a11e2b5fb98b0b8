#pragma once
// Models the corpus script exports on demand (Debian's torch and torchvision), for tests on models too large to keep
// in the corpus: `make_corpus.py --one NAME OPSET` into one folder of the build tree that every test shares, so
// swin_t is exported once per build folder, not once per test. The export goes into a folder of its own first and is
// renamed into place, so a killed export never leaves a partial model behind for the next run.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>

#include "support/helpers.h"

namespace fb::test {

// The exported model's path, or an empty string with `why` said. `raw`: make_corpus.py's --raw variant (no constant
// folding, BatchNormalization kept).
inline QString corpusExport(const QString& name, const QString& opset, QString& why, int timeoutMs = 600000,
                            bool raw = false) {
  const QString dir = QStringLiteral(FB_TEST_TMP "/corpus_exports");
  const QString fileName = name + "_op" + opset + (raw ? "_raw" : "") + ".onnx";
  const QString file = dir + "/" + fileName;
  if (QFileInfo(file).size() > 0) return file;
  const QString staging = dir + "/.staging_" + name + "_op" + opset + (raw ? "_raw" : "");
  QDir(staging).removeRecursively();
  QDir().mkpath(staging);
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  QStringList args{corpusDir() + QStringLiteral("/make_corpus.py"),
                   QStringLiteral("--out"),
                   staging,
                   QStringLiteral("--one"),
                   name,
                   opset};
  if (raw) args << QStringLiteral("--raw");
  p.start(QStringLiteral("/usr/bin/python3"), args);
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    why = QStringLiteral("make_corpus.py --one %1 %2 timed out").arg(name, opset);
    return {};
  }
  if (p.exitCode() != 0 || !QFileInfo::exists(staging + "/" + fileName)) {
    why = QStringLiteral(
              "make_corpus.py --one %1 %2 failed (python3-torch and python3-torchvision are in "
              "packaging/install-deps.sh): %3")
              .arg(name, opset, QString::fromUtf8(p.readAll().right(400)));
    return {};
  }
  QFile::remove(file);
  if (!QFile::rename(staging + "/" + fileName, file)) {
    why = QStringLiteral("cannot move the export to %1").arg(file);
    return {};
  }
  QDir(staging).removeRecursively();
  return file;
}

}  // namespace fb::test
