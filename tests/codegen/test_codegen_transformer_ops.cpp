// Attention-23, RMSNormalization-23, RotaryEmbedding-23 and Swish-24 in generated PyTorch and OneFlow code: each
// model (built here, one node each, the defaults and a non-default case) is converted by the CLI and its code
// computes what ONNX Runtime computes on the source (tests/codegen/verify_generated.py; OneFlow code runs against
// the stand-in package). The cases code generation refuses say why.
#include <QtTest>

#include "codegen/code_generator.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;
using ir::DataType;

namespace {

struct Io {
  std::string name;
  std::vector<int64_t> dims;
  DataType type = DataType::Float;
};

ir::TypeInfo typeOf(const Io& io) {
  ir::Shape s;
  for (auto d : io.dims) s.push_back(ir::Dim::of(d));
  return ir::TypeInfo::tensor(io.type, s);
}

struct NodeSpec {
  std::string op;
  std::vector<Io> inputs;  // an empty name skips a slot; a name of an initializer reads it
  std::vector<Io> outputs;
  std::vector<ir::Attribute> attrs;
};

// The nodes side by side in one graph (each reads its own graph inputs and writes graph outputs), so that one
// conversion and one ONNX Runtime run check them all.
std::unique_ptr<ir::Model> nodesModel(int64_t opset, const std::vector<NodeSpec>& nodes,
                                      std::vector<ir::Tensor> initializers = {}) {
  auto m = std::make_unique<ir::Model>();
  m->setOpsetVersion("", opset);
  m->irVersion = opset >= 24 ? 12 : 11;
  ir::Graph& g = m->graph();
  g.name = "transformer_ops";
  for (auto& t : initializers) g.addInitializer(std::move(t));
  int k = 0;
  for (const auto& spec : nodes) {
    std::vector<ir::Value*> ins, outs;
    for (const auto& io : spec.inputs) {
      if (io.name.empty()) {
        ins.push_back(nullptr);
        continue;
      }
      ir::Value* v = g.getOrCreateValue(io.name);
      if (!v->initializer()) {
        v->type = typeOf(io);
        g.addInput(v);
      }
      ins.push_back(v);
    }
    for (const auto& io : spec.outputs) {
      ir::Value* v = g.getOrCreateValue(io.name);
      v->type = typeOf(io);
      g.addOutput(v);
      outs.push_back(v);
    }
    ir::Node* n = g.addNode(spec.op, ins, outs);
    n->name = spec.op + "_" + std::to_string(k++);
    for (const auto& a : spec.attrs) n->setAttr(a);
  }
  return m;
}

std::unique_ptr<ir::Model> oneNode(int64_t opset, const std::string& op, const std::vector<Io>& inputs,
                                   const std::vector<Io>& outputs, std::vector<ir::Attribute> attrs) {
  return nodesModel(opset, {NodeSpec{op, inputs, outputs, std::move(attrs)}});
}

// Converts to both flavours with the CLI and compares both with ONNX Runtime.
void checkAgainstOnnxRuntime(const ir::Model& m, const QString& name) {
  const QString dir = test::scratchDir("codegen_transformer_ops/" + name);
  const QString model = dir + "/" + name + ".onnx";
  onnxfmt::writeOnnxFile(m, model.toStdString());
  QStringList folders;
  for (const char* flavour : {"pytorch", "oneflow"}) {
    const QString out = dir + "/" + flavour;
    auto convert = test::runCli({"convert", model, "--to", flavour, "-o", out});
    QVERIFY2(convert.exitCode == 0, convert.out + convert.err);
    folders << out;
  }
  QProcess p;
  p.start("/usr/bin/python3",
          QStringList{FB_SOURCE_DIR "/tests/codegen/verify_generated.py", "--model", model, "--work", dir + "/verify"} +
              folders);
  QVERIFY(p.waitForFinished(300000));
  const QString report = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
  QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(report));
}

ir::Attribute intAttr(const char* n, int64_t v) { return ir::Attribute::makeInt(n, v); }
ir::Attribute floatAttr(const char* n, float v) { return ir::Attribute::makeFloat(n, v); }

}  // namespace

