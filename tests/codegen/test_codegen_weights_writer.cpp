// codegen/weights_writer: the PyTorch checkpoint and OneFlow variable folder that go with a generated model.py.
// PyTorch's own torch.load (Debian's python3-torch) is the judge for the checkpoint, with the onnx package reading
// the source initializers as the reference; the OneFlow folder is read back by FlowBridge's format-A reader.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "codegen/weights_writer.h"
#include "formats/oneflow/weight_folder.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {

const QString kSource = QStringLiteral(FB_SOURCE_DIR);

struct PyResult {
  int exitCode = -1;
  QString output;
};

PyResult runPython(const QStringList& args, const QString& pythonPath = {}) {
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  if (!pythonPath.isEmpty()) env.insert("PYTHONPATH", pythonPath);
  p.setProcessEnvironment(env);
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", args);
  PyResult r;
  if (!p.waitForFinished(300000)) {
    p.kill();
    p.waitForFinished();
    r.output = "python timed out";
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
  r.output = QString::fromUtf8(p.readAll());
  return r;
}

// Initializer names as state-dict keys: dotted paths of identifiers (what a generated module would register).
std::string stateKey(const std::string& name) {
  std::string k;
  for (char c : name) k += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') ? c : '_';
  std::string out;
  bool componentStart = true;
  for (char c : k) {
    if (c == '.' && componentStart) out += '_';
    out += c;
    componentStart = c == '.';
  }
  if (componentStart) out += '_';
  return out;
}

std::vector<codegen::NamedTensor> namedInitializers(const ir::Model& m) {
  std::vector<codegen::NamedTensor> v;
  for (const auto& t : m.graph().initializers()) v.push_back({stateKey(t->name), t.get()});
  return v;
}

void writeKeys(const std::vector<codegen::NamedTensor>& tensors, const QString& path) {
  QJsonObject o;  // QJsonObject sorts keys: write the array form and let python keep the order
  QString text = "{";
  for (size_t i = 0; i < tensors.size(); ++i)
    text += QString("%1\"%2\": \"%3\"")
                .arg(i ? ", " : "", QString::fromStdString(tensors[i].key),
                     QString::fromStdString(tensors[i].tensor->name));
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write((text + "}").toUtf8());
}

PyResult checkInTorch(const QString& onnx, const QString& state, const QString& keys, const QStringList& extra = {}) {
  return runPython(QStringList{kSource + "/tests/weights/check_torch_state_dict.py", "--case", onnx, state, keys} +
                   extra);
}

template <typename T>
ir::Tensor makeTensor(const std::string& name, ir::DataType dt, std::vector<int64_t> dims, uint64_t seed) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<T> v(static_cast<size_t>(n));
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& e : v) {  // xorshift: every bit pattern class, including negative and large values
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    std::memcpy(&e, &x, std::min(sizeof(T), sizeof(x)));
  }
  return ir::Tensor::fromValues(name, dt, std::move(dims), v);
}

// One initializer of every dtype the writers support, plus 0-d, empty, many-element and >3-d shapes.
std::unique_ptr<ir::Model> everyDtypeModel() {
  auto m = std::make_unique<ir::Model>();
  m->setOpsetVersion("", 17);
  auto& g = m->graph();
  using D = ir::DataType;
  uint64_t seed = 1;
  std::vector<float> f32(70000);
  for (size_t i = 0; i < f32.size(); ++i) f32[i] = static_cast<float>(i) * 0.25f - 1000.0f;
  g.addInitializer(ir::Tensor::fromValues("big.f32", D::Float, {7, 10, 10, 100}, f32));
  std::vector<double> f64{1.5, -2.25, 1e300, -0.0};
  g.addInitializer(ir::Tensor::fromValues("w.f64", D::Double, {2, 2}, f64));
  std::vector<uint16_t> f16{0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x3555};
  g.addInitializer(ir::Tensor::fromValues("w.f16", D::Float16, {3, 2}, f16));
  std::vector<uint16_t> bf16{0x3f80, 0xc000, 0x7f7f, 0x0001};
  g.addInitializer(ir::Tensor::fromValues("w.bf16", D::BFloat16, {4}, bf16));
  g.addInitializer(makeTensor<int8_t>("w.i8", D::Int8, {5, 3}, seed++));
  g.addInitializer(makeTensor<int16_t>("w.i16", D::Int16, {2, 3, 4}, seed++));
  g.addInitializer(makeTensor<int32_t>("w.i32", D::Int32, {2, 1, 3, 1, 2}, seed++));
  g.addInitializer(makeTensor<int64_t>("w.i64", D::Int64, {9}, seed++));
  g.addInitializer(makeTensor<uint8_t>("w.u8", D::UInt8, {300}, seed++));
  std::vector<uint8_t> b{1, 0, 0, 1, 1};
  g.addInitializer(ir::Tensor::fromValues("w.bool", D::Bool, {5}, b));
  std::vector<float> c64{1, 2, -3, 4};
  g.addInitializer(ir::Tensor::fromValues("w.c64", D::Complex64, {2}, c64));
  std::vector<double> c128{1, -2};
  g.addInitializer(ir::Tensor::fromValues("w.c128", D::Complex128, {1}, c128));
  std::vector<int64_t> scalar{-123456789012345};
  g.addInitializer(ir::Tensor::fromValues("bn.num_batches_tracked", D::Int64, {}, scalar));
  g.addInitializer(ir::Tensor::fromValues("empty", D::Float, {0, 4}, std::vector<float>{}));
  return m;
}

}  // namespace

