// The writer serializes models piece by piece (ModelSerializer) instead of building the whole ModelProto: its
// bytes must be exactly what protobuf writes for exportModel's message, on every corpus model and every model
// of ONNX's node tests, inline and with tensors sent to a side file (which must see the same tensors in the
// same order).
#include <QtTest>

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <filesystem>

#include "formats/model_io.h"
#include "formats/onnx/model_serializer.h"
#include "formats/onnx/onnx_proto_export.h"
#include "support/helpers.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {

struct Written {
  std::string bytes;
  std::vector<std::string> externalized;  // tensor names, in the order the side file got them
};

onnxfmt::ExternalizeFn sideFile(Written& w, bool on) {
  if (!on) return {};
  return [&w](const ir::Tensor& t, ir::ExternalRef& ref) {
    if (t.expectedBytes() < 64) return false;
    ref.entries = {{"location", "side.data"}, {"offset", std::to_string(w.externalized.size() * 64)}};
    w.externalized.push_back(t.name);
    return true;
  };
}

Written viaProto(const ir::Model& m, bool side) {
  Written w;
  onnx::ModelProto p;
  onnxfmt::exportModel(m, p, sideFile(w, side));
  p.SerializeToString(&w.bytes);
  return w;
}

Written viaSerializer(const ir::Model& m, bool side) {
  Written w;
  onnxfmt::ModelSerializer s(m, sideFile(w, side));
  {
    google::protobuf::io::StringOutputStream out(&w.bytes);
    if (!s.writeTo(out)) throw std::runtime_error("write failed");
  }
  if (w.bytes.size() != s.size()) throw std::runtime_error("size() disagrees with the bytes written");
  return w;
}

void compare(const std::string& path, size_t& models) {
  std::unique_ptr<ir::Model> m;
  try {
    m = loadModel(path);
  } catch (const std::exception&) {
    return;  // the node suite has a few models FlowBridge refuses to read; their reading is tested elsewhere
  }
  for (bool side : {false, true}) {
    const Written a = viaProto(*m, side), b = viaSerializer(*m, side);
    QVERIFY2(a.externalized == b.externalized, qPrintable(QString::fromStdString(path)));
    if (a.bytes != b.bytes) {
      size_t at = 0;
      while (at < std::min(a.bytes.size(), b.bytes.size()) && a.bytes[at] == b.bytes[at]) ++at;
      QFAIL(qPrintable(QString::fromStdString(path) + (side ? " (side file)" : "") + ": sizes " +
                       QString::number(a.bytes.size()) + " / " + QString::number(b.bytes.size()) +
                       ", first difference at byte " + QString::number(at)));
    }
  }
  ++models;
}

}  // namespace

class OnnxModelSerializer : public QObject {
  Q_OBJECT
 private slots:
  void corpusModelsSerializeAsProtobufDoes() {
    size_t models = 0;
    for (const QString& f : test::corpusModels()) {
      compare(test::corpusModel(f).toStdString(), models);
      if (QTest::currentTestFailed()) return;
    }
    QVERIFY(models >= 10);
  }

  void nodeTestModelsSerializeAsProtobufDoes() {
    size_t models = 0;
    for (const auto& e : fs::directory_iterator(FB_ONNX_NODE_TESTS_DIR)) {
      const fs::path model = e.path() / "model.onnx";
      if (!fs::exists(model)) continue;
      compare(model.string(), models);
      if (QTest::currentTestFailed()) return;
    }
    qInfo("%zu node-test models", models);
    QVERIFY(models >= 900);
  }
};

QTEST_GUILESS_MAIN(OnnxModelSerializer)
#include "test_onnx_model_serializer.moc"
