// flowbridge-cli convert / check / ops: exit codes, one-line errors, no partial or misplaced output files,
// --continue-on-error, the JSON report, the handler table.
#include <QtTest>

#include <onnx/onnx_pb.h>

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include "formats/model_io.h"
#include "passes/pass_registry.h"
#include "support/helpers.h"

using namespace fb;

namespace {

void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

onnx::ValueInfoProto* addTensor(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
                                int elemType, std::vector<int64_t> dims) {
  auto* v = list->Add();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(elemType);
  auto* shape = t->mutable_shape();
  for (auto d : dims) shape->add_dim()->set_dim_value(d);
  return v;
}

onnx::NodeProto* addNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> in,
                         std::vector<std::string> out) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + std::to_string(g->node_size()));
  for (auto& s : in) n->add_input(s);
  for (auto& s : out) n->add_output(s);
  return n;
}

onnx::ModelProto baseModel(int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.set_producer_name("test");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  m.mutable_graph()->set_name("g");
  return m;
}

QByteArray serialize(const onnx::ModelProto& m) {
  std::string s;
  m.SerializeToString(&s);
  return QByteArray::fromStdString(s);
}

void addInt64Initializer(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> values) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(static_cast<int64_t>(values.size()));
  for (auto v : values) t->add_int64_data(v);
}

// Opset 13: Slice whose `starts` is a graph input, so opset 9 (attributes only) cannot express it.
QByteArray dynamicSliceModel() {
  auto m = baseModel(13);
  auto* g = m.mutable_graph();
  addTensor(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {2, 8});
  addTensor(g->mutable_input(), "starts", onnx::TensorProto::INT64, {1});
  addInt64Initializer(g, "ends", {6});
  addInt64Initializer(g, "axes", {1});
  addNode(g, "Slice", {"x", "starts", "ends", "axes"}, {"s"});
  addNode(g, "Relu", {"s"}, {"y"});
  addTensor(g->mutable_output(), "y", onnx::TensorProto::FLOAT, {2, -1})
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(1)
      ->set_dim_param("n");
  return serialize(m);
}

