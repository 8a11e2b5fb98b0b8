// The OneFlow readers on the generated fixtures: a Job becomes the graph OneFlow recorded (ops, lbns, shapes,
// attributes with their OneFlow kinds, weights byte for byte); text, JobSet, old BlobDescProto layouts and the
// SavedModel give the same graph; unknown fields are skipped; damaged inputs are one-line errors naming the file.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "formats/model_io.h"
#include "formats/oneflow/job_import.h"
#include "formats/oneflow/oneflow_attributes.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "formats/oneflow/oneflow_reader.h"
#include "oneflow_fixture.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
namespace of = fb::test::oneflow;
namespace fs = std::filesystem;

namespace {
std::string readFile(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void writeFile(const std::string& p, const std::string& data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << data;
}

// A private copy of a fixture to damage.
std::string copyFixture(const QString& name, const QString& as) {
  const std::string dst = (test::scratchDir("oneflow_reader_" + as)).toStdString() + "/" + name.toStdString();
  fs::copy(of::fixture(name).toStdString(), dst, fs::copy_options::recursive);
  return dst;
}

// The InputError message for loading `path`, or "" when it loads.
QString loadError(const std::string& path) {
  try {
    loadModel(path);
  } catch (const InputError& e) {
    return QString::fromStdString(e.file() + ": " + e.what());
  }
  return {};
}

// op types in graph order and the type of every value, as one comparable text.
QString graphSignature(const ir::Model& m) {
  QString s;
  for (const auto& n : m.graph().nodes()) s += QString::fromStdString(n->opType) + " ";
  s += "|";
  for (const auto* v : m.graph().values())
    if (v->type.isTensor()) s += QString::fromStdString(v->name() + ":" + v->type.toString()) + " ";
  return s;
}
}  // namespace

class OneflowReader : public QObject {
  Q_OBJECT
 private slots:
  void resnetJobAsRecorded();
  void formatsAgree_data();
  void formatsAgree();
  void savedModelShapesInferred();
  void unknownFieldsSkipped();
  void damagedInputs_data();
  void damagedInputs();
  void cliErrorIsOneLine();
};

void OneflowReader::resnetJobAsRecorded() {
  const std::string dir = of::fixture("resnet18").toStdString();
  QCOMPARE(detectFormat(dir), ModelFormat::OneFlow);
  QCOMPARE(detectFormat(dir + "/job.pb"), ModelFormat::OneFlow);
  ::oneflow::JobV08 job;
  QVERIFY(job.ParseFromString(readFile(dir + "/job.pb")));
  int userOps = 0, outputs = 0, variables = 0;
  for (const auto& op : job.net().op()) {
    userOps += op.has_user_conf();
    outputs += op.has_output_conf();
    variables += op.has_variable_conf();
  }
  auto model = loadModel(dir);
  const auto& g = model->graph();
  QCOMPARE(int(g.nodeCount()), userOps + outputs);
  QCOMPARE(int(g.initializers().size()), variables);
  QCOMPARE(variables, 102);  // 21 convs + 20 BN x 4 + fc weight and bias: resnet18's parameters and buffers
  QCOMPARE(g.inputs().size(), size_t(1));
  QCOMPARE(QString::fromStdString(g.inputs()[0]->type.toString()), QString("float[1,3,224,224]"));

  // Every lbn has the shape the job's lbn2logical_blob_desc gives it.
  int checked = 0;
  for (const auto& [lbn, desc] : job.helper().lbn2logical_blob_desc()) {
    const auto* v = g.findValue(lbn);
    QVERIFY2(v, lbn.c_str());
    auto dims = v->type.staticDims();
    QVERIFY2(dims, lbn.c_str());
    QCOMPARE(*dims, std::vector<int64_t>(desc.shape().dim().begin(), desc.shape().dim().end()));
    ++checked;
  }
  QVERIFY(checked > 150);

  // Weights are the bytes of <key>/out (state-dict keys: the variable name without its first component).
  for (const auto& t : g.initializers()) {
    QVERIFY(QString::fromStdString(t->name).startsWith("model."));
    std::string key = t->name.substr(std::string("model.").size());
    key = key.substr(0, key.size() - std::string("/out").size());
    const std::string raw = readFile(dir + "/weights/" + key + "/out");
    auto bytes = t->bytes();
    QCOMPARE(bytes.size(), raw.size());
    QVERIFY2(std::equal(raw.begin(), raw.end(), reinterpret_cast<const char*>(bytes.data())), key.c_str());
  }

  // Attributes keep OneFlow's kinds; argument names are recorded per input slot.
  const ir::Node* conv = nullptr;
  const ir::Node* bn = nullptr;
  for (const auto& n : g.nodes()) {
    if (!conv && n->opType == "conv2d") conv = n.get();
    if (!bn && n->opType == "normalization") bn = n.get();
  }
  QVERIFY(conv && bn);
  QCOMPARE(QString::fromStdString(conv->domain), QString("oneflow"));
  QCOMPARE(fb::oneflow::oneflowAttrCase(*conv->attr("groups")), std::string("at_int32"));
  QCOMPARE(fb::oneflow::oneflowAttrCase(*conv->attr("padding_before")), std::string("at_list_int32"));
  QCOMPARE(conv->attrInts("kernel_size"), (std::vector<int64_t>{7, 7}));
  QCOMPARE(fb::oneflow::oneflowAttrCase(*bn->attr("epsilon")), std::string("at_float"));
  QCOMPARE(fb::oneflow::oneflowAttrCase(*bn->attr("training")), std::string("at_bool"));
  QCOMPARE(bn->attr(fb::oneflow::kInputArgsAttr)->strings,
           (std::vector<std::string>{"x", "moving_mean", "moving_variance", "gamma", "beta"}));
  // Node names carry the module path as name scopes; the last component is OneFlow's op name, which the lbns use.
  QCOMPARE(QString::fromStdString(conv->name), QString("/model/conv1/model.conv1-conv2d_0"));
  QCOMPARE(QString::fromStdString(conv->output(0)->name()), QString("model.conv1-conv2d_0/out_0"));
}

void OneflowReader::formatsAgree_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<QString>("layout");
  QTest::newRow("text") << "small_net_text"
                        << "v0.8+";
  QTest::newRow("jobset") << "small_net_jobset"
                          << "v0.8+";
  QTest::newRow("blob v0.5") << "small_net_blob_v05"
                             << "v0.5-v0.7";
  QTest::newRow("blob v0.3, return ops, op-keyed weights") << "small_net_blob_v03"
                                                           << "v0.3";
}

