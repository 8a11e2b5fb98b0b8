// Weights of the types added after onnx 1.12 (int4, uint4, float8) in generated code: `check --to pytorch/oneflow`
// and `convert` decide alike (they used to disagree: check said convertible, convert then failed to write the int4
// weight with exit 2), the weights are written as their exact widenings (int8, uint8, float32) with a comment in
// model.py saying so, and the code computes what ONNX Runtime computes on the source. A weight no widening holds
// (uint16 in a PyTorch state dict) is refused by both, with the same reason.
#include <QtTest>

#include "codegen/code_generator.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "ir/packed_types.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;
using ir::DataType;

namespace {

ir::Tensor packedTensor(const std::string& name, DataType t, std::vector<int64_t> dims, std::vector<std::byte> raw) {
  ir::Tensor w;
  w.name = name;
  w.dtype = t;
  w.dims = std::move(dims);
  w.setBytes(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()));
  return w;
}

// y_k = x + DequantizeLinear(w_k, scale_k[, zero_point_k]) for each narrow weight kind; x is float [2, 3]. `extra`
// adds a uint16 weight (ONNX has it; a PyTorch state dict does not).
void writeModel(const std::string& path, bool withUInt16) {
  ir::Model m;
  m.setOpsetVersion("", 21);
  m.irVersion = 10;
  ir::Graph& g = m.graph();
  g.name = "narrow_weights";
  ir::Value* x = g.getOrCreateValue("x");
  x->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::of(2), ir::Dim::of(3)});
  g.addInput(x);
  auto scale = [&](const std::string& name, float v) {
    return g.addInitializer(ir::Tensor::fromValues(name, DataType::Float, {}, std::vector<float>{v}));
  };
  auto dequantized = [&](const std::string& out, std::vector<ir::Value*> ins) {
    ir::Value* d = g.getOrCreateValue(out + "_dq");
    g.addNode("DequantizeLinear", ins, {d})->name = "dq_" + out;
    ir::Value* y = g.getOrCreateValue(out);
    y->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::of(2), ir::Dim::of(3)});
    g.addNode("Add", {x, d}, {y})->name = "add_" + out;
    g.addOutput(y);
  };
  // int4: the extremes -8 and 7, an odd count of elements in the zero point's neighbourhood, zero point -1.
  dequantized("y_int4",
              {g.addInitializer(
                   packedTensor("w_int4", ir::kInt4, {2, 3}, ir::packSubByteIntegers(ir::kInt4, {-8, -1, 0, 3, 7, 5}))),
               scale("s_int4", 0.5f),
               g.addInitializer(packedTensor("zp_int4", ir::kInt4, {}, ir::packSubByteIntegers(ir::kInt4, {-1})))});
  dequantized("y_uint4",
              {g.addInitializer(packedTensor("w_uint4", ir::kUInt4, {2, 3},
                                             ir::packSubByteIntegers(ir::kUInt4, {0, 15, 8, 1, 9, 14}))),
               scale("s_uint4", 0.25f),
               g.addInitializer(packedTensor("zp_uint4", ir::kUInt4, {}, ir::packSubByteIntegers(ir::kUInt4, {8})))});
  // float8 e4m3fn: 1, -1, 2, 448 (the largest), 2^-9 (the smallest subnormal), 1.5.
  auto bytes = [](std::initializer_list<int> v) {
    std::vector<std::byte> b;
    for (int c : v) b.push_back(static_cast<std::byte>(c));
    return b;
  };
  dequantized(
      "y_e4m3",
      {g.addInitializer(packedTensor("w_e4m3", ir::kFloat8E4M3FN, {2, 3}, bytes({0x38, 0xB8, 0x40, 0x7E, 0x01, 0x3C}))),
       scale("s_e4m3", 2.0f)});
  // float8 e5m2: 1, -2, 57344 (the largest), 2^-16 (the smallest subnormal), 0.75, -0.
  dequantized(
      "y_e5m2",
      {g.addInitializer(packedTensor("w_e5m2", ir::kFloat8E5M2, {2, 3}, bytes({0x3C, 0xC0, 0x7B, 0x01, 0x3A, 0x80}))),
       scale("s_e5m2", 1.0f)});
  if (withUInt16)
    dequantized("y_uint16", {g.addInitializer(ir::Tensor::fromValues("w_uint16", DataType::UInt16, {2, 3},
                                                                     std::vector<uint16_t>{0, 1, 2, 3, 60000, 65535})),
                             scale("s_uint16", 1.0f)});
  onnxfmt::writeOnnxFile(m, path);
}

