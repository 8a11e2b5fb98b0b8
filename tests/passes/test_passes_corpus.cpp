// The passes on the real corpus models: the default pipeline keeps every model valid (libonnx checker and
// strict shape inference), its interface and names, leaves at most as many nodes as onnxoptimizer v0.2.7
// (MANIFEST.md's anchor table), keeps provenance, and, where the reference kernels cover every op, the same
// outputs. Each pass also runs alone on a model where it has work to do.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <set>

#include "bench/pass_anchors.h"
#include "check/onnx_check.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/topo_sort.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"
#include "support/helpers.h"
#include "passes/pass_graph.h"

using namespace fb;
using namespace fb::test;

namespace {

std::unique_ptr<ir::Model> load(const QString& file) { return onnxfmt::readOnnxFile(corpusModel(file).toStdString()); }

std::set<uint64_t> nodeIds(const ir::Model& m) {
  std::set<uint64_t> ids;
  for (const auto& n : m.graph().nodes()) ids.insert(n->id());
  return ids;
}

QString messages(const CheckResult& c) {
  QString s;
  for (const auto& m : c.messages) s += QString::fromStdString(m.node + ": " + m.message) + "\n";
  return s;
}

// Gives symbolic or large spatial input dims small fixed values, so the reference kernels run quickly.
void shrinkInputs(ir::Model& m) {
  for (ir::Value* v : m.graph().inputs()) {
    if (!v->type.isTensor() || !v->type.shape) continue;
    auto& s = *v->type.shape;
    for (size_t k = 0; k < s.size(); ++k) {
      if (!s[k].isValue())
        s[k] = ir::Dim::of(2);
      else if (s.size() == 4 && k >= 2 && s[k].value > 32)
        s[k] = ir::Dim::of(32);
    }
  }
  // Declared output shapes belong to the original size.
  for (ir::Value* v : m.graph().outputs())
    if (v->type.isTensor() && v->type.shape && v->type.shape->size() == 4) v->type.shape.reset();
}

}  // namespace

class PassesCorpus : public QObject {
  Q_OBJECT
 private slots:
  void defaultPipeline_data();
  void defaultPipeline();
  void defaultPipelineKeepsOutputs_data();
  void defaultPipelineKeepsOutputs();
  void fuseBnIntoConvThroughIdentitiesOnRawExport();
  void eliminateIdentityOnEfficientNet();
  void extractConstantsOnMobileNet();
  void constantFoldingFoldsStaticShapeChains();
  void constantFoldingKeepsSymbolicBatch();
  void nopCastAndMergeDuplicatesOnTransformer();
  void unusedInitializersAfterFusion();
  void restoresUnfusedPadsAndBiases();
  void cancelsInsertedTransposePairs();
  void everyPassAloneKeepsEveryModelValid_data();
  void everyPassAloneKeepsEveryModelValid();
  void injectedNoOpsOnRealModel();
  void gemmFusionsOnTransformer();
  void consecutiveTransposesAndReshapesOnRealModel();
  void cliListsPasses();
  void skippedPassesWouldHaveChangedNothing_data();
  void skippedPassesWouldHaveChangedNothing();
};

void PassesCorpus::defaultPipeline_data() {
  QTest::addColumn<QString>("file");
  for (const auto& f : corpusModels()) QTest::newRow(qPrintable(f)) << f;
}

