// The pickle-based oneflow.save layouts (format B folder, format C file) read without executing anything:
// files written by python's own pickle with classes named as OneFlow's (tests/weights/make_flow_save_files.py),
// for pickle protocols 2, 4 and 5, must give the tensors of the same state dict saved as a format A folder (read
// by FlowBridge's existing reader); hostile pickles must be refused with the file and the reason, without
// running their payload; a Job with such weights goes through inspect and convert.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "formats/model_io.h"
#include "formats/oneflow/flow_save_reader.h"
#include "formats/oneflow/weight_folder.h"
#include "oneflow_fixture.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {

const QString kSource = QStringLiteral(FB_SOURCE_DIR);

int oneflowType(ir::DataType t) {
  switch (t) {
    case ir::DataType::Float:
      return 2;
    case ir::DataType::Double:
      return 3;
    case ir::DataType::Int8:
      return 4;
    case ir::DataType::Int32:
      return 5;
    case ir::DataType::Int64:
      return 6;
    case ir::DataType::UInt8:
      return 7;
    case ir::DataType::Float16:
      return 9;
    case ir::DataType::Bool:
      return 12;
    case ir::DataType::Int16:
      return 17;
    case ir::DataType::Complex64:
      return 20;
    default:
      return -1;
  }
}

bool sameBytes(const ir::Tensor& a, const ir::Tensor& b) {
  auto x = a.bytes(), y = b.bytes();
  return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin());
}

QString runPython(const QStringList& args) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", args);
  if (!p.waitForFinished(300000)) return "python timed out";
  const QString out = QString::fromUtf8(p.readAll());
  return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? QString() : out + " (python failed)";
}

}  // namespace

class OneflowFlowSave : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void formatsBAndCGiveTheSavedTensors_data();
  void formatsBAndCGiveTheSavedTensors();
  void standinOneflowLoadReadsTheSameFiles();
  void hostilePicklesAreRefused_data();
  void hostilePicklesAreRefused();
  void jobWithPickledWeightsInspectsAndConverts();

 private:
  QString dir_;
};

void OneflowFlowSave::initTestCase() {
  dir_ = test::scratchDir("oneflow_flow_save");
  const QString err = runPython({kSource + "/tests/weights/make_flow_save_files.py", "--out", dir_ + "/files"});
  QVERIFY2(err.isEmpty(), qPrintable(err));
}

void OneflowFlowSave::formatsBAndCGiveTheSavedTensors_data() {
  QTest::addColumn<QString>("path");
  for (int protocol : {2, 4, 5}) {
    QTest::newRow(qPrintable(QString("C, protocol %1").arg(protocol))) << QString("c_p%1.of").arg(protocol);
    QTest::newRow(qPrintable(QString("B, protocol %1").arg(protocol))) << QString("b_p%1").arg(protocol);
  }
}

void OneflowFlowSave::formatsBAndCGiveTheSavedTensors() {
  QFETCH(QString, path);
  const std::string file = (dir_ + "/files/" + path).toStdString();
  QVERIFY(oneflow::isFlowSaveFile(file) || oneflow::isFlowSaveFolder(file));
  const auto tensors = oneflow::readFlowSave(file);

  std::ifstream keysIn((dir_ + "/files/keys.txt").toStdString());
  std::set<std::string> keys;
  for (std::string k; std::getline(keysIn, k);)
    if (!k.empty()) keys.insert(k);
  std::set<std::string> got;
  for (const auto& [k, t] : tensors) got.insert(k);
  QCOMPARE(got, keys);
  QVERIFY(keys.size() >= 15);

  oneflow::WeightFolder reference((dir_ + "/files/reference_a").toStdString());
  std::set<ir::DataType> dtypes;
  for (const auto& [key, t] : tensors) {
    QVERIFY2(oneflowType(t.dtype) > 0, key.c_str());
    // load() checks the reference's meta against these dims and dtype, then we compare the bytes.
    auto ref = reference.load(key, key, t.dims, oneflowType(t.dtype));
    QVERIFY2(sameBytes(t, ref), key.c_str());
    dtypes.insert(t.dtype);
  }
  QCOMPARE(dtypes.size(), size_t(10));  // float, double, half, int8/16/32/64, uint8, bool, complex64

  // Through WeightFolder, as the Job reader uses it: same lookup, pickled or not.
  oneflow::WeightFolder pickled(file);
  const auto& w = tensors.at("0.weight");
  QVERIFY(sameBytes(pickled.load("m.0.weight", "w", w.dims, 2), w));
}

// The files are what oneflow.load reads: the test stand-in's load (check_point_v2's order and unpickling) agrees.
void OneflowFlowSave::standinOneflowLoadReadsTheSameFiles() {
  const QString files = dir_ + "/files";
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("PYTHONPATH", kSource + "/tests/oneflow_standin");
  p.setProcessEnvironment(env);
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", {"-c", R"(
import sys, oneflow as flow
ref = flow.load(sys.argv[1] + "/reference_a")
for name in ["c_p2.of", "c_p4.of", "c_p5.of", "b_p2", "b_p4", "b_p5"]:
    got = flow.load(sys.argv[1] + "/" + name)
    assert sorted(got) == sorted(ref), name
    for k in ref:
        assert got[k].dtype == ref[k].dtype and got[k].shape == ref[k].shape and flow.equal(got[k], ref[k]), (name, k)
print("same:", len(ref))
)",
                               files});
  QVERIFY(p.waitForFinished(120000));
  const QString out = QString::fromUtf8(p.readAll());
  QVERIFY2(p.exitCode() == 0 && out.contains("same: "), qPrintable(out));
}