QString readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestCodegenNarrowWeights : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void checkAndConvertAgreeAndTheCodeMatchesOnnxRuntime() {
    const QString dir = test::scratchDir("codegen_narrow_weights/writable");
    const QString model = dir + "/narrow.onnx";
    writeModel(model.toStdString(), false);
    QStringList folders;
    for (const char* flavour : {"pytorch", "oneflow"}) {
      auto check = test::runCli({"check", model, "--to", flavour});
      QVERIFY2(check.exitCode == 0, check.out + check.err);
      const QString out = dir + "/" + flavour;
      auto convert = test::runCli({"convert", model, "--to", flavour, "-o", out});
      QVERIFY2(convert.exitCode == 0, convert.out + convert.err);
      const QString py = readFile(out + "/model.py");
      const QString lib = QString(flavour) == "pytorch" ? "PyTorch" : "OneFlow";
      for (const char* said :
           {"int4 in the ONNX model, held exactly as int8", "uint4 in the ONNX model, held exactly as uint8",
            "float8e4m3fn in the ONNX model, held exactly as float",
            "float8e5m2 in the ONNX model, held exactly as float"})
        QVERIFY2(py.contains(said), qPrintable(QString(said) + " missing from\n" + py));
      QVERIFY2(py.contains("(" + lib + " has no int4)"), qPrintable(py));
      folders << out;
    }
    // The stored int8 values of the int4 weight, as the OneFlow folder holds them (raw bytes).
    QFile w(dir + "/oneflow/weights/w_int4/out");
    QVERIFY(w.open(QIODevice::ReadOnly));
    QCOMPARE(w.readAll(), QByteArray::fromHex("f8ff000307"
                                              "05"));
    QVERIFY(readFile(dir + "/oneflow/weights/w_int4/meta").contains("data_type: kInt8"));
    QProcess p;
    p.start("/usr/bin/python3", QStringList{FB_SOURCE_DIR "/tests/codegen/verify_generated.py", "--model", model,
                                            "--work", dir + "/verify"} +
                                    folders);
    QVERIFY(p.waitForFinished(300000));
    const QString report = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(report));
  }

  void unwritableWeightRefusedByBoth() {
    const QString dir = test::scratchDir("codegen_narrow_weights/unwritable");
    const QString model = dir + "/uint16.onnx";
    writeModel(model.toStdString(), true);
    auto check = test::runCli({"check", model, "--to", "pytorch"});
    QCOMPARE(check.exitCode, 3);  // unconverted, as convert says below; not "convertible"
    QVERIFY2(check.out.contains("uint16, which a PyTorch state dict cannot hold"), check.out + check.err);
    auto convert = test::runCli({"convert", model, "--to", "pytorch", "-o", dir + "/out"});
    QCOMPARE(convert.exitCode, 3);
    QVERIFY2((convert.out + convert.err).contains("uint16, which a PyTorch state dict cannot hold"),
             convert.out + convert.err);
    QVERIFY(!QFileInfo::exists(dir + "/out"));
    // OneFlow has uint16 neither.
    QCOMPARE(test::runCli({"check", model, "--to", "oneflow"}).exitCode, 3);
  }
};

QTEST_GUILESS_MAIN(TestCodegenNarrowWeights)
#include "test_codegen_narrow_weights.moc"