class WeightsWriter : public QObject {
  Q_OBJECT
 private slots:
  void corpusStateDictsLoadInTorch();
  void everyDtypeLoadsInTorchWithSharedStorage();
  void zip64RecordsLoadInTorch();
  void torchRefusesWhatItCannotHold();
  void oneflowFolderReadsBack();
  void oneflowFoldersLoadInTheStandin();
  void oneflowFolderRefusals();
  void oneflowFolderReplacesOnlyAPreviousSave();
};

void WeightsWriter::corpusStateDictsLoadInTorch() {
  const QString dir = test::scratchDir("weights_writer_corpus");
  QStringList cases{kSource + "/tests/weights/check_torch_state_dict.py"};
  for (const auto& file : test::corpusModels()) {
    auto model = onnxfmt::readOnnxFile(test::corpusModel(file).toStdString());
    auto tensors = namedInitializers(*model);
    if (tensors.empty()) continue;
    const QString state = dir + "/" + file + ".pt", keys = dir + "/" + file + ".json";
    codegen::writeTorchStateDict(tensors, state.toStdString());
    writeKeys(tensors, keys);
    cases << "--case" << test::corpusModel(file) << state << keys;
  }
  QVERIFY(cases.size() >= 1 + 4 * 10);
  auto r = runPython(cases);  // one python for all: importing torch is the slow part
  QVERIFY2(r.exitCode == 0, qPrintable(r.output));
  QCOMPARE(r.output.count("ok: "), (cases.size() - 1) / 4);
}

void WeightsWriter::everyDtypeLoadsInTorchWithSharedStorage() {
  const QString dir = test::scratchDir("weights_writer_dtypes");
  auto model = everyDtypeModel();
  onnxfmt::WriteOptions inline_;
  inline_.externalData = onnxfmt::WriteOptions::ExternalData::Inline;
  onnxfmt::writeOnnxFile(*model, (dir + "/ref.onnx").toStdString(), inline_);
  auto tensors = namedInitializers(*model);
  tensors.push_back({"tied.f64", tensors[1].tensor});  // the same tensor under a second key
  codegen::writeTorchStateDict(tensors, (dir + "/all.pt").toStdString());
  writeKeys(tensors, dir + "/keys.json");
  auto r = checkInTorch(dir + "/ref.onnx", dir + "/all.pt", dir + "/keys.json", {"--shared", "w.f64,tied.f64"});
  QVERIFY2(r.exitCode == 0, qPrintable(r.output));
}

