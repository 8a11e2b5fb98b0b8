#pragma once
// Client of tests/oracle/serve.mjs: one ONNX Runtime process for a whole sweep, models run on given inputs.
// Tensors cross as element type number, dims and base64 bytes (strings as a list).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

#include <map>
#include <string>
#include <vector>

#include "ir/tensor.h"
#include "oracle/oracle.h"
#include "support/stdout_lines.h"

namespace fb::test {

struct OracleAnswer {
  bool ok = false;
  QString error;
  std::map<std::string, ir::Tensor> outputs;  // by output name
};

class OracleServer {
 public:
  OracleServer() {
    proc_.setProcessChannelMode(QProcess::SeparateChannels);
    proc_.start("node", {oracleDir() + "/serve.mjs"});
    started_ = proc_.waitForStarted(30000);
  }
  ~OracleServer() {
    proc_.closeWriteChannel();
    if (!proc_.waitForFinished(10000)) proc_.kill();
    proc_.waitForFinished();
  }
  bool started() const { return started_; }

  OracleAnswer run(const QString& modelPath, const std::vector<ir::Tensor>& inputs, int timeoutMs = 120000) {
    OracleAnswer a;
    if (!started_ || proc_.state() != QProcess::Running) {
      a.error = "oracle process is not running: " + QString::fromUtf8(proc_.readAllStandardError()).left(500);
      return a;
    }
    QJsonObject feeds;
    for (const auto& t : inputs) feeds.insert(QString::fromStdString(t.name), encode(t));
    QJsonObject req{{"id", ++lastId_}, {"model", modelPath}, {"inputs", feeds}};
    proc_.write(QJsonDocument(req).toJson(QJsonDocument::Compact) + "\n");
    QByteArray line;
    while (!(line = takeLine()).size()) {
      if (!proc_.waitForReadyRead(timeoutMs)) {
        a.error = "oracle did not answer: " + QString::fromUtf8(proc_.readAllStandardError()).left(500);
        started_ = false;  // the stream is out of step now
        return a;
      }
    }
    auto doc = QJsonDocument::fromJson(line).object();
    a.ok = doc.value("ok").toBool();
    a.error = doc.value("error").toString();
    const auto outs = doc.value("outputs").toObject();
    for (auto it = outs.begin(); it != outs.end(); ++it)
      a.outputs.emplace(it.key().toStdString(), decode(it.key(), it.value().toObject()));
    return a;
  }

 private:
  QByteArray takeLine() { return lines_.take(proc_); }
  static QJsonObject encode(const ir::Tensor& t) {
    QJsonArray dims;
    for (auto d : t.dims) dims.append(static_cast<qint64>(d));
    QJsonObject o{{"type", static_cast<int>(t.dtype)}, {"dims", dims}};
    if (t.dtype == ir::DataType::String) {
      QJsonArray s;
      for (const auto& x : t.strings) s.append(QString::fromStdString(x));
      o.insert("strings", s);
    } else {
      auto b = t.bytes();
      o.insert("b64",
               QString::fromLatin1(
                   QByteArray(reinterpret_cast<const char*>(b.data()), static_cast<qsizetype>(b.size())).toBase64()));
    }
    return o;
  }
  static ir::Tensor decode(const QString& name, const QJsonObject& o) {
    ir::Tensor t;
    t.name = name.toStdString();
    t.dtype = static_cast<ir::DataType>(o.value("type").toInt());
    for (const auto& d : o.value("dims").toArray()) t.dims.push_back(static_cast<int64_t>(d.toDouble()));
    if (t.dtype == ir::DataType::String) {
      for (const auto& s : o.value("strings").toArray()) t.strings.push_back(s.toString().toStdString());
    } else {
      t.setBytes(QByteArray::fromBase64(o.value("b64").toString().toLatin1()).toStdString());
    }
    return t;
  }

  QProcess proc_;
  StdoutLines lines_;
  bool started_ = false;
  int lastId_ = 0;
};

}  // namespace fb::test
