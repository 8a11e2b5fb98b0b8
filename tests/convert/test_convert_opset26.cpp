// Models at opsets 18-26 (tests/opset26/make_models.py, written into the build folder): they open, their
// float8/float4/int4/int2 weights decode to the values the generator packed (and ONNX Runtime reads), and each
// converts to opsets 17 and 13, passes the checker, and computes what the source computes in ONNX Runtime.
// Also: the dry run's statuses for opset-18 changes, new ops' first opsets, and unsupported reasons.
#include <QtTest>

#include <cmath>

#include "convert/converter.h"
#include "convert/onnx_onnx/opset18_down.h"
#include "schema/opsets_18_26/down_forms.h"
#include "schema/onnx_schema.h"
#include "schema/opsets_18_26/op_facts.h"
#include "schema/opsets_18_26/structure_check.h"
#include "schema/opsets_18_26/type_constraints.h"
#include "schema/shape_facts.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "ir/packed_types.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

// Made (emptied) once, by initTestCase.
QString& modelDirStorage() {
  static QString dir;
  return dir;
}
QString modelDir() { return modelDirStorage(); }
std::string path(const QString& name) { return (modelDir() + "/" + name + ".onnx").toStdString(); }

const convert::NodeReport* reportFor(const convert::ConvertResult& r, const std::string& op) {
  for (const auto& n : r.nodes)
    if (n.opType == op) return &n;
  return nullptr;
}

// Converts `source` to `target` and writes the result beside the test models as <stem>_to<target>.onnx, appended
// to `outputs`. Fails the test, naming every node that did not convert and every check message, unless the
// conversion is complete at that opset and its IR version.
void convertAndWrite(const ir::Model& source, int64_t target, const QString& stem, QStringList& outputs) {
  convert::ConvertOptions o;
  o.targetOpset = target;
  auto r = convert::convertModel(source, o);
  QString why;
  for (const auto& n : r.nodes)
    if (n.status != convert::NodeStatus::Unchanged && n.status != convert::NodeStatus::Converted)
      why += QString::fromStdString(" " + n.opType + ": " + n.message);
  for (const auto& m : r.check.messages) why += QString::fromStdString(" check: " + m.message);
  QVERIFY2(r.complete() && r.model, qPrintable(QString::fromStdString(r.error) + why));
  QCOMPARE(r.model->opsetVersion(""), target);
  QCOMPARE(r.model->irVersion, schema::irVersionForOpset(target));
  const QString out = modelDir() + "/" + stem + "_to" + QString::number(target) + ".onnx";
  onnxfmt::writeOnnxFile(*r.model, out.toStdString());
  outputs << out;
}

}  // namespace

