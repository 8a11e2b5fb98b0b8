// Models whose main-graph outputs carry no shape (or no type), which ONNX's checker refuses and ONNX Runtime runs:
// corpus models with their output shapes taken out convert through the CLI (exit 0), the written outputs carry
// the inferred types (the shapes the corpus file declares), and ONNX Runtime computes what the source computes.
// An output nothing can type is named, with what to do. Opset-18 models get edge shapes from inference as their
// opset-17 twins do.
#include <QtTest>

#include <fstream>
#include <unordered_map>

#include <onnx/onnx_pb.h>

#include "check/onnx_check.h"
#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

onnx::ModelProto readProto(const QString& path) {
  onnx::ModelProto p;
  std::ifstream in(path.toStdString(), std::ios::binary);
  if (!p.ParseFromIstream(&in)) qFatal("cannot parse %s", qPrintable(path));
  return p;
}

void writeProto(const onnx::ModelProto& p, const QString& path) {
  std::ofstream out(path.toStdString(), std::ios::binary);
  if (!p.SerializeToOstream(&out)) qFatal("cannot write %s", qPrintable(path));
}

// "float[1,1000]", "float[batch,?]": what the written output says.
QString typeText(const onnx::ValueInfoProto& v) {
  return QString::fromStdString(onnxfmt::importType(v.type()).toString());
}

}  // namespace

