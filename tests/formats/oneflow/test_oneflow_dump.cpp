// packaging/oneflow_dump.py end to end: it wraps a module in a graph, compiles it, writes job.pb and the weight
// folders, and FlowBridge reads, converts and runs the result. OneFlow cannot be installed here, so the script
// runs against tests/oneflow/fake_oneflow (OneFlow's nn.Graph API on PyTorch and the fixture recorder); the
// model is the small_net fixture's network, so the dump must equal that fixture op for op and byte for byte.
// The weights go to one file in OneFlow 1.0's oneflow.save layout by default, or to per-variable folders.
#include <QtTest>

#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "oneflow_fixture.h"
#include "support/helpers.h"

using namespace fb;
namespace of = fb::test::oneflow;

class OneflowDump : public QObject {
  Q_OBJECT
 private slots:
  void dumpReadsConvertsAndRuns();
  void folderLayoutOnRequest();
};

namespace {
// Runs oneflow_dump.py on the small_net network into `out`; "" when it worked, else its stderr.
QString runDump(const QString& out, const QStringList& extra = {}) {
  const QString src = QStringLiteral(FB_SOURCE_DIR);
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("PYTHONPATH", src + "/tests/oneflow/fake_oneflow");
  p.setProcessEnvironment(env);
  p.start("/usr/bin/python3",
          QStringList{src + "/packaging/oneflow_dump.py", "--script", src + "/tests/oneflow/dump_example_model.py",
                      "--factory", "build", "--input-shape", "1,3,20,20", "--out", out} +
              extra);
  if (!p.waitForFinished(120000)) return "timed out";
  return p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAllStandardError()) + " (failed)";
}

void compareInitializers(const ir::Model& dumped, const ir::Model& fixture) {
  QCOMPARE(dumped.graph().initializers().size(), fixture.graph().initializers().size());
  for (const auto& t : fixture.graph().initializers()) {
    const auto* v = dumped.graph().findValue(t->name);
    QVERIFY2(v && v->initializer(), t->name.c_str());
    auto x = v->initializer()->bytes(), y = t->bytes();
    QVERIFY2(x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin()), t->name.c_str());
  }
}
}  // namespace

void OneflowDump::dumpReadsConvertsAndRuns() {
  const QString out = test::scratchDir("oneflow_dump") + "/small_net";
  const QString err = runDump(out);
  QVERIFY2(err.isEmpty(), qPrintable(err));
  QVERIFY(QFile::exists(out + "/weights.of") && !QFile::exists(out + "/weights"));
  QFile weights(out + "/weights.of");  // a pickle (protocol 4) of OneFlow 1.0's envelope
  QVERIFY(weights.open(QIODevice::ReadOnly));
  const QByteArray head = weights.readAll();
  QVERIFY(head.startsWith("\x80\x04") && head.contains("__oneflow__") && head.contains("oneflow._oneflow_internal"));

  auto dumped = loadModel(out.toStdString());
  auto fixture = loadModel(of::fixture("small_net").toStdString());
  QStringList a, b;
  for (const auto& n : dumped->graph().nodes()) a << QString::fromStdString(n->opType);
  for (const auto& n : fixture->graph().nodes()) b << QString::fromStdString(n->opType);
  QCOMPARE(a, b);
  compareInitializers(*dumped, *fixture);

  // Converted, it computes what PyTorch computed for the fixture (inputs renamed for the dump's graph name).
  convert::ConvertOptions opts;
  opts.direction = "oneflow";
  opts.targetOpset = 13;
  auto r = convert::convertModel(*dumped, opts);
  QVERIFY(r.complete() && r.model);
  r.model->sourcePath = dumped->sourcePath;
  onnxfmt::writeOnnxFile(*r.model, (out + "/model.onnx").toStdString());
  QDir().mkpath(out + "/inputs");
  QDir().mkpath(out + "/outputs");
  QVERIFY(QFile::copy(of::fixture("small_net") + "/inputs/0.npy", out + "/inputs/0.npy"));
  QVERIFY(QFile::copy(of::fixture("small_net") + "/outputs/0.npy", out + "/outputs/0.npy"));
  QFile in(of::fixture("small_net") + "/fixture.json"), meta(out + "/fixture.json");
  QVERIFY(in.open(QIODevice::ReadOnly) && meta.open(QIODevice::WriteOnly));
  meta.write(in.readAll().replace("_SmallGraph_0", "_DumpGraph_0"));
  meta.close();
  auto v = of::runOrt(out + "/model.onnx", out);
  QVERIFY2(v.ran && v.ok, qPrintable(v.detail));
}

void OneflowDump::folderLayoutOnRequest() {
  const QString out = test::scratchDir("oneflow_dump_folder") + "/small_net";
  const QString err = runDump(out, {"--weights-format", "folder"});
  QVERIFY2(err.isEmpty(), qPrintable(err));
  QVERIFY(QFile::exists(out + "/weights/snapshot_done") && !QFile::exists(out + "/weights.of"));
  auto dumped = loadModel(out.toStdString());
  auto fixture = loadModel(of::fixture("small_net").toStdString());
  compareInitializers(*dumped, *fixture);
}

QTEST_GUILESS_MAIN(OneflowDump)
#include "test_oneflow_dump.moc"