void WeightsWriter::zip64RecordsLoadInTorch() {
  const QString dir = test::scratchDir("weights_writer_zip64");
  auto model = everyDtypeModel();
  onnxfmt::WriteOptions inline_;
  inline_.externalData = onnxfmt::WriteOptions::ExternalData::Inline;
  onnxfmt::writeOnnxFile(*model, (dir + "/ref.onnx").toStdString(), inline_);
  auto tensors = namedInitializers(*model);
  codegen::TorchWriteOptions opts;
  opts.forceZip64 = true;
  codegen::writeTorchStateDict(tensors, (dir + "/zip64.pt").toStdString(), opts);
  writeKeys(tensors, dir + "/keys.json");
  // The records really are zip64 (the end-of-central-directory fields hold 0xFFFF...), and torch reads them.
  std::ifstream in((dir + "/zip64.pt").toStdString(), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  QVERIFY(bytes.find(std::string("PK\x06\x06", 4)) != std::string::npos);
  QVERIFY(bytes.find(std::string("PK\x06\x07", 4)) != std::string::npos);
  auto r = checkInTorch(dir + "/ref.onnx", dir + "/zip64.pt", dir + "/keys.json");
  QVERIFY2(r.exitCode == 0, qPrintable(r.output));
}

void WeightsWriter::torchRefusesWhatItCannotHold() {
  const QString dir = test::scratchDir("weights_writer_torch_refusals");
  const std::string path = (dir + "/out.pt").toStdString();
  auto u16 = ir::Tensor::fromValues("u", ir::DataType::UInt16, {2}, std::vector<uint16_t>{1, 2});
  auto f = ir::Tensor::fromValues("f", ir::DataType::Float, {2}, std::vector<float>{1, 2});
  ir::Tensor shortData = ir::Tensor::fromValues("s", ir::DataType::Float, {3}, std::vector<float>{1, 2});
  struct Case {
    std::vector<codegen::NamedTensor> tensors;
    const char* expected;
  } cases[] = {
      {{{"a", &f}, {"u", &u16}}, "tensor 'u' has dtype uint16, which PyTorch cannot hold"},
      {{{"a", &f}, {"a", &f}}, "duplicate state-dict key 'a'"},
      {{{"s", &shortData}}, "tensor 's' has 8 bytes of data, but its shape and float need 12"},
      {{{"bad\xff", &f}}, "is not UTF-8"},
  };
  for (const auto& c : cases) {
    try {
      codegen::writeTorchStateDict(c.tensors, path);
      QFAIL(c.expected);
    } catch (const OutputError& e) {
      const std::string msg = e.what();
      QVERIFY2(msg.find(path) == 0 && msg.find(c.expected) != std::string::npos, msg.c_str());
    }
    QVERIFY(!fs::exists(path));
    QCOMPARE(std::distance(fs::directory_iterator(dir.toStdString()), fs::directory_iterator{}), 0);
  }
}

void WeightsWriter::oneflowFolderReadsBack() {
  const QString dir = test::scratchDir("weights_writer_oneflow");
  for (const QString file : {"mobilenet_v2_op11.onnx", "transformer_encoder_op17.onnx"}) {
    auto model = onnxfmt::readOnnxFile(test::corpusModel(file).toStdString());
    auto tensors = namedInitializers(*model);
    const std::string out = (dir + "/" + file).toStdString();
    codegen::writeOneflowVariableDir(tensors, out);
    oneflow::WeightFolder folder(out);
    for (const auto& t : tensors) {
      int dt = t.tensor->dtype == ir::DataType::Float ? 2 : t.tensor->dtype == ir::DataType::Int64 ? 6 : -1;
      QVERIFY2(dt > 0, t.key.c_str());
      auto back = folder.load(t.key, t.key, t.tensor->dims, dt);
      auto x = back.bytes(), y = t.tensor->bytes();
      QVERIFY2(x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin()), t.key.c_str());
    }
    size_t entries = std::distance(fs::directory_iterator(out), fs::directory_iterator{});
    QCOMPARE(entries, tensors.size() + 1);  // the variables and snapshot_done, nothing else
  }
  // Every dtype OneFlow can save: meta names its DataType, out holds the bytes.
  auto model = everyDtypeModel();
  std::vector<codegen::NamedTensor> tensors;
  for (const auto& t : namedInitializers(*model))
    if (t.tensor->dtype != ir::DataType::BFloat16) tensors.push_back(t);
  const std::string out = (dir + "/dtypes").toStdString();
  codegen::writeOneflowVariableDir(tensors, out);
  oneflow::WeightFolder folder(out);
  const std::map<ir::DataType, int> oneflowType{
      {ir::DataType::Float, 2},  {ir::DataType::Double, 3},     {ir::DataType::Int8, 4},       {ir::DataType::Int32, 5},
      {ir::DataType::Int64, 6},  {ir::DataType::UInt8, 7},      {ir::DataType::Float16, 9},    {ir::DataType::Bool, 12},
      {ir::DataType::Int16, 17}, {ir::DataType::Complex64, 20}, {ir::DataType::Complex128, 21}};
  for (const auto& t : tensors) {
    auto back = folder.load(t.key, t.key, t.tensor->dims, oneflowType.at(t.tensor->dtype));
    QCOMPARE(back.dtype, t.tensor->dtype);
    auto x = back.bytes(), y = t.tensor->bytes();
    QVERIFY2(x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin()), t.key.c_str());
  }
}