void OneflowFlowSave::hostilePicklesAreRefused_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("reason");
  const QList<QPair<QString, QString>> cases{
      {"global_reduce_os_system.of", "global 'os.system' is not allowed"},
      {"stack_global_eval.of", "global 'builtins.eval' is not allowed"},
      {"newobj_popen.of", "global 'subprocess.Popen' is not allowed"},
      {"inst_opcode.of", "opcode 0x69 is not accepted"},
      {"unknown_opcode.of", "opcode 0xff is not accepted"},
      {"binpersid.of", "opcode 0x51 is not accepted"},
      {"huge_binbytes8.of", "runs past the end of the file"},
      {"huge_binunicode.of", "runs past the end of the file"},
      {"huge_frame.of", "FRAME of 4611686018427387904 bytes runs past the end"},
      {"deep_marks.of", "MARKs nested deeper than 100"},
      {"deep_lists.of", "values nested deeper than 100"},
      {"many_values.of", "more than 1048576 values"},
      {"memo_out_of_range.of", "memo reference 5 to nothing"},
      {"long_memo_out_of_range.of", "memo reference 2147483647 to nothing"},
      {"protocol_0.of", "opcode 0x6c is not accepted at offset 1"},
      {"truncated.of", "truncated"},
      {"short_array.of", "the array has 28 bytes of data, but its shape and float need 32"},
      {"b_escape", "path '../reference_a/0.weight' leaves the weight folder"},
      {"b_missing", "no out and meta in its folder"},
  };
  for (const auto& [file, reason] : cases) QTest::newRow(qPrintable(file)) << file << reason;
}

void OneflowFlowSave::hostilePicklesAreRefused() {
  QFETCH(QString, file);
  QFETCH(QString, reason);
  const std::string path = (dir_ + "/files/hostile/" + file).toStdString();
  try {
    oneflow::readFlowSave(path);
    QFAIL("accepted");
  } catch (const InputError& e) {
    const QString msg = QString::fromStdString(e.file() + ": " + e.what());
    QVERIFY2(msg.contains(reason), qPrintable(msg));
    QVERIFY2(QString::fromStdString(e.file()).startsWith(QString::fromStdString(path)), qPrintable(msg));
  }
  QVERIFY(!fs::exists((dir_ + "/files/marker").toStdString()));  // the payload never ran
}

void OneflowFlowSave::jobWithPickledWeightsInspectsAndConverts() {
  namespace of = fb::test::oneflow;
  const QString fixture = of::fixture("small_net");
  QVERIFY2(QFile::exists(fixture + "/job.pb"), "run the oneflow_fixtures test first");
  auto reference = loadModel(fixture.toStdString());

  for (const QString layout : {"c", "b"}) {
    const QString out = dir_ + "/small_net_" + layout;
    QDir().mkpath(out);
    QVERIFY(QFile::copy(fixture + "/job.pb", out + "/job.pb"));
    QStringList args{kSource + "/tests/weights/make_flow_save_files.py", "--from-folder", fixture + "/weights", "--c",
                     out + "/weights.of"};
    if (layout == "b") args << "--b" << out + "/weights";
    const QString err = runPython(args);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    if (layout == "b") QFile::remove(out + "/weights.of");  // the folder must be what is found

    auto model = loadModel(out.toStdString());
    QCOMPARE(model->graph().initializers().size(), reference->graph().initializers().size());
    for (const auto& t : reference->graph().initializers()) {
      const auto* v = model->graph().findValue(t->name);
      QVERIFY2(v && v->initializer() && sameBytes(*v->initializer(), *t), t->name.c_str());
    }
    auto inspect = test::runCli({"inspect", out, "--json"});
    QVERIFY2(inspect.exitCode == 0, inspect.err.constData());
    auto convert = test::runCli({"convert", out, "-o", out + "/model.onnx", "--opset", "13"});
    QVERIFY2(convert.exitCode == 0, convert.err.constData());
    QVERIFY(QFile::exists(out + "/model.onnx"));
  }

  // A hostile weights file next to a valid job: exit code 2, one line naming the file, no output.
  const QString bad = dir_ + "/small_net_hostile";
  QDir().mkpath(bad);
  QVERIFY(QFile::copy(fixture + "/job.pb", bad + "/job.pb"));
  QVERIFY(QFile::copy(dir_ + "/files/hostile/global_reduce_os_system.of", bad + "/weights.of"));
  auto r = test::runCli({"convert", bad, "-o", bad + "/model.onnx"});
  QCOMPARE(r.exitCode, 2);
  QVERIFY2(r.err.trimmed().count('\n') == 0 && r.err.contains("weights.of") && r.err.contains("os.system"),
           r.err.constData());
  QVERIFY(!QFile::exists(bad + "/model.onnx"));
  QVERIFY(!fs::exists((dir_ + "/files/marker").toStdString()));
}

QTEST_GUILESS_MAIN(OneflowFlowSave)
#include "test_oneflow_flow_save.moc"
