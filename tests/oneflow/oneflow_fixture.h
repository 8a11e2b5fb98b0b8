#pragma once
// Helpers for the OneFlow tests: fixture folders written by make_fixtures.py, conversion of one fixture at one
// opset, and ONNX Runtime's verdict on the result (ort_compare.mjs).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace fb::test::oneflow {

inline QString fixturesDir() { return QStringLiteral(FB_ONEFLOW_FIXTURES); }
inline QString fixture(const QString& name) { return fixturesDir() + "/" + name; }

inline QJsonObject fixtureInfo(const QString& name) {
  QFile f(fixture(name) + "/fixture.json");
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

// Every fixture folder whose fixture.json has "kind" == kind ("model" or "op").
inline QStringList fixturesOfKind(const QString& kind) {
  QStringList out;
  for (const auto& e : QDir(fixturesDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (fixtureInfo(e).value("kind").toString() == kind) out << e;
  return out;
}

struct OrtVerdict {
  bool ran = false;
  bool ok = false;
  QString detail;  // the JSON line, for failure messages
};

inline OrtVerdict runOrt(const QString& model, const QString& fixtureDir) {
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("FB_ORT_NODE_MODULES", QStringLiteral(FB_ORT_NODE_MODULES));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(FB_NODE), {QStringLiteral(FB_ORT_COMPARE), model, fixtureDir});
  OrtVerdict v;
  if (!p.waitForFinished(300000)) {
    p.kill();
    v.detail = "node timed out";
    return v;
  }
  const QByteArray out = p.readAllStandardOutput().trimmed();
  v.detail = QString::fromUtf8(out.right(1500)) + QString::fromUtf8(p.readAllStandardError().left(500));
  auto doc = QJsonDocument::fromJson(out.split('\n').last());
  if (!doc.isObject()) return v;
  v.ran = true;
  v.ok = doc.object().value("ok").toBool();
  return v;
}

// Runs ONNX Runtime once over many (model, fixture folder) pairs; model path -> verdict.
inline QMap<QString, OrtVerdict> runOrtBatch(const QList<QPair<QString, QString>>& pairs, const QString& listFile) {
  QMap<QString, OrtVerdict> out;
  QFile list(listFile);
  if (!list.open(QIODevice::WriteOnly)) return out;
  for (const auto& [model, dir] : pairs) list.write((model + "\t" + dir + "\n").toUtf8());
  list.close();
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("FB_ORT_NODE_MODULES", QStringLiteral(FB_ORT_NODE_MODULES));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(FB_NODE), {QStringLiteral(FB_ORT_COMPARE), "--batch", listFile});
  if (!p.waitForFinished(900000)) {
    p.kill();
    return out;
  }
  for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
    auto doc = QJsonDocument::fromJson(line);
    if (!doc.isObject()) continue;
    OrtVerdict v;
    v.ran = true;
    v.ok = doc.object().value("ok").toBool();
    v.detail = QString::fromUtf8(line.left(1500));
    out[doc.object().value("model").toString()] = v;
  }
  return out;
}

}  // namespace fb::test::oneflow