void PassesCorpus::defaultPipeline() {
  QFETCH(QString, file);
  static const auto anchors = bench::readOnnxOptimizerAnchors((corpusDir() + "/MANIFEST.md").toStdString());
  auto anchor = anchors.find(file.toStdString());
  QVERIFY2(anchor != anchors.end(), "model missing from MANIFEST.md's onnxoptimizer table");
  try {
    auto original = load(file);
    auto m = original->clone();
    const auto sourceIds = nodeIds(*original);
    auto r = runPasses(*m, passes::PassRegistry::instance().defaultPipeline());
    QVERIFY(r.reachedFixpoint);
    QCOMPARE(r.nodesBefore, static_cast<size_t>(anchor->second.nodesExported));
    QCOMPARE(r.nodesAfter, m->graph().nodeCount());
    QVERIFY2(static_cast<int>(r.nodesAfter) <= anchor->second.nodesAfter,
             qPrintable(QString("%1 nodes, onnxoptimizer leaves %2").arg(r.nodesAfter).arg(anchor->second.nodesAfter)));
    // interface: same inputs and outputs, same names, same declared types
    QCOMPARE(m->graph().inputs().size(), original->graph().inputs().size());
    for (size_t k = 0; k < m->graph().inputs().size(); ++k)
      QCOMPARE(m->graph().inputs()[k]->name(), original->graph().inputs()[k]->name());
    QCOMPARE(m->graph().outputs().size(), original->graph().outputs().size());
    for (size_t k = 0; k < m->graph().outputs().size(); ++k) {
      QCOMPARE(m->graph().outputs()[k]->name(), original->graph().outputs()[k]->name());
      QVERIFY(m->graph().outputs()[k]->type == original->graph().outputs()[k]->type);
    }
    // provenance: every node comes from source nodes, and only from those
    for (const auto& n : m->graph().nodes()) {
      QVERIFY2(!n->origins.empty(), qPrintable(QString::fromStdString(n->opType + " has no origins")));
      for (auto id : n->origins) QVERIFY(sourceIds.count(id));
    }
    auto c = checkModel(*m);
    QVERIFY2(c.ok, qPrintable(messages(c)));
    // a fixpoint: running the pipeline again finds nothing to do in its first round
    auto again = runPasses(*m, passes::PassRegistry::instance().defaultPipeline());
    QCOMPARE(again.iterations, size_t(1));
    QCOMPARE(again.nodesAfter, r.nodesAfter);
    // the file written from it reads back with the same node count
    const std::string path = (scratchDir("passes_corpus") + "/" + file).toStdString();
    onnxfmt::writeOnnxFile(*m, path);
    QCOMPARE(onnxfmt::readOnnxFile(path)->graph().nodeCount(), r.nodesAfter);
  } catch (const std::exception& e) {
    QFAIL(e.what());
  }
}

void PassesCorpus::defaultPipelineKeepsOutputs_data() {
  QTest::addColumn<QString>("file");
  // The models whose every op has a reference kernel (core/eval) and that still run with small inputs
  // (shufflenet bakes 224x224 into its Reshape constants); ONNX Runtime checks the rest (tests/oracle).
  for (const char* f :
       {"mobilenet_v2_op13_raw.onnx", "mobilenet_v2_op11.onnx", "efficientnet_b0_op13.onnx",
        "mobilenet_v3_small_op13.onnx", "transformer_encoder_op13_raw.onnx", "transformer_encoder_op13_dyn.onnx"})
    QTest::newRow(f) << QString(f);
}

void PassesCorpus::defaultPipelineKeepsOutputs() {
  QFETCH(QString, file);
  try {
    auto original = load(file);
    shrinkInputs(*original);
    auto m = original->clone();
    auto r = runPasses(*m, passes::PassRegistry::instance().defaultPipeline());
    QVERIFY(r.nodesAfter < r.nodesBefore);
    compareOutputs(*original, *m);
  } catch (const std::exception& e) {
    QFAIL(e.what());
  }
}