class TestOpset26 : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(fb::test::oracleInstalled(), "run tests/oracle/install.sh first");
    modelDirStorage() = fb::test::scratchDir("opset26");
    QProcess p;
    p.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/opset26/make_models.py", modelDir()});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    p.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/opset26/make_transformer.py", modelDir()});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    p.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/opset26/make_dynamo_standin.py", modelDir(), FB_CLI_PATH});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
  }

  void elementTypes() {
    using namespace ir;
    QCOMPARE(ir::dataTypeName(kInt4), std::string_view("int4"));
    QCOMPARE(ir::dataTypeName(kFloat8E4M3FNUZ), std::string_view("float8e4m3fnuz"));
    QCOMPARE(ir::elementBits(kFloat4E2M1), size_t(4));
    QCOMPARE(ir::elementBits(kUInt2), size_t(2));
    QCOMPARE(ir::storageBytes(kInt4, 9), size_t(5));
    QCOMPARE(ir::storageBytes(kInt2, 5), size_t(2));
    QCOMPARE(ir::storageBytes(kFloat8E8M0, 3), size_t(3));
    QCOMPARE(ir::minIrVersionFor(kInt2), int64_t(13));
    QVERIFY(std::isnan(ir::decodeNarrowCode(kFloat8E4M3FN, 0x7f)));
    QVERIFY(std::isnan(ir::decodeNarrowCode(kFloat8E4M3FNUZ, 0x80)));
    QVERIFY(std::isinf(ir::decodeNarrowCode(kFloat8E5M2, 0x7c)));
    QCOMPARE(ir::decodeNarrowCode(kFloat8E8M0, 127), 1.0);
    QCOMPARE(ir::decodeNarrowCode(kFloat8E4M3FNUZ, 0x7f), 240.0);
  }

  // Each narrow weight decodes to the values the generator packed; ONNX Runtime agrees that these are the
  // values (the model with the narrow weight against one with the values written as float).
  void narrowWeightsDecode_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"int4_weight_21", "uint4_weight_21", "float8e4m3fn_weight_19", "float8e5m2_weight_19",
                          "float4e2m1_weight_23", "int2_weight_25", "uint2_weight_25"})
      QTest::newRow(n) << QString(n);
  }
  void narrowWeightsDecode() {
    QFETCH(QString, name);
    QFile f(modelDir() + "/expected.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto exp = QJsonDocument::fromJson(f.readAll()).object().value(name).toObject();
    auto model = fb::loadModel(path(name));
    const ir::Tensor* t = nullptr;
    for (const auto& init : model->graph().initializers())
      if (QString::fromStdString(init->name) == exp.value("tensor").toString()) t = init.get();
    QVERIFY(t);
    auto values = t->asDouble();
    auto want = exp.value("values").toArray();
    QCOMPARE(values.size(), size_t(want.size()));
    for (int k = 0; k < want.size(); ++k) QCOMPARE(values[k], want[k].toDouble());
    // Round trip: written back, the packed bytes are the same.
    std::string out = (modelDir() + "/" + name + "_rt.onnx").toStdString();
    onnxfmt::writeOnnxFile(*model, out);
    auto again = fb::loadModel(out);
    for (const auto& init : again->graph().initializers())
      if (init->name == t->name) {
        auto a = init->bytes(), b = t->bytes();
        QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
        QCOMPARE(init->dtype, t->dtype);
      }
    if (name != "float4e2m1_weight_23") {  // ORT's CPU build has no Cast from float4e2m1
      auto run = fb::test::runOracle(modelDir() + "/" + name + "_ref.onnx", {modelDir() + "/" + name + ".onnx"});
      QVERIFY2(run.ok(), qPrintable(run.failures()));
    }
  }

  // Converted to 17 and 13, each model computes what the source computes.
  void convertsDown_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("reference");
    for (const char* n :
         {"reducemean_axes_18", "reducemax_axes_18", "reducemin_axes_18", "reduceprod_axes_18", "reducel1_axes_18",
          "reducel2_axes_18", "reducelogsumexp_axes_18", "reducesumsquare_axes_18", "reducemean_noaxes_18",
          "reducelogsum_axes_20", "split_num_outputs_18", "mish_18", "gelu_20", "gelu_tanh_20", "swish_24",
          "cast_saturate_19", "resize_defaults_19", "plain_21", "int4_weight_21", "uint4_weight_21",
          "float8e4m3fn_weight_19", "float8e5m2_weight_19", "int2_weight_25", "uint2_weight_25", "dequantize_int4_21",
          // the step's adapters, one model per op version (make_models.py)
          "reducemax_axes_20", "pad_axes_18", "pad_axes_constant_18", "pad_wrap_19", "pad_wrap_axes_19",
          "resize_axes_scales_18", "resize_axes_sizes_18", "resize_antialias_up_18", "resize_keep_aspect_18",
          "resize_half_pixel_symmetric_19", "optional_get_18", "optional_has_18", "groupnorm_18", "groupnorm_21",
          "rmsnorm_23", "rmsnorm_axis_23", "rotary_23", "rotary_interleaved_partial_23", "affinegrid_20",
          "affinegrid_3d_aligned_20", "centercroppad_18", "centercroppad_axes_18", "bitwisenot_18",
          "bitwisenot_uint8_18", "bitwiseand_18", "bitwiseor_18", "bitwisexor_18", "bitwisexor_uint8_18",
          "attention_causal_23", "attention_gqa_mask_23", "attention_float_mask_24", "attention_cache_causal_23",
          "attention_cache_gqa_3d_24", "tensorscatter_linear_24", "tensorscatter_circular_24", "cumprod_26",
          "cumprod_exclusive_reverse_26", "mish_22", "averagepool_dilations1_19", "lppool_defaults_18",
          "quantize_output_dtype_21", "dequantize_output_dtype_23", "types_only_22", "types_only_24",
          "dequantize_blocked_21", "dequantize_blocked_int4_21", "dequantize_float8_19", "averagepool_dilated_19",
          "averagepool_dilated_padded_22", "col2im_18", "col2im_strided_18", "lppool_dilated_22",
          "scatterelements_max_distinct_18", "scatternd_min_18",
          // LpPool ceil_mode=1 as end pads (partial last windows, with pads, dilated, a dropped window); bool
          // ReduceMax/ReduceMin through uint8
          "lppool_ceil_18", "lppool_ceil_padded_18", "lppool_ceil_dilated_22", "lppool_ceil_dropped_18",
          "reducemax_bool_20", "reducemin_bool_20", "reducemin_bool_all_20",
          // GridSample-20 -> 16, then below 16 from corner Gathers (static shapes, linear)
          "gridsample_linear_20",
          // intermediate shapes only from 18+ ops (shape facts for opsets above 17)
          "chain_mish_split_18", "chain_symbolic_split_18", "chain_conv_groupnorm_split_21",
          "chain_pad_centercroppad_18", "chain_resize_cumprod_26", "chain_attention_split_23"})
      QTest::newRow(n) << QString(n) << QString(n);
    // ORT cannot run the float4 source; the float reference stands in for it.
    QTest::newRow("float4e2m1_weight_23") << QString("float4e2m1_weight_23") << QString("float4e2m1_weight_23_ref");
  }
  void convertsDown() {
    QFETCH(QString, name);
    QFETCH(QString, reference);
    auto source = fb::loadModel(path(name));
    QVERIFY(source->opsetVersion("") >= 18);
    QStringList outputs;
    for (int64_t target : {17, 13}) {
      convert::ConvertOptions o;
      o.targetOpset = target;
      auto dry = convert::dryRun(*source, o);
      for (const auto& n : dry.nodes)
        QVERIFY2(n.status == convert::NodeStatus::Unchanged || n.status == convert::NodeStatus::Converted,
                 qPrintable(QString::fromStdString(n.opType + ": " + n.message)));
      convertAndWrite(*source, target, name, outputs);
      if (QTest::currentTestFailed()) return;
    }
    auto run = fb::test::runOracle(modelDir() + "/" + reference + ".onnx", outputs);
    QVERIFY2(run.ok(), qPrintable(run.failures()));
  }

  // Ops or forms that opset 13 does not have (DFT 17, ScatterElements reduction 16): converted to 17, and at 13
  // unsupported with the lowest opset that has them, in the dry run and the conversion alike.
  void convertsTo17Only_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("lowest");
    QTest::newRow("dft") << "dft_axis_20"
                         << "DFT" << 17;
    QTest::newRow("scatter add") << "scatterelements_add_18"
                                 << "ScatterElements" << 16;
  }
  void convertsTo17Only() {
    QFETCH(QString, name);
    QFETCH(QString, op);
    QFETCH(int, lowest);
    auto source = fb::loadModel(path(name));
    convert::ConvertOptions o;
    o.targetOpset = 17;
    auto r = convert::convertModel(*source, o);
    QString why;
    for (const auto& n : r.nodes) why += QString::fromStdString(" " + n.opType + ": " + n.message);
    QVERIFY2(r.complete() && r.model, qPrintable(QString::fromStdString(r.error) + why));
    QString out = modelDir() + "/" + name + "_to17.onnx";
    onnxfmt::writeOnnxFile(*r.model, out.toStdString());
    auto run = fb::test::runOracle(modelDir() + "/" + name + ".onnx", {out});
    QVERIFY2(run.ok(), qPrintable(run.failures()));
    for (int64_t target : {13, 16})
      for (bool dry : {true, false}) {
        o.targetOpset = target;
        if (target >= lowest) continue;
        auto low = dry ? convert::dryRun(*source, o) : convert::convertModel(*source, o);
        const auto* n = reportFor(low, op.toStdString());
        QVERIFY(n);
        QCOMPARE(n->status, convert::NodeStatus::Unsupported);
        QVERIFY(!low.model);
        QVERIFY2(n->lowestOpset, n->message.c_str());
        QCOMPARE(*n->lowestOpset, int64_t(lowest));
      }
  }

  // What opset 17 cannot express is unsupported, with the reason, in the dry run and the conversion alike.
  void unsupportedWithReason_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("reason");
    QTest::newRow("run-time axes") << "reducemean_runtime_axes_18"
                                   << "ReduceMean"
                                   << "axes";
    QTest::newRow("bitwise and int64") << "bitwiseand_int64_18"
                                       << "BitwiseAnd"
                                       << "up to 32 bits";
    QTest::newRow("scatter max twice") << "scatterelements_max_18"
                                       << "ScatterElements"
                                       << "updated twice";
    QTest::newRow("antialias down") << "resize_antialias_down_18"
                                    << "Resize"
                                    << "antialias=1 when downscaling";
    QTest::newRow("pool dilations ceil") << "averagepool_dilated_ceil_19"
                                         << "AveragePool"
                                         << "ceil_mode=1";
    QTest::newRow("blocked dq") << "dequantize_blocked_runtime_21"
                                << "DequantizeLinear"
                                << "block_size=2";
    QTest::newRow("tensorscatter run-time") << "tensorscatter_runtime_24"
                                            << "TensorScatter"
                                            << "computed at run time";
    QTest::newRow("quantize int4") << "quantize_int4_21"
                                   << "QuantizeLinear"
                                   << "quantizes to int4";
    QTest::newRow("col2im") << "col2im_runtime_shape_18"
                            << "Col2Im"
                            << "must be constants";
    // Values from the file that would make an enormous constant or an endless loop (make_models.py, hostile_*).
    QTest::newRow("hostile col2im") << "hostile_col2im_18"
                                    << "Col2Im"
                                    << "out of range";
    QTest::newRow("hostile pool") << "hostile_pool_19"
                                  << "AveragePool"
                                  << "too large";
    QTest::newRow("hostile causal mask") << "hostile_attention_23"
                                         << "Attention"
                                         << "too large";
    QTest::newRow("hostile split") << "hostile_split_18"
                                   << "Split"
                                   << "num_outputs=1000000000000 but the node has 2 outputs";
  }
  void unsupportedWithReason() {
    QFETCH(QString, name);
    QFETCH(QString, op);
    QFETCH(QString, reason);
    auto source = fb::loadModel(path(name));
    convert::ConvertOptions o;
    o.targetOpset = 17;
    for (bool dry : {true, false}) {
      auto r = dry ? convert::dryRun(*source, o) : convert::convertModel(*source, o);
      const auto* n = reportFor(r, op.toStdString());
      QVERIFY(n);
      QCOMPARE(n->status, convert::NodeStatus::Unsupported);
      QVERIFY2(QString::fromStdString(n->message).contains(reason), n->message.c_str());
      QVERIFY(!r.model);
    }
  }

  // Every op version of opsets 18-26 in the schema table has a plan: an adapter, the opset-17 schema (versions
  // that only widened types) or a refusal with its reason; new ops are never "the opset-17 schema".
  void everyVersionHasAPlan() {
    int adapters = 0, same = 0, refused = 0;
    for (const auto& f : schema::opsets_18_26::allSchemaFacts()) {
      auto plan = schema::opsets_18_26::downForm(f.op, f.since);
      QVERIFY2(plan, qPrintable(QString::fromStdString(f.op + "-" + std::to_string(f.since) + " (" + f.change +
                                                       ") has no plan")));
      QVERIFY(!plan->text.empty());
      if (qEnvironmentVariableIsSet("FB_PRINT_PLANS"))
        qInfo("PLAN|%s|%lld|%d|%s|%s", f.op.c_str(), (long long)f.since, int(plan->kind), f.change.c_str(),
              plan->text.c_str());
      if (schema::opsets_18_26::firstOpset(f.op) != 0)
        QVERIFY2(plan->kind != schema::opsets_18_26::DownForm::Kind::SameAs17, f.op.c_str());
      if (plan->kind == schema::opsets_18_26::DownForm::Kind::SameAs17)
        QVERIFY2(schema::schemaVersionAt("", f.op, 17) != 0, f.op.c_str());  // the schema it keeps exists
      // A refused op version says so, with the plan's reason, on a model that holds it.
      if (plan->kind == schema::opsets_18_26::DownForm::Kind::Refused) {
        QString name = QString("refused_%1_%2").arg(QString::fromStdString(f.op)).arg(f.since);
        QVERIFY2(QFile::exists(QString::fromStdString(path(name))), qPrintable(name + " is not generated"));
        auto source = fb::loadModel(path(name));
        convert::ConvertOptions o;
        o.targetOpset = 17;
        auto dry = convert::dryRun(*source, o);
        const auto* n = reportFor(dry, f.op);
        QVERIFY(n);
        QCOMPARE(n->status, convert::NodeStatus::Unsupported);
        QVERIFY2(n->message.find(plan->text) != std::string::npos, n->message.c_str());
      }
      switch (plan->kind) {
        case schema::opsets_18_26::DownForm::Kind::Adapter:
          ++adapters;
          break;
        case schema::opsets_18_26::DownForm::Kind::SameAs17:
          ++same;
          break;
        case schema::opsets_18_26::DownForm::Kind::Refused:
          ++refused;
          break;
      }
    }
    qInfo("op versions 18-26: %d by adapter, %d opset-17 schema (types only), %d refused", adapters, same, refused);
    QVERIFY(adapters > 40);
  }

  // The schema's table of opset-17 forms and the converter's rewrites agree: one rewrite per Adapter row, none
  // for a refused op (a rewrite without a row would never run; a row without a rewrite would fail every node).
  void everyAdapterHasARewrite() {
    std::vector<std::string> adapters;
    for (const auto& [op, form] : schema::opsets_18_26::opsChangedAfter17())
      if (form.kind == schema::opsets_18_26::DownForm::Kind::Adapter) adapters.push_back(op);
    auto rewrites = convert::onnx_onnx::opsWithOpset17Rewrite();
    QCOMPARE(rewrites.size(), adapters.size());
    QVERIFY(rewrites == adapters);  // both sorted (std::map order)
  }

  // A transformer block in the form PyTorch writes at opset 18 (make_transformer.py) converts to 17 and 11.
  void transformerBlock18() {
    auto source = fb::loadModel(path("transformer_block_18"));
    QCOMPARE(source->opsetVersion(""), int64_t(18));
    QStringList outputs;
    for (int64_t target : {17, 11}) {
      convertAndWrite(*source, target, "transformer_block_18", outputs);
      if (QTest::currentTestFailed()) return;
    }
    auto run = fb::test::runOracle(modelDir() + "/transformer_block_18.onnx", outputs);
    QVERIFY2(run.ok(), qPrintable(run.failures()));
  }

  // Every op version of 18-26 has its complete type constraints: a type variable per formal input and output,
  // each with the element types it accepts.
  void typeConstraintsComplete() {
    int versions = 0;
    for (const auto& f : schema::opsets_18_26::allSchemaFacts()) {
      const auto* sig = schema::opsets_18_26::typeSignature(f.op, f.since);
      const QString at = QString::fromStdString(f.op + "-" + std::to_string(f.since));
      QVERIFY2(sig, qPrintable(at + " has no type constraints"));
      QVERIFY2(!sig->outputs.empty(), qPrintable(at + " has no outputs"));
      QVERIFY2(sig->inputs.size() >= size_t(f.minInputs) || (!sig->inputs.empty() && sig->inputs.back().variadic),
               qPrintable(at + ": fewer formal inputs than the version takes"));
      for (const auto* formals : {&sig->inputs, &sig->outputs})
        for (const auto& formal : *formals) {
          auto it = sig->allowed.find(formal.typeVar);
          // SplitToSequence's output is a sequence, which element-type checks do not cover.
          if (f.op == "SplitToSequence" && formal.typeVar == "S") continue;
          QVERIFY2(it != sig->allowed.end() && !it->second.empty(),
                   qPrintable(at + ": " + QString::fromStdString(formal.name + " (" + formal.typeVar + ")") +
                              " has no types"));
        }
      ++versions;
    }
    QCOMPARE(versions, int(schema::opsets_18_26::allSchemaFacts().size()));
    // Spot checks against ONNX's operator docs.
    using namespace ir;
    auto accepts = [](const char* op, int64_t since, const char* var, DataType t) {
      const auto* sig = schema::opsets_18_26::typeSignature(op, since);
      return sig && sig->allowed.count(var) && sig->allowed.at(var).count(t);
    };
    QVERIFY(accepts("DequantizeLinear", 21, "T1", kInt4) && !accepts("DequantizeLinear", 19, "T1", kInt4));
    QVERIFY(accepts("DequantizeLinear", 23, "T1", kFloat4E2M1) && !accepts("DequantizeLinear", 21, "T1", kFloat4E2M1));
    QVERIFY(accepts("DequantizeLinear", 24, "T2", kFloat8E8M0) && !accepts("DequantizeLinear", 23, "T2", kFloat8E8M0));
    QVERIFY(accepts("DequantizeLinear", 25, "T1", kInt2) && !accepts("DequantizeLinear", 25, "T3", DataType::Double));
    QVERIFY(accepts("QuantizeLinear", 19, "T1", DataType::BFloat16) &&
            accepts("QuantizeLinear", 19, "T2", kFloat8E5M2));
    QVERIFY(!accepts("QuantizeLinear", 19, "T2", DataType::Int16) &&
            accepts("QuantizeLinear", 21, "T2", DataType::Int16));
    QVERIFY(accepts("Cast", 19, "T1", kFloat8E4M3FN) && !accepts("Cast", 19, "T1", kInt4) &&
            accepts("Cast", 21, "T2", kInt4));
    QVERIFY(!accepts("Cast", 25, "T1", DataType::Complex64) && accepts("CastLike", 25, "T2", kUInt2));
    QVERIFY(accepts("Reshape", 19, "T", kFloat8E5M2FNUZ) && !accepts("Reshape", 19, "T", kUInt4) &&
            accepts("Reshape", 21, "T", kUInt4));
    QVERIFY(accepts("Identity", 25, "V", kInt2) && !accepts("Identity", 24, "V", kInt2) &&
            accepts("Identity", 24, "V", kFloat8E8M0));
    QVERIFY(accepts("Transpose", 21, "T", kFloat8E4M3FN) && accepts("Squeeze", 23, "T", kFloat4E2M1));
    QVERIFY(accepts("Attention", 23, "U", DataType::Bool) && !accepts("Attention", 23, "T1", DataType::Int32));
    QVERIFY(accepts("ReduceMax", 20, "T", DataType::Bool) && !accepts("ReduceMax", 18, "T", DataType::Bool));
    QVERIFY(accepts("Equal", 19, "T", DataType::String) && accepts("Conv", 22, "T", DataType::BFloat16));
    QVERIFY(!accepts("Mish", 18, "T", DataType::BFloat16) && accepts("Mish", 22, "T", DataType::BFloat16));
    QVERIFY(accepts("Dropout", 22, "T", kFloat8E5M2) && accepts("ConstantOfShape", 20, "T2", DataType::BFloat16));
  }

  // Every node of the opset-18..26 test models passes the structural check (arity, attributes, element types
  // within the constraints, types propagated through the graph).
  void structuralCheckPassesTestModels() {
    int models = 0, nodes = 0;
    for (const QFileInfo& fi : QDir(modelDir()).entryInfoList({"*.onnx"}, QDir::Files, QDir::Name)) {
      const QString name = fi.completeBaseName();
      if (name.contains("_to") || name.endsWith("_rt")) continue;  // outputs of the other test functions
      auto model = fb::loadModel(fi.filePath().toStdString());
      if (model->opsetVersion("") <= 17) continue;
      auto r = schema::opsets_18_26::checkStructure(*model);
      QString why;
      for (const auto& m : r.messages) why += QString::fromStdString(" [" + m.node + "] " + m.message);
      QVERIFY2(r.ok, qPrintable(name + ":" + why));
      ++models;
      nodes += int(model->graph().nodeCount());
    }
    qInfo("structural check: %d models at opsets 18-26, %d nodes, all pass", models, nodes);
    QVERIFY(models >= 100);
  }

  // `flowbridge-cli check` reads a source at opset 18-26 by its own opset's rules: libonnx 1.12 would read an
  // opset-20 DFT (axis as an input) or an opset-21 GroupNormalization (per-channel scale) by opset-17 rules.
  void cliCheckReadsASourceByItsOwnOpset_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("opset");
    QTest::newRow("DFT-20") << "dft_axis_20"
                            << "20";
    QTest::newRow("GroupNormalization-21") << "groupnorm_21"
                                           << "21";
  }
  void cliCheckReadsASourceByItsOwnOpset() {
    QFETCH(QString, model);
    QFETCH(QString, opset);
    auto r = fb::test::runCli({"check", QString::fromStdString(path(model)), "--opset", opset});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(!r.err.contains("source check"), r.err.constData());
  }

  // A wrong element type, one model per op family, is a message on the node that names the input and the type.
  void structuralCheckWrongTypes_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");  // graph input retyped ("to=<n>": the Cast before the node gets that `to`)
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("expected");
    QTest::newRow("QuantizeLinear x") << "quantize_output_dtype_21"
                                      << "x" << int(ir::DataType::Int8)
                                      << "QuantizeLinear-21 does not accept int8 for input 0 (x)";
    QTest::newRow("DequantizeLinear x through a Cast")
        << "dequantize_blocked_runtime_21"
        << "to" << int(ir::DataType::Float) << "DequantizeLinear-21 does not accept float for input 0 (x)";
    QTest::newRow("Cast complex") << "cast_saturate_19"
                                  << "x" << int(ir::DataType::Complex64)
                                  << "Cast-19 does not accept complex64 for input 0";
    QTest::newRow("Cast int4 before opset 21") << "cast_saturate_19"
                                               << "x" << int(ir::kInt4) << "Cast-19 does not accept int4 for input 0";
    QTest::newRow("Attention Q") << "attention_causal_23"
                                 << "q" << int(ir::DataType::Int32)
                                 << "Attention-23 does not accept int32 for input 0 (Q)";
    QTest::newRow("Attention mask") << "attention_gqa_mask_23"
                                    << "m" << int(ir::DataType::String)
                                    << "Attention-23 does not accept string for input 3 (attn_mask)";
    QTest::newRow("Attention K unlike Q")
        << "attention_causal_23"
        << "k" << int(ir::DataType::Double) << "input 1 (K) is double but input 0 (Q) is float (both T1)";
    QTest::newRow("ReduceMean string") << "reducemean_axes_18"
                                       << "x" << int(ir::DataType::String)
                                       << "ReduceMean-18 does not accept string for input 0";
    QTest::newRow("BitwiseNot float") << "bitwisenot_18"
                                      << "x" << int(ir::DataType::Float)
                                      << "BitwiseNot-18 does not accept float for input 0 (X)";
    QTest::newRow("GroupNormalization int64")
        << "groupnorm_18"
        << "x" << int(ir::DataType::Int64) << "GroupNormalization-18 does not accept int64";
    QTest::newRow("Mish-18 bfloat16") << "mish_18"
                                      << "x" << int(ir::DataType::BFloat16) << "Mish-18 does not accept bfloat16";
    QTest::newRow("TopK-24 int4") << "types_only_24"
                                  << "x" << int(ir::kInt4) << "TopK-24 does not accept int4";
  }
  void structuralCheckWrongTypes() {
    QFETCH(QString, name);
    QFETCH(QString, value);
    QFETCH(int, type);
    QFETCH(QString, expected);
    auto model = fb::loadModel(path(name));
    QVERIFY(schema::opsets_18_26::checkStructure(*model).ok);
    if (value == "to") {
      for (const auto& n : model->graph().nodes())
        if (n->opType == "Cast") n->setAttr(ir::Attribute::makeInt("to", type));
    } else {
      ir::Value* v = model->graph().findValue(value.toStdString());
      QVERIFY(v);
      v->type.elemType = static_cast<ir::DataType>(type);
      if (ir::minIrVersionFor(v->type.elemType) > model->irVersion)
        model->irVersion = ir::minIrVersionFor(v->type.elemType);
    }
    auto r = schema::opsets_18_26::checkStructure(*model);
    QVERIFY(!r.ok);
    QString all;
    bool found = false;
    for (const auto& m : r.messages) {
      all += QString::fromStdString(" [" + m.node + "] " + m.message);
      if (QString::fromStdString(m.message).contains(expected)) {
        QVERIFY2(!m.node.empty(), "the message names no node");
        found = true;
      }
    }
    QVERIFY2(found, qPrintable(all));
  }

  // Shape facts through op versions after 17, which libonnx 1.12 cannot infer: the opset-17 view lets libonnx
  // infer the rest (Conv at opset 21), FlowBridge's own rules give the 18+ outputs, symbolic dims included.
  void shapeFacts18_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("shape");
    QTest::newRow("mish") << "chain_mish_split_18"
                          << "m"
                          << "2,6";
    QTest::newRow("split output") << "chain_mish_split_18"
                                  << "b"
                                  << "2,3";
    QTest::newRow("symbolic batch") << "chain_symbolic_split_18"
                                    << "c"
                                    << "?,1";
    QTest::newRow("conv at 21") << "chain_conv_groupnorm_split_21"
                                << "c"
                                << "1,4,5,5";
    QTest::newRow("groupnorm") << "chain_conv_groupnorm_split_21"
                               << "g"
                               << "1,4,5,5";
    QTest::newRow("pad axes") << "chain_pad_centercroppad_18"
                              << "p"
                              << "2,3,7";
    QTest::newRow("centercroppad") << "chain_pad_centercroppad_18"
                                   << "y"
                                   << "2,2,5";
    QTest::newRow("resize axes") << "chain_resize_cumprod_26"
                                 << "r"
                                 << "1,1,4,6";
    QTest::newRow("attention 3-D") << "chain_attention_split_23"
                                   << "att"
                                   << "1,3,8";
    QTest::newRow("reduce axes input") << "chain_attention_split_23"
                                       << "r"
                                       << "1,1,8";
  }
  void shapeFacts18() {
    QFETCH(QString, name);
    QFETCH(QString, value);
    QFETCH(QString, shape);
    auto model = fb::loadModel(path(name));
    // Intermediate values carry no declared type: the facts are all there is.
    const ir::Value* v = model->graph().findValue(value.toStdString());
    QVERIFY(v);
    QVERIFY(!v->type.shape || model->graph().outputs().end() !=
                                  std::find(model->graph().outputs().begin(), model->graph().outputs().end(), v));
    auto facts = schema::inferShapeFacts(*model);
    QString warnings;
    for (const auto& w : facts.warnings) warnings += QString::fromStdString(" " + w);
    const ir::TypeInfo* t = facts.typeOf(v, model->graph());
    QVERIFY2(t && t->shape, qPrintable("no shape for " + value + warnings));
    QStringList dims;
    for (const auto& d : *t->shape) dims << (d.isValue() ? QString::number(d.value) : QString("?"));
    QCOMPARE(dims.join(","), shape);
    QCOMPARE(t->elemType, ir::DataType::Float);
  }

  // A model in the form torch.onnx's dynamo exporter writes (make_dynamo_standin.py: a torch 1.13 export moved to
  // opset 18 by FlowBridge and rewritten: IR 10, ReduceMean axes input, Split num_outputs, node metadata_props,
  // val_N / node_Op_N names, torch_lib common functions) opens with its types, passes the structural check, and
  // converts to 17 and 11 with ONNX Runtime agreeing with torch's own export.
  void dynamoStandin18() {
    auto source = fb::loadModel(path("dynamo_standin_18"));
    QCOMPARE(source->opsetVersion(""), int64_t(18));
    QCOMPARE(source->irVersion, int64_t(10));
    QCOMPARE(source->opsetVersion("pkg.onnxscript.torch_lib.common"), int64_t(1));
    QCOMPARE(source->functions.size(), size_t(2));
    const auto& inputs = source->graph().inputs();
    QCOMPARE(inputs.size(), size_t(1));
    QCOMPARE(inputs[0]->type.elemType, ir::DataType::Float);
    QVERIFY(inputs[0]->type.shape && (*inputs[0]->type.shape)[0].param == "s0");
    int withMetadata = 0, split = 0, reduceWithAxesInput = 0;
    for (const auto& n : source->graph().nodes()) {
      QVERIFY2(QString::fromStdString(n->name).startsWith("node_" + QString::fromStdString(n->opType) + "_"),
               n->name.c_str());
      if (n->unknownFields.find("pkg.torch.onnx.stack_trace") != std::string::npos) ++withMetadata;
      if (n->opType == "Split" && n->hasAttr("num_outputs")) ++split;
      if (n->opType == "ReduceMean" && n->input(1)) ++reduceWithAxesInput;
    }
    QCOMPARE(withMetadata, int(source->graph().nodeCount()));
    QVERIFY(split == 1 && reduceWithAxesInput == 1);
    QVERIFY(schema::opsets_18_26::checkStructure(*source).ok);
    // libonnx's inference runs on its opset-17 view (not the fallback to declared shapes).
    auto facts = schema::inferShapeFacts(*source);
    for (const auto& w : facts.warnings) QVERIFY2(w.find("shape inference skipped") == std::string::npos, w.c_str());
    // The CLI shows it: opsets, IR version, symbolic input.
    auto shown = fb::test::runCli({"inspect", QString::fromStdString(path("dynamo_standin_18"))});
    QCOMPARE(shown.exitCode, 0);
    QVERIFY2(shown.out.contains("IR version 10") && shown.out.contains("pkg.onnxscript.torch_lib.common=1") &&
                 shown.out.contains("float[s0, 3, 16, 16]"),
             shown.out.constData());

    QStringList outputs{modelDir() + "/dynamo_standin_18.onnx"};
    for (int64_t target : {17, 11}) {
      convertAndWrite(*source, target, "dynamo_standin_18", outputs);
      if (QTest::currentTestFailed()) return;
    }
    // The reference is torch 1.13's own opset-17 export of the same module; the stand-in itself runs too.
    auto run = fb::test::runOracle(modelDir() + "/dynamo_standin_17.onnx", outputs);
    QVERIFY2(run.ok(), qPrintable(run.failures()));
  }

  // The dry run does not call an opset-18 ReduceMean with an axes input "unchanged" at 17.
  void dryRunStatuses() {
    auto source = fb::loadModel(path("reducemean_axes_18"));
    convert::ConvertOptions o;
    o.targetOpset = 17;
    auto dry = convert::dryRun(*source, o);
    const auto* r = reportFor(dry, "ReduceMean");
    QVERIFY(r);
    QCOMPARE(r->status, convert::NodeStatus::Converted);
    QVERIFY(QString::fromStdString(r->message).contains("axes input -> attribute"));
    QCOMPARE(schema::schemaVersionAt("", "ReduceMean", 18), int64_t(18));
    QCOMPARE(schema::schemaVersionAt("", "ReduceMean", 17), int64_t(13));
    QCOMPARE(schema::schemaVersionAt("", "Cast", 25), int64_t(25));
    QCOMPARE(schema::firstOpsetOf("", "Gelu"), int64_t(20));
    QCOMPARE(schema::firstOpsetOf("", "RMSNormalization"), int64_t(23));
    QCOMPARE(schema::firstOpsetOf("", "BitCast"), int64_t(26));
  }
};

QTEST_GUILESS_MAIN(TestOpset26)
#include "test_convert_opset26.moc"