class TestCodegenTransformerOps : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  // Opset 23: each op with its defaults and with non-default attributes.
  void opset23() {
    std::vector<float> scale(12);
    for (size_t i = 0; i < scale.size(); ++i) scale[i] = 0.5f + 0.1f * static_cast<float>(i);
    std::vector<NodeSpec> nodes = {
        {"RMSNormalization", {{"rms_x", {2, 3, 4}}, {"rms_scale", {4}}}, {{"rms_y", {2, 3, 4}}}, {}},
        // Normalized over the last two dims, a large epsilon (visible in the result), the scale a weight.
        {"RMSNormalization",
         {{"rms1_x", {2, 3, 4}}, {"rms1_scale", {3, 4}}},
         {{"rms1_y", {2, 3, 4}}},
         {intAttr("axis", 1), floatAttr("epsilon", 0.5f)}},
        // 4-D input, caches per token, the halves rotated.
        {"RotaryEmbedding",
         {{"rope_x", {2, 3, 4, 8}}, {"rope_cos", {2, 4, 4}}, {"rope_sin", {2, 4, 4}}},
         {{"rope_y", {2, 3, 4, 8}}},
         {}},
        // 3-D input split into 2 heads, neighbours rotated (interleaved), only the first 4 of 6 channels per head,
        // the cache rows picked by position_ids.
        {"RotaryEmbedding",
         {{"ropei_x", {2, 3, 12}},
          {"ropei_cos", {8, 2}},
          {"ropei_sin", {8, 2}},
          {"ropei_pos", {2, 3}, DataType::Int64}},
         {{"ropei_y", {2, 3, 12}}},
         {intAttr("interleaved", 1), intAttr("num_heads", 2), intAttr("rotary_embedding_dim", 4)}},
        // 4-D multi-head attention, the defaults (value head size differs from the key's).
        {"Attention",
         {{"att_q", {2, 2, 3, 4}}, {"att_k", {2, 2, 5, 4}}, {"att_v", {2, 2, 5, 6}}},
         {{"att_y", {2, 2, 3, 6}}},
         {}},
        // 3-D grouped-query attention (4 query heads over 2 key/value heads), causal after a past of 2, an explicit
        // scale, an additive mask, the present key/value returned.
        {"Attention",
         {{"gqa_q", {1, 3, 16}},
          {"gqa_k", {1, 3, 8}},
          {"gqa_v", {1, 3, 8}},
          {"gqa_mask", {3, 5}},
          {"gqa_pk", {1, 2, 2, 4}},
          {"gqa_pv", {1, 2, 2, 4}}},
         {{"gqa_y", {1, 3, 16}}, {"gqa_present_k", {1, 2, 5, 4}}, {"gqa_present_v", {1, 2, 5, 4}}},
         {intAttr("q_num_heads", 4), intAttr("kv_num_heads", 2), intAttr("is_causal", 1), floatAttr("scale", 0.3f)}},
        // A boolean mask (True: attend), broadcast over batch and heads.
        {"Attention",
         {{"bm_q", {1, 2, 3, 4}}, {"bm_k", {1, 2, 3, 4}}, {"bm_v", {1, 2, 3, 4}}, {"bm_mask", {3, 3}, DataType::Bool}},
         {{"bm_y", {1, 2, 3, 4}}},
         {}},
    };
    checkAgainstOnnxRuntime(*nodesModel(23, nodes,
                                        {ir::Tensor::fromValues("rms1_scale", DataType::Float, {3, 4}, scale),
                                         ir::Tensor::fromValues("ropei_pos", DataType::Int64, {2, 3},
                                                                std::vector<int64_t>{0, 1, 2, 5, 7, 3}),
                                         ir::Tensor::fromValues("bm_mask", DataType::Bool, {3, 3},
                                                                std::vector<uint8_t>{1, 0, 1, 1, 1, 0, 0, 1, 1})}),
                            "opset23");
  }

  // Opset 24: Swish (new), and Attention-24 without its new input (the 23 handler).
  void opset24() {
    std::vector<NodeSpec> nodes = {
        {"Swish", {{"sw_x", {2, 5}}}, {{"sw_y", {2, 5}}}, {}},
        {"Swish", {{"swa_x", {2, 5}}}, {{"swa_y", {2, 5}}}, {floatAttr("alpha", 1.702f)}},
        {"Attention",
         {{"att_q", {1, 2, 3, 4}}, {"att_k", {1, 2, 3, 4}}, {"att_v", {1, 2, 3, 4}}},
         {{"att_y", {1, 2, 3, 4}}},
         {intAttr("is_causal", 1)}},
    };
    checkAgainstOnnxRuntime(*nodesModel(24, nodes), "opset24");
  }

  void refusalsSayWhy() {
    auto softcap = oneNode(23, "Attention", {{"q", {1, 2, 3, 4}}, {"k", {1, 2, 3, 4}}, {"v", {1, 2, 3, 4}}},
                           {{"y", {1, 2, 3, 4}}}, {floatAttr("softcap", 5.0f)});
    auto r = codegen::dryRunPython(*softcap, {}).conversion;
    QCOMPARE(r.nodes.size(), size_t{1});
    QCOMPARE(r.nodes[0].status, convert::NodeStatus::Unsupported);
    QVERIFY2(r.nodes[0].message.find("softcap") != std::string::npos, r.nodes[0].message.c_str());
    auto stash =
        oneNode(23, "RMSNormalization", {{"x", {2, 4}}, {"scale", {4}}}, {{"y", {2, 4}}}, {intAttr("stash_type", 10)});
    r = codegen::dryRunPython(*stash, {}).conversion;
    QCOMPARE(r.nodes[0].status, convert::NodeStatus::Unsupported);
    QVERIFY2(r.nodes[0].message.find("stash_type 10") != std::string::npos, r.nodes[0].message.c_str());
    auto nonpad = oneNode(24, "Attention",
                          {{"q", {1, 2, 3, 4}},
                           {"k", {1, 2, 3, 4}},
                           {"v", {1, 2, 3, 4}},
                           {"", {}},
                           {"", {}},
                           {"", {}},
                           {"n", {1}, DataType::Int64}},
                          {{"y", {1, 2, 3, 4}}}, {});
    r = codegen::dryRunPython(*nonpad, {}).conversion;
    QCOMPARE(r.nodes[0].status, convert::NodeStatus::Unsupported);
    QVERIFY2(r.nodes[0].message.find("nonpad_kv_seqlen") != std::string::npos, r.nodes[0].message.c_str());
  }
};

QTEST_GUILESS_MAIN(TestCodegenTransformerOps)
#include "test_codegen_transformer_ops.moc"