// oneflow.load as OneFlow 0.8-1.0 implement it (the stand-in follows legacy_load) gives the same dict, and
// load_state_dict(strict=True) takes it.
void WeightsWriter::oneflowFoldersLoadInTheStandin() {
  const QString dir = test::scratchDir("weights_writer_oneflow_standin");
  QStringList args{kSource + "/tests/weights/check_oneflow_load.py"};
  for (const auto& file : test::corpusModels()) {
    auto model = onnxfmt::readOnnxFile(test::corpusModel(file).toStdString());
    auto tensors = namedInitializers(*model);
    if (tensors.empty()) continue;
    codegen::writeOneflowVariableDir(tensors, (dir + "/" + file).toStdString());
    writeKeys(tensors, dir + "/" + file + ".json");
    args << "--case" << test::corpusModel(file) << dir + "/" + file << dir + "/" + file + ".json";
  }
  auto model = everyDtypeModel();
  onnxfmt::WriteOptions inline_;
  inline_.externalData = onnxfmt::WriteOptions::ExternalData::Inline;
  onnxfmt::writeOnnxFile(*model, (dir + "/ref.onnx").toStdString(), inline_);
  std::vector<codegen::NamedTensor> tensors;
  for (const auto& t : namedInitializers(*model))
    if (t.tensor->dtype != ir::DataType::BFloat16) tensors.push_back(t);
  codegen::writeOneflowVariableDir(tensors, (dir + "/dtypes").toStdString());
  writeKeys(tensors, dir + "/dtypes.json");
  args << "--case" << dir + "/ref.onnx" << dir + "/dtypes" << dir + "/dtypes.json";

  auto r = runPython(args, kSource + "/tests/oneflow_standin");
  QVERIFY2(r.exitCode == 0, qPrintable(r.output));
  QCOMPARE(r.output.count("ok: "), (args.size() - 1) / 4);
}

void WeightsWriter::oneflowFolderRefusals() {
  const QString dir = test::scratchDir("weights_writer_oneflow_refusals");
  const std::string out = (dir + "/w").toStdString();
  auto f = ir::Tensor::fromValues("f", ir::DataType::Float, {2}, std::vector<float>{1, 2});
  auto bf = ir::Tensor::fromValues("b", ir::DataType::BFloat16, {1}, std::vector<uint16_t>{1});
  struct Case {
    std::vector<codegen::NamedTensor> tensors;
    const char* expected;
  } cases[] = {
      {{{"a", &f}, {"layer/0", &f}}, "'layer/0' cannot be a variable folder name"},
      {{{".", &f}}, "'.' cannot be a variable folder name"},
      {{{"snapshot_done", &f}}, "'snapshot_done' cannot be a variable folder name"},
      {{{"a", &f}, {"a", &f}}, "duplicate state-dict key 'a'"},
      {{{"a", &f}, {"b", &bf}}, "tensor 'b' has dtype bfloat16, which oneflow.save/load cannot hold"},
  };
  for (const auto& c : cases) {
    try {
      codegen::writeOneflowVariableDir(c.tensors, out);
      QFAIL(c.expected);
    } catch (const OutputError& e) {
      const std::string msg = e.what();
      QVERIFY2(msg.find(out) == 0 && msg.find(c.expected) != std::string::npos, msg.c_str());
    }
    QCOMPARE(std::distance(fs::directory_iterator(dir.toStdString()), fs::directory_iterator{}), 0);
  }
}

void WeightsWriter::oneflowFolderReplacesOnlyAPreviousSave() {
  const QString dir = test::scratchDir("weights_writer_oneflow_replace");
  auto f = ir::Tensor::fromValues("f", ir::DataType::Float, {2}, std::vector<float>{1, 2});
  const std::string out = (dir + "/w").toStdString();
  codegen::writeOneflowVariableDir({{"old", &f}}, out);
  codegen::writeOneflowVariableDir({{"new", &f}}, out);
  QVERIFY(fs::exists(out + "/new/out") && !fs::exists(out + "/old"));
  QCOMPARE(std::distance(fs::directory_iterator(dir.toStdString()), fs::directory_iterator{}), 1);

  const std::string other = (dir + "/other").toStdString();
  fs::create_directories(other);
  std::ofstream(other + "/notes.txt") << "keep me";
  try {
    codegen::writeOneflowVariableDir({{"x", &f}}, other);
    QFAIL("replaced a folder that is not a weight folder");
  } catch (const OutputError& e) {
    QVERIFY2(std::string(e.what()).find("is not a OneFlow weight folder") != std::string::npos, e.what());
  }
  QVERIFY(fs::exists(other + "/notes.txt") && !fs::exists(other + "/x"));
  QCOMPARE(std::distance(fs::directory_iterator(dir.toStdString()), fs::directory_iterator{}), 2);
}

QTEST_GUILESS_MAIN(WeightsWriter)
#include "test_codegen_weights_writer.moc"