void OneflowReader::formatsAgree() {
  QFETCH(QString, name);
  QFETCH(QString, layout);
  auto reference = loadModel(of::fixture("small_net").toStdString());
  auto model = loadModel(of::fixture(name).toStdString());
  QString sigRef = graphSignature(*reference), sig = graphSignature(*model);
  if (name.endsWith("v03")) sigRef.replace("output", "return");  // the lazy era marks outputs with return ops
  QCOMPARE(sig, sigRef);
  QString got;
  for (const auto& [k, v] : model->metadata)
    if (k == "oneflow.blob_desc_layout") got = QString::fromStdString(v);
  QCOMPARE(got, layout);
  for (size_t i = 0; i < model->graph().initializers().size(); ++i) {
    auto a = model->graph().initializers()[i]->bytes();
    auto b = reference->graph().initializers()[i]->bytes();
    QVERIFY(a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin()));
  }
}

void OneflowReader::savedModelShapesInferred() {
  auto reference = loadModel(of::fixture("small_net").toStdString());
  auto model = loadModel(of::fixture("small_net_saved_model").toStdString());
  QCOMPARE(QString::fromStdString(model->sourceFormat), QString("oneflow-saved-model"));
  int compared = 0;
  for (const auto* v : reference->graph().values()) {
    if (!v->type.hasStaticShape()) continue;
    const auto* w = model->graph().findValue(v->name());
    QVERIFY2(w, v->name().c_str());
    if (v->name().find("/indice_") != std::string::npos) continue;  // pooling indices are never read
    QVERIFY2(w->type == v->type,
             qPrintable(QString::fromStdString(v->name() + ": " + w->type.toString() + " vs " + v->type.toString())));
    ++compared;
  }
  QVERIFY(compared > 15);
  // The text form of the same SavedModel reads the same.
  auto text = loadModel(of::fixture("small_net_saved_model").toStdString() + "/saved_model/1/saved_model.prototxt");
  QCOMPARE(graphSignature(*text), graphSignature(*model));
}

