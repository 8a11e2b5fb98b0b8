// External data: written to one side file, read back lazily, equal to the original; unsafe locations refused.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "formats/model_io.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "support/helpers.h"
#include "support/proto_builders.h"
#include "util/error.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {
void writeFloats(const std::string& path, int64_t n, int64_t offset = 0) {
  std::ofstream f(path, std::ios::binary);
  std::string pad(static_cast<size_t>(offset), '\0');
  f.write(pad.data(), static_cast<std::streamsize>(pad.size()));
  for (int64_t i = 0; i < n; ++i) {
    float v = static_cast<float>(i) * 0.5f;
    f.write(reinterpret_cast<const char*>(&v), 4);
  }
}

// Expects loadModel to refuse `path` with a message containing `needle`.
void expectRefused(const std::string& path, const std::string& needle) {
  try {
    loadModel(path);
    QFAIL(("accepted " + path).c_str());
  } catch (const InputError& e) {
    QCOMPARE(e.file(), path);
    QVERIFY2(std::string(e.what()).find(needle) != std::string::npos, e.what());
  }
}
}  // namespace

class OnnxExternalData : public QObject {
  Q_OBJECT
 private slots:
  void corpusModelThroughSideFile_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("mobilenet_v2_op11") << "mobilenet_v2_op11.onnx";
    QTest::newRow("transformer_encoder_op17") << "transformer_encoder_op17.onnx";
    QTest::newRow("control_flow_op13") << "control_flow_op13.onnx";
  }

  void corpusModelThroughSideFile() {
    QFETCH(QString, file);
    const std::string src = test::corpusModel(file).toStdString();
    const std::string dir = test::scratchDir("external_" + file).toStdString();
    const std::string ext = dir + "/model.onnx";
    auto model = onnxfmt::readOnnxFile(src);
    onnxfmt::WriteOptions opts;
    opts.externalData = onnxfmt::WriteOptions::ExternalData::SideFile;
    auto res = onnxfmt::writeOnnxFile(*model, ext, opts);
    QCOMPARE(res.sideFilePath, ext + ".data");
    QVERIFY(fs::exists(ext + ".data"));
    // The weights moved out: the .onnx file is much smaller than the original.
    if (fs::file_size(src) > 1000000) QVERIFY(fs::file_size(ext) * 10 < fs::file_size(src));

    // Read back: tensors are mapped lazily, then equal to the original values.
    auto back = onnxfmt::readOnnxFile(ext);
    size_t external = 0;
    for (const auto& t : back->graph().initializers())
      if (t->storage == ir::Tensor::Storage::External) {
        ++external;
        QVERIFY(!t->isLoaded());
      }
    QVERIFY(external > 0);
    for (const auto& t : model->graph().initializers()) {
      const ir::Tensor* b = back->graph().findValue(t->name)->initializer();
      QVERIFY(b);
      auto x = t->bytes(), y = b->bytes();
      QCOMPARE(x.size(), y.size());
      QVERIFY2(std::equal(x.begin(), x.end(), y.begin()), t->name.c_str());
    }

    // Inline again: field by field equal to the original file.
    const std::string inl = dir + "/inline.onnx";
    onnxfmt::WriteOptions inlineOpts;
    inlineOpts.externalData = onnxfmt::WriteOptions::ExternalData::Inline;
    onnxfmt::writeOnnxFile(*back, inl, inlineOpts);
    onnx::ModelProto a, b;
    onnxfmt::parseOnnxProtoFile(src, a);
    onnxfmt::parseOnnxProtoFile(inl, b);
    std::string report;
    QVERIFY2(test::equivalentModels(a, b, &report), report.substr(0, 2000).c_str());

    // An external-data model written again with external data, elsewhere: the same file, field by field.
    fs::create_directories(dir + "/again");
    const std::string again = dir + "/again/model.onnx";
    onnxfmt::writeOnnxFile(*back, again, opts);
    onnx::ModelProto c, d;
    onnxfmt::parseOnnxProtoFile(ext, c);
    onnxfmt::parseOnnxProtoFile(again, d);
    QVERIFY2(test::equivalentModels(c, d, &report), report.substr(0, 2000).c_str());
  }

  void offsetsAndLengthsAreHonoured() {
    const std::string dir = test::scratchDir("external_offsets").toStdString();
    writeFloats(dir + "/w.bin", 16, 100);
    test::saveProto(test::externalDataModel("w.bin", 16, 100), dir + "/m.onnx");
    auto m = loadModel(dir + "/m.onnx");
    auto vals = m->graph().findValue("w")->initializer()->values<float>();
    QCOMPARE(vals.size(), size_t(16));
    QCOMPARE(vals[0], 0.f);
    QCOMPARE(vals[15], 7.5f);
    // Subfolders inside the model's folder are fine.
    fs::create_directories(dir + "/weights");
    writeFloats(dir + "/weights/w.bin", 16);
    test::saveProto(test::externalDataModel("weights/w.bin", 16), dir + "/sub.onnx");
    QCOMPARE(loadModel(dir + "/sub.onnx")->graph().findValue("w")->initializer()->values<float>()[3], 1.5f);
  }

  void unsafeLocationsAreRefused() {
    const std::string dir = test::scratchDir("external_unsafe").toStdString();
    fs::create_directories(dir + "/a/b");
    test::saveProto(test::externalDataModel("../../etc/passwd", 4), dir + "/a/b/dotdot.onnx");
    expectRefused(dir + "/a/b/dotdot.onnx", "outside the model's folder");
    test::saveProto(test::externalDataModel("/etc/passwd", 4), dir + "/absolute.onnx");
    expectRefused(dir + "/absolute.onnx", "absolute path");
    fs::create_directory_symlink("/etc", dir + "/link");
    test::saveProto(test::externalDataModel("link/passwd", 4), dir + "/symlink.onnx");
    expectRefused(dir + "/symlink.onnx", "resolves outside");
    test::saveProto(test::externalDataModel("missing.bin", 4), dir + "/missing.onnx");
    expectRefused(dir + "/missing.onnx", "does not exist");
    writeFloats(dir + "/short.bin", 2);
    test::saveProto(test::externalDataModel("short.bin", 4), dir + "/short.onnx");
    expectRefused(dir + "/short.onnx", "past the end");
  }

  void writerNeverOverwritesItsSources() {
    const std::string dir = test::scratchDir("external_overwrite").toStdString();
    writeFloats(dir + "/m.onnx.data", 16);
    test::saveProto(test::externalDataModel("m.onnx.data", 16), dir + "/m.onnx");
    auto m = loadModel(dir + "/m.onnx");
    auto before = fs::file_size(dir + "/m.onnx");
    onnxfmt::WriteOptions opts;
    opts.externalData = onnxfmt::WriteOptions::ExternalData::SideFile;
    opts.sideFileThreshold = 0;
    QVERIFY_THROWS_EXCEPTION(OutputError, onnxfmt::writeOnnxFile(*m, dir + "/m.onnx", opts));
    QCOMPARE(fs::file_size(dir + "/m.onnx"), before);
    // Nothing half-written is left in the folder.
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
      ++files;
      QVERIFY2(e.path().filename().string().find(".tmp-") == std::string::npos, e.path().c_str());
    }
    QCOMPARE(files, size_t(2));
  }

  void autoModeSwitchesToSideFileOverTheLimit() {
    const std::string dir = test::scratchDir("external_auto").toStdString();
    auto m = onnxfmt::readOnnxFile(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
    onnxfmt::WriteOptions opts;  // Auto
    auto small = onnxfmt::writeOnnxFile(*m, dir + "/inline.onnx", opts);
    QVERIFY(small.sideFilePath.empty());
    opts.autoLimit = 1 << 20;  // pretend protobuf's limit were 1 MB
    auto big = onnxfmt::writeOnnxFile(*m, dir + "/split.onnx", opts);
    QVERIFY(!big.sideFilePath.empty());
    QVERIFY(big.sideFileBytes > 4000000);
  }
};

QTEST_GUILESS_MAIN(OnnxExternalData)
#include "test_onnx_external_data.moc"