QByteArray sha(const QString& path) {
  QFile f(path);
  f.open(QIODevice::ReadOnly);
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace

class TestConvertCli : public QObject {
  Q_OBJECT
 private slots:
  void convertWritesModelAndReport() {
    const QString dir = test::scratchDir("convert_cli/ok");
    const QString out = dir + "/mnv2_13.onnx", report = dir + "/report.json";
    auto r = test::runCli(
        {"convert", test::corpusModel("mobilenet_v2_op11.onnx"), "-o", out, "--opset", "13", "--report", report});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(out));
    auto model = loadModel(out.toStdString());
    QCOMPARE(model->opsetVersion(""), int64_t{13});
    QCOMPARE(model->irVersion, int64_t{7});

    auto j = readJson(report);
    auto facts = test::manifest().value("mobilenet_v2_op11.onnx").toObject();
    QCOMPARE(j.value("target_opset").toInt(), 13);
    QCOMPARE(j.value("source_opset").toInt(), 11);
    QVERIFY(j.value("complete").toBool());
    const int nodes = facts.value("nodes").toInt() + facts.value("subgraph_nodes").toInt();
    QCOMPARE(j.value("nodes").toArray().size(), nodes);
    int counted = 0;
    for (const auto& v : j.value("status_counts").toObject()) counted += v.toInt();
    QCOMPARE(counted, nodes);
    // Op counts before the conversion are the manifest's.
    QCOMPARE(j.value("ops_before").toObject(), facts.value("ops").toObject());
    QVERIFY(j.value("ops_after").toObject().contains("Conv"));
    QVERIFY(j.value("time_ms").toObject().value("total").toDouble() > 0);
    QVERIFY(j.value("check").toObject().value("ok").toBool());
    QVERIFY(j.contains("counts_by_op"));
    // Pass statistics: the default pipeline, and a node count after the passes equal to the ops after.
    passes::registerBuiltinPasses();
    const auto pipeline = passes::PassRegistry::instance().defaultPipeline();
    auto p = j.value("passes").toObject();
    QCOMPARE(p.value("per_pass").toArray().size(), static_cast<qsizetype>(pipeline.size()));
    int after = 0;
    for (const auto& v : j.value("ops_after").toObject()) after += v.toInt();
    QCOMPARE(p.value("nodes_after").toInt(), after);
    int removed = 0, added = 0;
    for (const auto& e : p.value("per_pass").toArray()) {
      removed += e.toObject().value("nodes_removed").toInt();
      added += e.toObject().value("nodes_added").toInt();
      QVERIFY(e.toObject().value("ms").toDouble() >= 0);
    }
    QCOMPARE(p.value("nodes_before").toInt() - removed + added, after);
  }

  void explicitPassList() {
    const QString dir = test::scratchDir("convert_cli/passes");
    const QString out = dir + "/m.onnx", report = dir + "/r.json";
    auto r = test::runCli({"convert", test::corpusModel("mobilenet_v2_op11.onnx"), "-o", out, "--opset", "11",
                           "--passes", "eliminate_identity", "--report", report});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto j = readJson(report);
    auto per = j.value("passes").toObject().value("per_pass").toArray();
    QCOMPARE(per.size(), 1);
    QCOMPARE(per[0].toObject().value("name").toString(), QString("eliminate_identity"));
    QCOMPARE(per[0].toObject().value("nodes_removed").toInt(), 39);  // the manifest's Identity count
    QVERIFY(!j.value("ops_after").toObject().contains("Identity"));
    // And none at all.
    r = test::runCli({"convert", test::corpusModel("mobilenet_v2_op11.onnx"), "-o", out, "--opset", "11", "--passes",
                      "none", "--report", report});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(readJson(report).value("ops_after").toObject().value("Identity").toInt(), 39);
  }

  void badInputExitsTwoAndWritesNothing_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("reasonPart");
    QTest::newRow("empty file") << QByteArray() << QString();
    QFile src(test::corpusModel("super_resolution_op11.onnx"));
    QVERIFY(src.open(QIODevice::ReadOnly));
    QByteArray whole = src.readAll();
    QTest::newRow("truncated corpus model") << whole.left(whole.size() / 2) << QString();
    {
      auto m = baseModel(13);
      auto* g = m.mutable_graph();
      addTensor(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {2});
      addNode(g, "Add", {"x", "b"}, {"a"});
      addNode(g, "Relu", {"a"}, {"b"});
      addTensor(g->mutable_output(), "b", onnx::TensorProto::FLOAT, {2});
      QTest::newRow("cycle") << serialize(m) << QString("cycle");
    }
    {
      auto m = baseModel(13);
      auto* g = m.mutable_graph();
      addTensor(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {2});
      addNode(g, "Add", {"x", "nowhere"}, {"y"});
      addTensor(g->mutable_output(), "y", onnx::TensorProto::FLOAT, {2});
      QTest::newRow("undefined input") << serialize(m) << QString("nowhere");
    }
  }

  void badInputExitsTwoAndWritesNothing() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, reasonPart);
    const QString dir = test::scratchDir("convert_cli/bad_" + QString(QTest::currentDataTag()).replace(' ', '_'));
    const QString in = dir + "/in.onnx", out = dir + "/out.onnx";
    writeBytes(in, bytes);
    auto r = test::runCli({"convert", in, "-o", out, "--opset", "11"});
    QCOMPARE(r.exitCode, 2);
    const QString err = QString::fromUtf8(r.err).trimmed();
    QVERIFY2(err.startsWith("flowbridge-cli: error: " + in + ": "), qPrintable(err));
    QVERIFY2(!err.contains('\n'), qPrintable(err));
    if (!reasonPart.isEmpty()) QVERIFY2(err.contains(reasonPart, Qt::CaseInsensitive), qPrintable(err));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden), QStringList{"in.onnx"});  // no temporary left either
  }

  void outputOverInputRefused() {
    const QString dir = test::scratchDir("convert_cli/same");
    const QString in = dir + "/m.onnx";
    QVERIFY(QFile::copy(test::corpusModel("super_resolution_op11.onnx"), in));
    const QByteArray before = sha(in);
    auto r = test::runCli({"convert", in, "-o", in, "--opset", "13"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).startsWith("flowbridge-cli: error: "), r.err.constData());
    QCOMPARE(sha(in), before);
    // Nor the report over the input or over the output.
    r = test::runCli({"convert", in, "-o", dir + "/o.onnx", "--report", in});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(sha(in), before);
    r = test::runCli({"convert", in, "-o", dir + "/o.onnx", "--report", dir + "/o.onnx"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!QFileInfo::exists(dir + "/o.onnx"));
    // Through another spelling of the same path too.
    r = test::runCli({"convert", in, "-o", dir + "/./m.onnx", "--opset", "13"});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(sha(in), before);
  }

  void unsupportedExitsThreeAndWritesNothing() {
    const QString dir = test::scratchDir("convert_cli/unsupported");
    const QString in = dir + "/slice.onnx", out = dir + "/out.onnx", report = dir + "/report.json";
    writeBytes(in, dynamicSliceModel());
    auto r = test::runCli({"convert", in, "-o", out, "--opset", "9", "--report", report});
    QCOMPARE(r.exitCode, 3);
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY2(r.err.contains("unsupported") && r.err.contains("starts is computed at run time"), r.err.constData());
    auto j = readJson(report);
    QVERIFY(!j.value("complete").toBool());
    QCOMPARE(j.value("status_counts").toObject().value("unsupported").toInt(), 1);
    bool found = false;
    for (const auto& n : j.value("nodes").toArray()) {
      auto o = n.toObject();
      if (o.value("op_type").toString() != "Slice") continue;
      found = true;
      QCOMPARE(o.value("status").toString(), QString("unsupported"));
      QCOMPARE(o.value("lowest_opset").toInt(), 10);  // where Slice takes starts as an input
    }
    QVERIFY(found);
    // The same model converts where the op allows it.
    r = test::runCli({"convert", in, "-o", out, "--opset", "10"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(out));
  }

  void continueOnErrorWritesAndReports() {
    const QString dir = test::scratchDir("convert_cli/continue");
    const QString in = dir + "/slice.onnx", out = dir + "/out.onnx", report = dir + "/report.json";
    writeBytes(in, dynamicSliceModel());
    auto r = test::runCli({"convert", in, "-o", out, "--opset", "9", "--continue-on-error", "--report", report});
    QCOMPARE(r.exitCode, 3);
    QVERIFY(QFileInfo::exists(out));
    auto model = loadModel(out.toStdString());
    QCOMPARE(model->opsetVersion(""), int64_t{9});
    bool keptSlice = false;
    for (const auto& n : model->graph().nodes())
      if (n->opType == "Slice") keptSlice = n->inputs().size() == 4;  // kept as it was
    QVERIFY(keptSlice);
    auto j = readJson(report);
    QCOMPARE(j.value("status_counts").toObject().value("unsupported").toInt(), 1);
    QCOMPARE(j.value("status_counts").toObject().value("unchanged").toInt(), 1);
  }

  void checkIsADryRun() {
    auto r = test::runCli({"check", test::corpusModel("transformer_encoder_op17.onnx"), "--opset", "9", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j.value("target_opset").toInt(), 9);
    auto counts = j.value("counts_by_op").toObject();
    QCOMPARE(counts.value("LayerNormalization").toObject().value("converted").toInt(), 12);
    QVERIFY(!j.contains("ops_after"));  // nothing was built

    const QString dir = test::scratchDir("convert_cli/check");
    writeBytes(dir + "/slice.onnx", dynamicSliceModel());
    r = test::runCli({"check", dir + "/slice.onnx", "--opset", "9"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.out.contains("unsupported"));
    QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList{"slice.onnx"});
  }

  void opsPrintsTheHandlerTable() {
    auto r = test::runCli({"ops", "--json"});
    QCOMPARE(r.exitCode, 0);
    auto rows = QJsonDocument::fromJson(r.out).object().value("handlers").toArray();
    QSet<int> softmaxVersions;
    for (const auto& row : rows)
      if (row.toObject().value("op_type").toString() == "Softmax")
        softmaxVersions.insert(row.toObject().value("since_version").toInt());
    QCOMPARE(softmaxVersions, (QSet<int>{1, 13}));

    r = test::runCli({"ops", "--opset", "12", "--json"});
    rows = QJsonDocument::fromJson(r.out).object().value("handlers").toArray();
    for (const auto& row : rows) {
      auto o = row.toObject();
      if (o.value("op_type").toString() == "Softmax") QCOMPARE(o.value("since_version").toInt(), 1);
      QVERIFY(o.value("since_version").toInt() <= 12);
    }
    r = test::runCli({"ops"});
    QVERIFY(r.out.contains("LayerNormalization") && r.out.contains("Squeeze"));
  }

  // Opsets 18-26 in the table: per op version, its step down to 17 and the rewrite that brings an older node up.
  void opsListsOpsets18To26() {
    auto r = test::runCli({"ops", "--opset", "20", "--json"});
    QCOMPARE(r.exitCode, 0);
    auto j = QJsonDocument::fromJson(r.out).object();
    QVERIFY(!j.value("handlers").toArray().isEmpty());  // the 7-17 handlers give each node its opset-17 form
    auto rows = j.value("opsets_18_26").toArray();
    QMap<QString, QJsonObject> byOp;
    for (const auto& row : rows) {
      auto o = row.toObject();
      QVERIFY(o.value("since_version").toInt() >= 18 && o.value("since_version").toInt() <= 20);
      QVERIFY2(!byOp.contains(o.value("op_type").toString()), "one version per op at a target");
      byOp[o.value("op_type").toString()] = o;
      QVERIFY(o.value("down_to_17").toObject().value("kind").toString() != "none");
    }
    QCOMPARE(byOp.value("ReduceMean").value("since_version").toInt(), 18);
    QCOMPARE(byOp.value("ReduceMean").value("down_to_17").toObject().value("kind").toString(), QString("adapter"));
    QVERIFY(byOp.value("ReduceMean").value("up_from_17").toString().contains("axes attribute -> constant axes input"));
    QVERIFY(byOp.value("ReduceMax").value("up_from_17").toString().contains("18: axes attribute"));  // ReduceMax-20
    QCOMPARE(byOp.value("Cast").value("since_version").toInt(), 19);
    QCOMPARE(byOp.value("Gelu").value("down_to_17").toObject().value("kind").toString(), QString("adapter"));
    QCOMPARE(byOp.value("StringSplit").value("down_to_17").toObject().value("kind").toString(), QString("refused"));
    QCOMPARE(byOp.value("Reshape").value("down_to_17").toObject().value("kind").toString(), QString("opset-17 schema"));
    QVERIFY(!byOp.contains("Attention") && !byOp.contains("BitCast"));  // later opsets

    r = test::runCli({"ops", "--opset", "26", "--json"});
    QCOMPARE(r.exitCode, 0);
    byOp.clear();
    for (const auto& row : QJsonDocument::fromJson(r.out).object().value("opsets_18_26").toArray())
      byOp[row.toObject().value("op_type").toString()] = row.toObject();
    QCOMPARE(byOp.value("Attention").value("since_version").toInt(), 25);
    QCOMPARE(byOp.value("Cast").value("since_version").toInt(), 25);
    QCOMPARE(byOp.value("CumProd").value("down_to_17").toObject().value("kind").toString(), QString("adapter"));

    // A target of 17 or below: every version of 18-26, since a newer source steps down through them.
    r = test::runCli({"ops", "--opset", "13", "--json"});
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value("opsets_18_26").toArray().size(), 188);
    r = test::runCli({"ops", "--opset", "22"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Opsets 18-26") && r.out.contains("GroupNormalization") && r.out.contains("up: "));
    // Out of range, or a direction that stops at 17: usage errors.
    QCOMPARE(test::runCli({"ops", "--opset", "27"}).exitCode, 1);
    r = test::runCli({"ops", "--opset", "20", "--direction", "oneflow"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("up to 17"));
  }

  void unknownPassIsAUsageError() {
    const QString dir = test::scratchDir("convert_cli/pass");
    auto r = test::runCli({"convert", test::corpusModel("super_resolution_op11.onnx"), "-o", dir + "/o.onnx",
                           "--passes", "no_such_pass"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no_such_pass"));
    QVERIFY(!QFileInfo::exists(dir + "/o.onnx"));
  }

  void externalDataGoesToASideFile() {
    const QString dir = test::scratchDir("convert_cli/external");
    const QString out = dir + "/sr.onnx";
    auto r = test::runCli({"convert", test::corpusModel("super_resolution_op11.onnx"), "-o", out, "--opset", "9",
                           "--passes", "none", "--external-data"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(out + ".data"));
    QVERIFY(QFileInfo(out).size() < 20000);  // the 240 kB of weights are in the side file
    auto m = loadModel(out.toStdString());
    QCOMPARE(m->opsetVersion(""), int64_t{9});
  }
};

QTEST_GUILESS_MAIN(TestConvertCli)
#include "test_cli_convert.moc"