void OneflowReader::unknownFieldsSkipped() {
  const std::string dir = copyFixture("small_net", "unknown");
  std::string job = readFile(dir + "/job.pb");
  auto reference = graphSignature(*loadModel(dir));
  // Field 6 (module_name2module_conf, v0.8+) and field 4000 (a future field) at the top level: skipped.
  std::string extra;
  extra += char(0x32);  // field 6, length-delimited
  extra += char(3);
  extra += "abc";
  extra += "\x80\xfa\x01\x05";  // field 4000, varint 5
  writeFile(dir + "/job.pb", job + extra);
  QCOMPARE(graphSignature(*loadModel(dir)), reference);
}

void OneflowReader::damagedInputs_data() {
  QTest::addColumn<QString>("damage");
  QTest::addColumn<QString>("expected");
  QTest::newRow("missing weight") << "rm-weight"
                                  << "no weights for variable 'model.conv.weight'";
  QTest::newRow("short weight file") << "truncate-weight"
                                     << "variable 'model.conv.weight': out has";
  QTest::newRow("meta disagrees") << "bad-meta"
                                  << "variable 'model.conv.weight': meta says";
  QTest::newRow("no snapshot_done") << "rm-snapshot"
                                    << "no snapshot_done";
  QTest::newRow("truncated job") << "truncate-job"
                                 << "not a OneFlow Job";
  QTest::newRow("empty job") << "empty-job"
                             << "the file is empty";
  QTest::newRow("garbage text job") << "garbage-text"
                                    << "not a text OneFlow Job";
  QTest::newRow("undefined input lbn") << "dangling-lbn"
                                       << "which no op of the graph produces";
}

void OneflowReader::damagedInputs() {
  QFETCH(QString, damage);
  QFETCH(QString, expected);
  const std::string dir = copyFixture("small_net", damage);
  std::string path = dir;
  const std::string w = dir + "/weights/conv.weight";
  if (damage == "rm-weight") fs::remove_all(w);
  if (damage == "truncate-weight") fs::resize_file(w + "/out", fs::file_size(w + "/out") - 4);
  if (damage == "bad-meta") writeFile(w + "/meta", "shape {\n  dim: 8\n  dim: 3\n}\ndata_type: kFloat\n");
  if (damage == "rm-snapshot") fs::remove(dir + "/weights/snapshot_done");
  if (damage == "truncate-job") fs::resize_file(dir + "/job.pb", fs::file_size(dir + "/job.pb") / 2);
  if (damage == "empty-job") fs::resize_file(dir + "/job.pb", 0);
  if (damage == "garbage-text") {
    fs::remove(dir + "/job.pb");
    writeFile(dir + "/job.prototxt", "net { op { name: \"x\" user_conf { op_type_name: ");
  }
  if (damage == "dangling-lbn") {
    ::oneflow::JobV08 job;
    QVERIFY(job.ParseFromString(readFile(dir + "/job.pb")));
    auto* relu = job.mutable_net()->mutable_op(job.net().op_size() - 2);
    for (auto& op : *job.mutable_net()->mutable_op())
      if (op.has_user_conf() && op.user_conf().op_type_name() == "relu") relu = &op;
    (*relu->mutable_user_conf()->mutable_input())["x"].set_s(0, "nowhere/out_0");
    writeFile(dir + "/job.pb", job.SerializeAsString());
  }
  const QString err = loadError(path);
  QVERIFY2(!err.isEmpty(), "loaded without an error");
  QVERIFY2(err.contains(expected), qPrintable(err));
  QVERIFY2(err.startsWith(QString::fromStdString(dir)), qPrintable(err));  // names the file or folder
}

void OneflowReader::cliErrorIsOneLine() {
  const std::string dir = copyFixture("small_net", "cli");
  fs::remove_all(dir + "/weights/fc.bias");
  auto r = test::runCli({"inspect", QString::fromStdString(dir)});
  QCOMPARE(r.exitCode, 2);
  const QString err = QString::fromUtf8(r.err).trimmed();
  QVERIFY2(!err.contains('\n') && err.contains("model.fc.bias") && err.contains(QString::fromStdString(dir)),
           qPrintable(err));
  QVERIFY(r.out.isEmpty());
  auto ok = test::runCli({"inspect", of::fixture("small_net")});
  QCOMPARE(ok.exitCode, 0);
  QVERIFY2(ok.out.contains("oneflow::conv2d"), ok.out.constData());
}

QTEST_GUILESS_MAIN(OneflowReader)
#include "test_oneflow_reader.moc"
