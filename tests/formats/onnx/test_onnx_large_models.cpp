// A model whose weights add up to more than 2 GB: written with external data automatically, read back intact.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>

#include <filesystem>
#include <numeric>

#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "support/helpers.h"
#include "support/proto_builders.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {
constexpr int64_t kElements = int64_t{192} << 20;  // 768 MiB of float per tensor, three tensors: 2.25 GiB
constexpr int kTensors = 3;

// Position-dependent contents, so a misplaced offset or a short copy shows.
uint64_t fingerprint(std::span<const std::byte> b) {
  uint64_t h = 1469598103934665603ull;
  const size_t step = 4093;  // sample every ~4 KB plus the last bytes
  for (size_t i = 0; i < b.size(); i += step) h = (h ^ static_cast<uint64_t>(b[i])) * 1099511628211ull;
  for (size_t i = b.size() > 64 ? b.size() - 64 : 0; i < b.size(); ++i)
    h = (h ^ static_cast<uint64_t>(b[i])) * 1099511628211ull;
  return h;
}
}  // namespace

class OnnxLarge : public QObject {
  Q_OBJECT
 private slots:
  void overTwoGigabytesRoundTrip() {
    const std::string dir = test::scratchDir("large").toStdString();
    const std::string path = dir + "/big.onnx";
    std::vector<uint64_t> prints;
    {
      ir::Model m;
      m.opsets = {{"", 13}};
      m.producerName = "flowbridge-tests";
      ir::Graph& g = m.graph();
      ir::Value* x = g.getOrCreateValue("x");
      x->type = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::of(kElements)});
      g.addInput(x);
      ir::Value* acc = x;
      for (int k = 0; k < kTensors; ++k) {
        std::string bytes(static_cast<size_t>(kElements) * 4, '\0');
        float* f = reinterpret_cast<float*>(bytes.data());
        for (int64_t i = 0; i < kElements; i += 1024) f[i] = static_cast<float>(i % 9973) + k;
        f[kElements - 1] = -1.f - k;
        ir::Tensor t;
        t.name = "w" + std::to_string(k);
        t.dtype = ir::DataType::Float;
        t.dims = {kElements};
        t.setBytes(std::move(bytes));
        prints.push_back(fingerprint(t.bytes()));
        ir::Value* w = g.addInitializer(std::move(t));
        ir::Value* out = g.createUniqueValue("sum" + std::to_string(k));
        g.addNode("Add", {acc, w}, {out});
        acc = out;
      }
      g.addOutput(acc);
      auto res = onnxfmt::writeOnnxFile(m, path);  // Auto: must switch to a side file
      QCOMPARE(res.sideFilePath, path + ".data");
      QVERIFY(res.sideFileBytes >= uint64_t(kTensors) * kElements * 4);
    }
    QVERIFY(fs::file_size(path) < 1 << 20);
    QVERIFY(fs::file_size(path + ".data") > (uint64_t{2} << 30));

    auto back = loadModel(path);
    QCOMPARE(back->graph().initializers().size(), size_t(kTensors));
    for (int k = 0; k < kTensors; ++k) {
      const ir::Tensor* t = back->graph().findValue("w" + std::to_string(k))->initializer();
      QVERIFY(!t->isLoaded());
      auto b = t->bytes();
      QCOMPARE(b.size(), size_t(kElements) * 4);
      QCOMPARE(fingerprint(b), prints[k]);
      float last;
      std::memcpy(&last, b.data() + b.size() - 4, 4);
      QCOMPARE(last, -1.f - k);
    }

    auto r = test::runCli({"inspect", "--json", QString::fromStdString(path)});
    QCOMPARE(r.exitCode, 0);
    auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j.value("parameter_bytes").toDouble(), double(kTensors) * kElements * 4);
    fs::remove_all(dir);
  }

  // A single .onnx file past protobuf's 2 GB limit (weights inline) opens, and is written back split.
  void singleFileOverTwoGigabytes() {
    const std::string dir = test::scratchDir("large_single").toStdString();
    const std::string path = dir + "/inline_big.onnx";
    uint64_t size = test::writeOversizedSingleFileModel(path, kTensors, kElements);
    QCOMPARE(fs::file_size(path), size);
    QVERIFY(size > (uint64_t{2} << 30));
    auto m = loadModel(path);
    QCOMPARE(m->graph().nodeCount(), size_t(kTensors));
    for (int k = 0; k < kTensors; ++k) {
      const ir::Tensor* t = m->graph().findValue("w" + std::to_string(k))->initializer();
      auto b = t->bytes();
      QCOMPARE(b.size(), size_t(kElements) * 4);
      for (int64_t i : {int64_t(0), int64_t(12345), kElements - 1}) {
        float v;
        std::memcpy(&v, b.data() + i * 4, 4);
        QCOMPARE(v, static_cast<float>(i % 9973 + k));
      }
    }
    auto res = onnxfmt::writeOnnxFile(*m, dir + "/split.onnx");
    QVERIFY(!res.sideFilePath.empty());
    auto back = loadModel(dir + "/split.onnx");
    auto b = back->graph().findValue("w2")->initializer()->bytes();
    float v;
    std::memcpy(&v, b.data() + (kElements - 1) * 4, 4);
    QCOMPARE(v, static_cast<float>((kElements - 1) % 9973 + 2));
    fs::remove_all(dir);
  }
};

QTEST_GUILESS_MAIN(OnnxLarge)
#include "test_onnx_large_models.moc"