void PassesCorpus::fuseBnIntoConvThroughIdentitiesOnRawExport() {
  // MANIFEST.md: onnxoptimizer's fuse_bn_into_conv removes nothing here because Identity nodes feed the
  // BatchNormalization parameters. Alone, without eliminate_identity, this pass must fold all 52.
  auto m = load("mobilenet_v2_op13_raw.onnx");
  std::map<std::string, uint64_t> bnIdByOutput;
  for (const auto& n : m->graph().nodes())
    if (n->opType == "BatchNormalization") bnIdByOutput[n->output(0)->name()] = n->id();
  QCOMPARE(bnIdByOutput.size(), size_t(52));
  auto r = runPasses(*m, {"fuse_bn_into_conv"});
  QCOMPARE(countOp(*m, "BatchNormalization"), size_t(0));
  QCOMPARE(r.perPass[0].total.nodesRemoved, size_t(52));
  QCOMPARE(countOp(*m, "Identity"), size_t(182));  // untouched: another pass's job
  // every Conv that absorbed a BN produces the BN's output and carries its provenance
  size_t fused = 0;
  for (const auto& n : m->graph().nodes()) {
    if (n->opType != "Conv") continue;
    auto it = bnIdByOutput.find(n->output(0)->name());
    QVERIFY(it != bnIdByOutput.end());
    QVERIFY(std::find(n->origins.begin(), n->origins.end(), it->second) != n->origins.end());
    ++fused;
  }
  QCOMPARE(fused, size_t(52));
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::eliminateIdentityOnEfficientNet() {
  auto m = load("efficientnet_b0_op13.onnx");
  QCOMPARE(countOp(*m, "Identity"), size_t(59));
  runPasses(*m, {"eliminate_identity"});
  QCOMPARE(countOp(*m, "Identity"), size_t(0));
  QCOMPARE(m->graph().nodeCount(), size_t(298 - 59));
  QCOMPARE(m->graph().outputs()[0]->name(), std::string("output"));
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::extractConstantsOnMobileNet() {
  auto m = load("mobilenet_v2_op11.onnx");
  const size_t inits = m->graph().initializers().size();
  auto r = runPasses(*m, {"extract_constant_to_initializer"});
  QCOMPARE(countOp(*m, "Constant"), size_t(0));
  QCOMPARE(r.perPass[0].total.initializersAdded, size_t(70));
  QCOMPARE(m->graph().initializers().size(), inits + 70);
  // opset 11 Clip reads min/max as inputs: they are initializers now
  for (const auto& n : m->graph().nodes())
    if (n->opType == "Clip") QVERIFY(passes::constantTensor(n->input(1)) && passes::constantTensor(n->input(2)));
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::constantFoldingFoldsStaticShapeChains() {
  // shufflenet's channel shuffle computes Reshape targets from Shape/Gather/Div on static shapes
  auto m = load("shufflenet_v2_x1_0_op13.onnx");
  QCOMPARE(countOp(*m, "Shape"), size_t(13));
  runPasses(*m, {"extract_constant_to_initializer", "constant_folding", "eliminate_deadend"});
  QCOMPARE(countOp(*m, "Shape"), size_t(0));
  QCOMPARE(countOp(*m, "Gather"), size_t(0));
  QCOMPARE(countOp(*m, "Div"), size_t(0));
  for (const auto& n : m->graph().nodes())
    if (n->opType == "Reshape") QVERIFY(passes::constantInts(n->input(1)).has_value());
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::constantFoldingKeepsSymbolicBatch() {
  // The batch dim is symbolic: shape arithmetic on it must stay, the rest folds.
  auto m = load("transformer_encoder_op13_dyn.onnx");
  const size_t shapes = countOp(*m, "Shape");
  runPasses(*m, {"extract_constant_to_initializer", "constant_folding", "eliminate_deadend"});
  QVERIFY(countOp(*m, "Shape") > 0);
  QVERIFY(countOp(*m, "Shape") < shapes);
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::nopCastAndMergeDuplicatesOnTransformer() {
  auto m = load("transformer_encoder_op13_dyn.onnx");
  QCOMPARE(countOp(*m, "Cast"), size_t(12));
  auto r = runPasses(*m, {"extract_constant_to_initializer", "eliminate_nop_cast", "merge_duplicates"});
  QCOMPARE(countOp(*m, "Cast"), size_t(0));      // PyTorch casts int64 shape values to int64
  QVERIFY(r.perPass[2].total.nodesRemoved > 0);  // the Shape nodes of one tensor, repeated per use
  // no two remaining nodes have the same op, inputs and attributes
  std::set<std::pair<std::string, std::vector<ir::Value*>>> seen;
  for (const auto& n : m->graph().nodes())
    if (n->attributes.empty()) QVERIFY(seen.insert({n->opType, n->inputs()}).second);
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::unusedInitializersAfterFusion() {
  auto m = load("mobilenet_v2_op13_raw.onnx");
  runPasses(*m, {"eliminate_identity", "fuse_bn_into_conv", "eliminate_duplicate_initializer",
                 "eliminate_unused_initializer"});
  for (const auto& t : m->graph().initializers()) {
    ir::Value* v = m->graph().findValue(t->name);
    QVERIFY2(!v->uses().empty(), t->name.c_str());
  }
  // 52 fused Conv weights + Gemm weight and bias + the fused biases, which are equal (zero: untrained BN
  // statistics) for Convs of equal width and so merged; the BN statistics themselves are gone.
  std::set<int64_t> widths;
  for (const auto& n : m->graph().nodes())
    if (n->opType == "Conv") {
      widths.insert(passes::constantTensor(n->input(1))->dims[0]);
      QCOMPARE(passes::constantTensor(n->input(2))->numElements(), passes::constantTensor(n->input(1))->dims[0]);
    }
  QCOMPARE(m->graph().initializers().size(), 52 + 2 + widths.size());
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::restoresUnfusedPadsAndBiases() {
  // Take super_resolution's Convs apart the way other exporters write them (explicit Pad, bias as Add),
  // then the two fusions must give back the original Conv attributes and biases.
  for (const char* file : {"super_resolution_op11.onnx", "super_resolution_op17.onnx"}) {
    auto original = load(file);
    auto m = original->clone();
    ir::Graph& g = m->graph();
    const int64_t opset = m->opsetVersion("");
    for (ir::Node* conv : passes::nodeList(g)) {
      if (conv->opType != "Conv") continue;
      auto pads = conv->attrInts("pads");
      const size_t sp = pads.size() / 2;
      std::vector<int64_t> full(4 + 2 * sp, 0);
      for (size_t k = 0; k < sp; ++k) {
        full[2 + k] = pads[k];
        full[4 + sp + k] = pads[sp + k];
      }
      conv->removeAttr("pads");
      ir::Value* padded = g.createUniqueValue(conv->input(0)->name() + "_padded");
      ir::Node* pad =
          g.addNode("Pad",
                    {conv->input(0),
                     g.addInitializer(ir::Tensor::fromValues<int64_t>(padded->name() + "_pads", ir::DataType::Int64,
                                                                      {static_cast<int64_t>(full.size())}, full))},
                    {padded}, "", conv);
      pad->origins = {conv->id()};
      conv->setInput(0, padded);
      ir::Value* bias = conv->input(2);
      conv->removeInput(2);
      ir::Value* y = conv->output(0);
      ir::Value* raw = g.createUniqueValue(y->name() + "_nobias");
      g.setOutput(conv, 0, raw);
      const ir::Tensor* b = bias->initializer();
      ir::Value* b3 = g.addInitializer(ir::Tensor::fromValues<float>(bias->name() + "_3d", ir::DataType::Float,
                                                                     {b->dims[0], 1, 1}, b->values<float>()));
      ir::Node* add = g.addNode("Add", {raw, b3}, {y});
      g.moveBefore(add, nullptr);
      add->origins = {conv->id()};
    }
    ir::topologicalSort(g);
    QVERIFY(opset >= 11);
    QCOMPARE(g.nodeCount(), size_t(16));
    auto r = runPasses(*m, {"fuse_pad_into_conv", "fuse_add_bias_into_conv", "eliminate_unused_initializer"});
    QCOMPARE(r.nodesAfter, size_t(8));
    auto a = passes::nodeList(original->graph()), b = passes::nodeList(g);
    QCOMPARE(b.size(), a.size());
    for (size_t k = 0; k < a.size(); ++k) {
      QCOMPARE(b[k]->opType, a[k]->opType);
      if (a[k]->opType != "Conv") continue;
      QCOMPARE(b[k]->attrInts("pads"), a[k]->attrInts("pads"));
      QCOMPARE(passes::constantTensor(b[k]->input(2))->values<float>(),
               passes::constantTensor(a[k]->input(2))->values<float>());
      QCOMPARE(b[k]->output(0)->name(), a[k]->output(0)->name());
    }
    auto c = checkModel(*m);
    QVERIFY2(c.ok, qPrintable(messages(c)));
  }
}

void PassesCorpus::cancelsInsertedTransposePairs() {
  // A layout converter's NHWC island around each Relu of a real model: Transpose, Relu, Transpose back.
  // Push-down must remove every inserted pair and leave the original graph.
  auto original = load("super_resolution_op11.onnx");
  auto m = original->clone();
  ir::Graph& g = m->graph();
  for (ir::Node* relu : passes::nodeList(g)) {
    if (relu->opType != "Relu") continue;
    ir::Value* in = relu->input(0);
    ir::Value* t = g.createUniqueValue(in->name() + "_nhwc");
    ir::Node* t1 = g.addNode("Transpose", {in}, {t}, "", relu);
    t1->setAttr(ir::Attribute::makeInts("perm", {0, 2, 3, 1}));
    t1->origins = {relu->id()};
    relu->setInput(0, t);
    ir::Value* y = relu->output(0);
    ir::Value* r = g.createUniqueValue(y->name() + "_nhwc");
    g.setOutput(relu, 0, r);
    ir::Node* t2 = g.addNode("Transpose", {r}, {y});
    t2->setAttr(ir::Attribute::makeInts("perm", {0, 3, 1, 2}));
    t2->origins = {relu->id()};
  }
  ir::topologicalSort(g);
  QCOMPARE(countOp(*m, "Transpose"), size_t(6));
  auto r = runPasses(*m, {"push_transposes_through_elementwise"});
  QCOMPARE(countOp(*m, "Transpose"), size_t(0));
  QCOMPARE(r.nodesAfter, original->graph().nodeCount());
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::everyPassAloneKeepsEveryModelValid_data() {
  QTest::addColumn<QString>("file");
  for (const auto& f : corpusModels()) QTest::newRow(qPrintable(f)) << f;
}

void PassesCorpus::everyPassAloneKeepsEveryModelValid() {
  // A pass run alone must not rely on another to leave a valid model behind (dangling values, unsorted
  // nodes, renamed outputs).
  QFETCH(QString, file);
  auto original = load(file);
  for (const auto& info : passes::PassRegistry::instance().all()) {
    auto m = original->clone();
    try {
      auto r = runPasses(*m, {info.name});
      QCOMPARE(r.nodesAfter, m->graph().nodeCount());
      for (size_t k = 0; k < m->graph().outputs().size(); ++k)
        QCOMPARE(m->graph().outputs()[k]->name(), original->graph().outputs()[k]->name());
      auto c = checkModel(*m);
      QVERIFY2(c.ok, qPrintable(QString::fromStdString(info.name) + ": " + messages(c)));
    } catch (const std::exception& e) {
      QFAIL(qPrintable(QString::fromStdString(info.name) + ": " + e.what()));
    }
  }
}

void PassesCorpus::injectedNoOpsOnRealModel() {
  // After every Relu of super_resolution (opset 11, static shapes) insert what exporters leave behind:
  // Dropout, identity Transpose, zero Pad, Cast to the same type, Reshape to the same shape, and
  // Unsqueeze/Unsqueeze/Squeeze/Squeeze. Each pass alone removes (or merges) exactly its kind.
  auto original = load("super_resolution_op11.onnx");
  auto m = original->clone();
  ir::Graph& g = m->graph();
  int serial = 0;
  auto val = [&](const std::string& base) { return g.createUniqueValue(base + std::to_string(++serial)); };
  auto i64 = [&](std::vector<int64_t> v) {
    return g.addInitializer(
        ir::Tensor::fromValues<int64_t>(val("c")->name(), ir::DataType::Int64, {static_cast<int64_t>(v.size())}, v));
  };
  for (ir::Node* relu : passes::nodeList(g)) {
    if (relu->opType != "Relu") continue;
    ir::Value* y = relu->output(0);
    ir::Value* cur = val("relu");
    g.setOutput(relu, 0, cur);
    auto add = [&](const char* op, std::vector<ir::Value*> extra, std::vector<ir::Attribute> attrs, ir::Value* out) {
      std::vector<ir::Value*> ins = {cur};
      ins.insert(ins.end(), extra.begin(), extra.end());
      ir::Node* n = g.addNode(op, ins, {out});
      n->attributes = std::move(attrs);
      n->origins = {relu->id()};
      cur = out;
    };
    add("Dropout", {}, {ir::Attribute::makeFloat("ratio", 0.3f)}, val("drop"));
    add("Transpose", {}, {ir::Attribute::makeInts("perm", {0, 1, 2, 3})}, val("t"));
    add("Pad", {i64({0, 0, 0, 0, 0, 0, 0, 0})}, {}, val("pad"));
    add("Cast", {}, {ir::Attribute::makeInt("to", int64_t(ir::DataType::Float))}, val("cast"));
    add("Reshape", {i64({1, -1, 224, 224})}, {}, val("reshape"));
    add("Unsqueeze", {}, {ir::Attribute::makeInts("axes", {0})}, val("u"));
    add("Unsqueeze", {}, {ir::Attribute::makeInts("axes", {0})}, val("u"));
    add("Squeeze", {}, {ir::Attribute::makeInts("axes", {0})}, val("s"));
    add("Squeeze", {}, {ir::Attribute::makeInts("axes", {0})}, y);
  }
  ir::topologicalSort(g);
  QCOMPARE(g.nodeCount(), size_t(8 + 3 * 9));
  QVERIFY(checkModel(*m).ok);
  struct Expect {
    const char* pass;
    const char* op;
    size_t left;
  };
  for (const Expect& e :
       {Expect{"eliminate_nop_dropout", "Dropout", 0}, Expect{"eliminate_nop_transpose", "Transpose", 0},
        Expect{"eliminate_nop_pad", "Pad", 0}, Expect{"eliminate_nop_cast", "Cast", 0},
        Expect{"eliminate_nop_reshape", "Reshape", 0}, Expect{"fuse_consecutive_unsqueezes", "Unsqueeze", 3},
        Expect{"fuse_consecutive_squeezes", "Squeeze", 3}}) {
    auto one = m->clone();
    auto r = runPasses(*one, {e.pass});
    QVERIFY2(countOp(*one, e.op) == e.left, e.pass);
    QCOMPARE(r.nodesAfter, g.nodeCount() - 3);  // three removed or merged, nothing else touched
    auto c = checkModel(*one);
    QVERIFY2(c.ok, qPrintable(QString(e.pass) + ": " + messages(c)));
  }
  // together with the rest of the pipeline: the Squeeze/Unsqueeze pairs stay (no pass cancels them), the rest
  // goes, and the model's own nodes and output name are unchanged
  auto r = runPasses(*m, passes::PassRegistry::instance().defaultPipeline());
  QCOMPARE(r.nodesAfter, size_t(8 + 3 * 2));
  QCOMPARE(m->graph().outputs()[0]->name(), original->graph().outputs()[0]->name());
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::gemmFusionsOnTransformer() {
  // Write each Gemm(A, W, b, transB=1) of the opset-17 transformer the way other exporters do:
  // MatMul(A, Transpose(W)) + b. The two Gemm fusions must give back one Gemm with transB=1 each.
  auto original = load("transformer_encoder_op17.onnx");
  auto m = original->clone();
  ir::Graph& g = m->graph();
  size_t gemms = 0;
  for (ir::Node* gemm : passes::nodeList(g)) {
    if (gemm->opType != "Gemm") continue;
    QCOMPARE(gemm->attrInt("transB", 0), int64_t(1));
    ++gemms;
    ir::Value* wt = g.createUniqueValue(gemm->input(1)->name() + "_t");
    ir::Node* t = g.addNode("Transpose", {gemm->input(1)}, {wt}, "", gemm);
    t->setAttr(ir::Attribute::makeInts("perm", {1, 0}));
    ir::Value* mm = g.createUniqueValue(gemm->output(0)->name() + "_mm");
    ir::Node* matmul = g.addNode("MatMul", {gemm->input(0), wt}, {mm}, "", gemm);
    ir::Node* add = g.addNode("Add", {mm, gemm->input(2)}, {}, "", gemm);
    ir::Value* y = gemm->output(0);
    t->origins = matmul->origins = add->origins = {gemm->id()};
    g.removeNode(gemm);
    g.setOutput(add, 0, y);
  }
  QCOMPARE(gemms, size_t(6));
  auto r = runPasses(*m, {"fuse_matmul_add_bias_into_gemm", "fuse_transpose_into_gemm"});
  QCOMPARE(countOp(*m, "Gemm"), size_t(6));
  QCOMPARE(countOp(*m, "Transpose"), countOp(*original, "Transpose"));
  QCOMPARE(countOp(*m, "MatMul"), countOp(*original, "MatMul"));  // the batched attention MatMuls stay
  QCOMPARE(r.nodesAfter, original->graph().nodeCount());
  for (const auto& n : m->graph().nodes())
    if (n->opType == "Gemm") {
      QCOMPARE(n->attrInt("transB", 0), int64_t(1));
      QVERIFY(passes::constantTensor(n->input(1)));  // the weight itself (some through Identity), not a Transpose
    }
  auto c = checkModel(*m);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::consecutiveTransposesAndReshapesOnRealModel() {
  // After each Conv of super_resolution: NCHW->NHWC->NCHW Transposes back to back, then a flattening
  // Reshape and one back to the Conv's shape. The fusions turn each pair into one node (an identity
  // Transpose disappears outright), and eliminate_nop_reshape then sees the Reshape does nothing.
  auto original = load("super_resolution_op11.onnx");
  auto m = original->clone();
  ir::Graph& g = m->graph();
  const std::vector<std::vector<int64_t>> convShapes = {
      {1, 64, 224, 224}, {1, 64, 224, 224}, {1, 32, 224, 224}, {1, 9, 224, 224}};
  size_t site = 0;
  for (ir::Node* conv : passes::nodeList(g)) {
    if (conv->opType != "Conv") continue;
    const auto& shape = convShapes.at(site++);
    ir::Value* y = conv->output(0);
    ir::Value* cur = g.createUniqueValue(y->name() + "_raw");
    g.setOutput(conv, 0, cur);
    auto add = [&](const char* op, std::vector<ir::Value*> extra, std::vector<ir::Attribute> attrs, ir::Value* out) {
      std::vector<ir::Value*> ins = {cur};
      ins.insert(ins.end(), extra.begin(), extra.end());
      ir::Node* n = g.addNode(op, ins, {out});
      n->attributes = std::move(attrs);
      n->origins = {conv->id()};
      cur = out;
    };
    auto i64 = [&](std::vector<int64_t> v) {
      return g.addInitializer(ir::Tensor::fromValues<int64_t>(g.uniqueName(y->name() + "_shape"), ir::DataType::Int64,
                                                              {static_cast<int64_t>(v.size())}, v));
    };
    add("Transpose", {}, {ir::Attribute::makeInts("perm", {0, 2, 3, 1})}, g.createUniqueValue(y->name() + "_nhwc"));
    add("Transpose", {}, {ir::Attribute::makeInts("perm", {0, 3, 1, 2})}, g.createUniqueValue(y->name() + "_nchw"));
    add("Reshape", {i64({1, -1})}, {}, g.createUniqueValue(y->name() + "_flat"));
    add("Reshape", {i64(shape)}, {}, y);
  }
  ir::topologicalSort(g);
  QCOMPARE(g.nodeCount(), size_t(8 + 4 * 4));
  auto t = m->clone();
  runPasses(*t, {"fuse_consecutive_transposes"});
  QCOMPARE(countOp(*t, "Transpose"), size_t(0));
  QCOMPARE(t->graph().nodeCount(), size_t(8 + 4 * 2));
  auto r = m->clone();
  runPasses(*r, {"fuse_consecutive_reshapes"});
  QCOMPARE(countOp(*r, "Reshape"), size_t(4));
  for (const auto& n : r->graph().nodes())
    if (n->opType == "Reshape") QCOMPARE(n->input(0)->producer()->opType, std::string("Transpose"));
  runPasses(*r, {"fuse_consecutive_transposes", "eliminate_nop_reshape"});
  QCOMPARE(r->graph().nodeCount(), size_t(8));
  QCOMPARE(r->graph().outputs()[0]->name(), original->graph().outputs()[0]->name());
  auto c = checkModel(*r);
  QVERIFY2(c.ok, qPrintable(messages(c)));
}

void PassesCorpus::cliListsPasses() {
  auto res = runCli({"passes", "--json"});
  QCOMPARE(res.exitCode, 0);
  auto doc = QJsonDocument::fromJson(res.out).object();
  auto list = doc["passes"].toArray();
  QCOMPARE(list.size(), qsizetype(passes::PassRegistry::instance().all().size()));
  QCOMPARE(doc["default_pipeline"].toArray().size(),
           qsizetype(passes::PassRegistry::instance().defaultPipeline().size()));
  for (const auto& p : list) QVERIFY(!p.toObject()["description"].toString().isEmpty());
  auto text = runCli({"passes"});
  QCOMPARE(text.exitCode, 0);
  QVERIFY(text.out.contains("fuse_bn_into_conv"));
}

QTEST_GUILESS_MAIN(PassesCorpus)
#include "test_passes_corpus.moc"

void PassesCorpus::skippedPassesWouldHaveChangedNothing_data() {
  QTest::addColumn<QString>("file");
  for (const auto& f : corpusModels()) QTest::newRow(qPrintable(f)) << f;
}

void PassesCorpus::skippedPassesWouldHaveChangedNothing() {
  // The pass manager does not call a pass when the model holds none of its anchorOps, nor when nothing changed
  // since its last call found nothing to do. Calling every pass every round instead must give the same model,
  // byte for byte: an anchor list that missed an op a pass starts from, or a pass whose second call on the same
  // model would still rewrite, would show here as a rewrite lost.
  QFETCH(QString, file);
  auto skipping = load(file), calling = skipping->clone();
  const auto names = passes::PassRegistry::instance().defaultPipeline();
  passes::PassManager a(names), b(names);
  a.recordSteps(true);
  b.callEveryPass(true);
  auto ra = a.run(*skipping);
  auto rb = b.run(*calling);
  size_t notCalled = 0, notCalledWhenCallingAll = 0;
  for (const auto& p : ra.perPass) notCalled += p.notCalled;
  for (const auto& p : rb.perPass) notCalledWhenCallingAll += p.notCalled;
  QCOMPARE(notCalledWhenCallingAll, size_t(0));
  QVERIFY2(notCalled > 0, "no pass was skipped: the test would prove nothing");
  // Rounds may differ: with worklists a pass is called again at once when its rewrites taught type inference
  // something, where calling every pass waits for the next round. The model they end with may not.
  QVERIFY(ra.reachedFixpoint && rb.reachedFixpoint);
  size_t offered = 0, offeredWhenCallingAll = 0;
  for (const auto& p : ra.perPass) offered += p.nodesOffered;
  for (const auto& p : rb.perPass) offeredWhenCallingAll += p.nodesOffered;
  QVERIFY(offered <= offeredWhenCallingAll);
  // The round that confirms the fixpoint calls no pass that ran after the previous round's last change: those
  // have seen the final model already (unless shape inference ran again before that round: new types are new
  // facts, after which every pass is called).
  if (ra.iterations >= 2 && ra.reachedFixpoint && ra.typeInferenceRuns <= 1) {
    size_t lastChanger = 0;
    for (const auto& step : ra.steps)
      if (step.iteration == ra.iterations - 1)
        lastChanger = size_t(std::find(names.begin(), names.end(), step.pass) - names.begin());
    for (size_t j = lastChanger + 1; j < names.size(); ++j)
      QVERIFY2(ra.perPass[j].notCalledUnchanged >= 1,
               qPrintable(QString::fromStdString(names[j]) + " was called again"));
  }
  onnx::ModelProto pa, pb;
  onnxfmt::exportModel(*skipping, pa);
  onnxfmt::exportModel(*calling, pb);
  // The dims shape inference makes up (unk__...) are named by the run that made them: whole-graph inference numbers
  // them, the later rounds' inference of changed nodes names them after their value. Only the names may differ.
  for (auto* p : {&pa, &pb})
    for (auto& vi : *p->mutable_graph()->mutable_value_info())
      for (auto& d : *vi.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
        if (d.has_dim_param() && d.dim_param().rfind("unk__", 0) == 0) d.set_dim_param("unk__");
  QVERIFY(pa.SerializeAsString() == pb.SerializeAsString());
}