class TestConvertShapelessOutputs : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  // Output shapes taken out (`shape`) or the whole type (`type`): converted to the source's opset and to 13.
  void convertsWithInferredOutputTypes_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("strip");
    QTest::addColumn<QString>("opset");
    QTest::newRow("super_resolution op11 shape -> 13") << "super_resolution_op11.onnx"
                                                       << "shape"
                                                       << "13";
    QTest::newRow("super_resolution op13 dyn shape -> 13") << "super_resolution_op13_dyn.onnx"
                                                           << "shape"
                                                           << "13";
    QTest::newRow("mobilenet_v2 op11 type -> 11") << "mobilenet_v2_op11.onnx"
                                                  << "type"
                                                  << "11";
    QTest::newRow("squeezenet op11 shape -> 17") << "squeezenet1_0_op11.onnx"
                                                 << "shape"
                                                 << "17";
  }
  void convertsWithInferredOutputTypes() {
    QFETCH(QString, file);
    QFETCH(QString, strip);
    QFETCH(QString, opset);
    const QString dir = test::scratchDir("shapeless_outputs/" + QString(QTest::currentDataTag()).replace(' ', '_'));
    const onnx::ModelProto original = readProto(test::corpusModel(file));
    onnx::ModelProto stripped = original;
    for (auto& o : *stripped.mutable_graph()->mutable_output()) {
      if (strip == "shape")
        o.mutable_type()->mutable_tensor_type()->clear_shape();
      else
        o.clear_type();
    }
    const QString source = dir + "/source.onnx", out = dir + "/converted.onnx";
    writeProto(stripped, source);
    auto r = test::runCli({"convert", source, "-o", out, "--opset", opset});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("(inferred)"), r.out.constData());
    const onnx::ModelProto written = readProto(out);
    QCOMPARE(written.graph().output_size(), original.graph().output_size());
    for (int i = 0; i < original.graph().output_size(); ++i) {
      const auto& want = original.graph().output(i);
      const auto& got = written.graph().output(i);
      QVERIFY(got.type().tensor_type().has_shape());
      // The exporter's declared dims: numbers where static, its symbol where the batch dim is symbolic.
      QCOMPARE(typeText(got), typeText(want));
    }
    auto run = test::runOracle(test::corpusModel(file), {out});
    QVERIFY2(run.ok(), qPrintable(run.failures()));
  }

  // An output whose rank nothing tells (a Reshape to a run-time shape of run-time length): the check names it and
  // says what the user can do; with --continue-on-error the model is written anyway.
  void untypableOutputIsNamed() {
    const QString dir = test::scratchDir("shapeless_outputs/untypable");
    onnx::ModelProto p = readProto(test::corpusModel("super_resolution_op11.onnx"));
    auto* g = p.mutable_graph();
    auto* target = g->add_input();
    target->set_name("target_shape");
    auto* tt = target->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::INT64);
    tt->mutable_shape()->add_dim()->set_dim_param("k");
    auto* reshape = g->add_node();
    reshape->set_op_type("Reshape");
    reshape->set_name("to_target");
    reshape->add_input(g->output(0).name());
    reshape->add_input("target_shape");
    reshape->add_output("reshaped");
    auto* o = g->add_output();
    o->set_name("reshaped");
    o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    for (auto& out : *g->mutable_output())
      if (out.name() != "reshaped") out.mutable_type()->mutable_tensor_type()->clear_shape();
    const QString source = dir + "/source.onnx", out = dir + "/converted.onnx";
    writeProto(p, source);
    auto r = test::runCli({"convert", source, "-o", out, "--opset", "13"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY(!QFile::exists(out));
    QVERIFY2(!r.out.contains("(inferred)"), r.out.constData());  // nothing was written, so nothing gained a type
    QVERIFY2(r.err.contains("graph output 'reshaped': Field 'shape' of 'type' is required"), r.err.constData());
    QVERIFY2(r.err.contains("graph output 'reshaped' has no shape and shape inference could not find its rank: "
                            "declare its type in the source model"),
             r.err.constData());
    QVERIFY2(!r.err.contains("graph output 'output'"), r.err.constData());  // that one was typed
    auto kept = test::runCli({"convert", source, "-o", out, "--opset", "13", "--continue-on-error"});
    QCOMPARE(kept.exitCode, 3);
    const onnx::ModelProto written = readProto(out);
    QCOMPARE(typeText(written.graph().output(0)), QString("float[1,1,672,672]"));
    QVERIFY(!written.graph().output(1).type().tensor_type().has_shape());
  }

  // A corpus model at opset 18 (its 24 ReduceMean nodes take axes as an input there, which libonnx 1.12's
  // rules would ignore, and its checker refuses) gets the edge types of the same model at 17: every value of the
  // opset-17 model that inference shapes, the opset-18 model has with the same type.
  void opset18EdgesGetShapes() {
    const QString dir = test::scratchDir("shapeless_outputs/opset18");
    auto source = loadModel(test::corpusModel("transformer_encoder_op13_raw.onnx").toStdString());
    std::unordered_map<int64_t, std::unordered_map<std::string, ir::TypeInfo>> types;
    for (int64_t target : {17, 18}) {
      convert::ConvertOptions o;
      o.targetOpset = target;
      o.passes = std::vector<std::string>{};
      auto r = convert::convertModel(*source, o);
      QVERIFY2(r.complete() && r.model, r.error.c_str());
      // Written without any intermediate type, so that inference is all there is.
      const QString path = dir + "/at" + QString::number(target) + ".onnx";
      onnxfmt::writeOnnxFile(*r.model, path.toStdString());
      onnx::ModelProto p = readProto(path);
      p.mutable_graph()->clear_value_info();
      writeProto(p, path);
      auto bare = loadModel(path.toStdString());
      QCOMPARE(bare->opsetVersion(""), target);
      std::vector<CheckMessage> warnings;
      for (const auto& [name, t] : inferShapes(*bare, &warnings))
        if (t.shape && bare->graph().findValue(name) && bare->graph().findValue(name)->producer())
          types[target][name] = t;
      for (const auto& w : warnings) QVERIFY2(w.message.find("skipped") == std::string::npos, w.message.c_str());
    }
    size_t compared = 0;
    for (const auto& [name, t17] : types[17]) {
      auto it = types[18].find(name);
      QVERIFY2(it != types[18].end(), qPrintable(QString::fromStdString(name + " has no shape at 18")));
      QVERIFY2(it->second == t17, qPrintable(QString::fromStdString(name + ": " + it->second.toString() + " at 18, " +
                                                                    t17.toString() + " at 17")));
      ++compared;
    }
    qInfo("opset 18: %zu of %zu node outputs shaped as at 17", compared, types[18].size());
    QVERIFY2(compared > 600, qPrintable(QString::number(compared)));
  }
};

QTEST_GUILESS_MAIN(TestConvertShapelessOutputs)
#include "test_convert_shapeless_outputs.moc"
