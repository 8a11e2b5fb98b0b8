// The model diff on pairs whose answer is known: a corpus model against itself renamed and shuffled (every node
// pairs with its original), four edits (exactly those four reported), two exports of one network at opsets 13 and
// 17, a model against its own optimized form, and a FlowBridge conversion against its source, where provenance
// gives the true pairs the matcher must find without it.
#include <QtTest>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "convert/converter.h"
#include "diff/diff_report.h"
#include "diff/model_diff.h"
#include "formats/model_io.h"
#include "ir/model.h"
#include "ir/node_label.h"
#include "support/helpers.h"

using namespace fb;

namespace {

std::unique_ptr<ir::Model> corpus(const char* file) { return loadModel(test::corpusModel(file).toStdString()); }

// Every graph of the model: the main graph, bodies, function bodies.
void allGraphs(ir::Graph& g, std::vector<ir::Graph*>& out) {
  out.push_back(&g);
  for (const auto& n : g.nodes())
    for (ir::Graph* sub : n->subgraphs()) allGraphs(*sub, out);
}

// Renames every node and value (one name map for all graphs, so bodies still see the values around them) and puts
// the nodes of every graph in a random order. Node ids stay: they tell which node each one was.
void renameAndShuffle(ir::Model& m, unsigned seed) {
  std::vector<ir::Graph*> graphs;
  allGraphs(m.graph(), graphs);
  std::mt19937 rng(seed);
  std::map<std::string, std::string> names;
  auto fresh = [&](const std::string& old) {
    auto [it, added] = names.try_emplace(old, "");
    if (added) it->second = "v" + std::to_string(rng()) + "_" + std::to_string(names.size());
    return it->second;
  };
  for (ir::Graph* g : graphs) {
    for (ir::Value* v : g->values())
      if (!v->name().empty()) g->renameValue(v, fresh(v->name()));
    std::vector<ir::Node*> nodes;
    for (const auto& n : g->nodes()) {
      n->name = n->name.empty() ? std::string() : "n" + std::to_string(rng());
      nodes.push_back(n.get());
    }
    std::shuffle(nodes.begin(), nodes.end(), rng);
    for (ir::Node* n : nodes) g->moveBefore(n, nullptr);
  }
}

struct PairFigures {
  size_t nodes = 0, right = 0, wrong = 0;
};

// Pairs of nodes (any graph) checked against node ids: the clone keeps them.
PairFigures checkById(const diff::ModelDiff& d) {
  PairFigures f;
  for (const auto& g : d.graphs)
    for (const auto& n : g.nodes) {
      if (!n.a) continue;
      ++f.nodes;
      if (n.b && n.b->id() == n.a->id())
        ++f.right;
      else if (n.b)
        ++f.wrong;
    }
  return f;
}

const ir::Node* findNode(const ir::Graph& g, const std::string& op, size_t skip) {
  for (const auto& n : g.nodes())
    if (n->opType == op && skip-- == 0) return n.get();
  return nullptr;
}

}  // namespace

class DiffMatching : public QObject {
  Q_OBJECT
 private slots:
  void renamedAndShuffledPairsEveryNode_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }

  void renamedAndShuffledPairsEveryNode() {
    QFETCH(QString, file);
    auto a = loadModel(test::corpusModel(file).toStdString());
    auto b = a->clone();
    renameAndShuffle(*b, 7);
    for (bool useNames : {true, false}) {
      diff::DiffOptions o;
      o.match.useNames = useNames;
      const auto d = diff::diffModels(*a, *b, o);
      const PairFigures f = checkById(d);
      QVERIFY(f.nodes > 0);
      QVERIFY2(f.right == f.nodes, qPrintable(QString("%1 of %2 paired with their original, %3 with another node")
                                                  .arg(f.right)
                                                  .arg(f.nodes)
                                                  .arg(f.wrong)));
      const auto c = d.counts();
      QCOMPARE(c.changed, size_t(0));
      QCOMPARE(c.onlyA + c.onlyB + c.regions, size_t(0));
      QCOMPARE(c.weightsChanged + c.weightsOnlyA + c.weightsOnlyB, size_t(0));
      // Renaming shows in the signature only (the inputs' and outputs' names).
      for (const auto& s : d.signature) QVERIFY2(s.what.ends_with(" name"), s.what.c_str());
    }
  }

  void identicalModelsAreTheSame() {
    auto a = corpus("control_flow_op13.onnx");
    auto b = corpus("control_flow_op13.onnx");
    const auto d = diff::diffModels(*a, *b);
    QVERIFY(d.same());
    QVERIFY(d.graphs.size() >= 4);  // the main graph and the If/Loop bodies
  }

  // One attribute changed, one weight changed, one node removed, one inserted: those four and nothing else.
  void fourEditsAreReportedExactly() {
    auto a = corpus("mobilenet_v2_op11.onnx");
    auto b = a->clone();
    ir::Graph& g = b->graph();
    // The attribute: the strides of the 10th Conv.
    auto* conv = const_cast<ir::Node*>(findNode(g, "Conv", 10));
    QVERIFY(conv && conv->hasAttr("strides"));
    conv->setAttr(ir::Attribute::makeInts("strides", {3, 3}));
    // The weight: one element of the last Conv's kernel.
    const ir::Node* lastConv = findNode(g, "Conv", 51);
    QVERIFY(lastConv);
    ir::Value* wv = lastConv->input(1);
    QVERIFY(wv && wv->initializer());
    auto values = wv->initializer()->values<float>();
    values[values.size() / 2] += 0.25f;
    wv->initializer()->setBytes(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
    // The removal: the 5th Clip, its readers reading its input instead.
    auto* clip = const_cast<ir::Node*>(findNode(g, "Clip", 5));
    QVERIFY(clip);
    const std::string removed = clip->name;
    g.replaceAllUses(clip->output(0), clip->input(0));
    g.removeNode(clip);
    // The insertion: a Relu after the 30th Clip.
    const ir::Node* late = findNode(g, "Clip", 30);
    QVERIFY(late);
    ir::Value* v = late->output(0);
    ir::Value* relu = g.createUniqueValue("inserted_relu_out");
    g.replaceAllUses(v, relu);
    ir::Node* inserted = g.addNode("Relu", {v}, {relu});
    inserted->name = "inserted_relu";

    for (bool useNames : {true, false}) {
      diff::DiffOptions o;
      o.match.useNames = useNames;
      const auto d = diff::diffModels(*a, *b, o);
      const auto c = d.counts();
      const std::string text = diff::diffText(d, "a", "b", {});
      QVERIFY2(c.changed == 1 && c.onlyA == 1 && c.onlyB == 1 && c.regions == 0, text.c_str());
      QCOMPARE(c.weightsChanged, size_t(1));
      QCOMPARE(c.weightsOnlyA + c.weightsOnlyB, size_t(0));
      QVERIFY(d.signature.empty());
      for (const auto& n : d.graphs[0].nodes) {
        if (n.status == diff::Status::Changed) {
          QCOMPARE(n.a->id(), conv->id());
          QCOMPARE(n.attributes, std::vector<std::string>{"strides"});
        }
        if (n.status == diff::Status::OnlyA) QCOMPARE(n.a->name, removed);
        if (n.status == diff::Status::OnlyB) QCOMPARE(n.b->name, std::string("inserted_relu"));
        if (n.a && n.b) QCOMPARE(n.a->id(), n.b->id());
      }
      for (const auto& w : d.graphs[0].weights)
        if (w.status == diff::Status::Changed) {
          QCOMPARE(w.a->name, wv->name());
          QVERIFY(w.maxAbs && std::abs(*w.maxAbs - 0.25) < 1e-6);
          QCOMPARE(w.differing, size_t(1));
        }
    }
  }

  // The same network exported at opset 13 (LayerNormalization decomposed, Shape chains) and 17.
  void op13AgainstOp17() {
    auto a = corpus("transformer_encoder_op13_dyn.onnx");
    auto b = corpus("transformer_encoder_op17.onnx");
    const auto d = diff::diffModels(*a, *b);
    const auto c = d.counts();
    qInfo("%s", diff::diffText(d, "op13_dyn", "op17", {10, false}).c_str());
    // Every LayerNormalization of op17 is the region of its decomposition in op13.
    size_t layerNorms = 0;
    for (const auto& r : d.graphs[0].regions)
      for (const ir::Node* n : r.b) layerNorms += n->opType == "LayerNormalization";
    QCOMPARE(layerNorms, size_t(12));
    // Every MatMul, Gemm, Softmax and Relu of op17 pairs with one of op13.
    std::map<std::string, size_t> pairedOps;
    for (const auto& n : d.graphs[0].nodes)
      if (n.a && n.b) ++pairedOps[n.b->opType];
    QCOMPARE(pairedOps["MatMul"], size_t(30));
    QCOMPARE(pairedOps["Gemm"], size_t(6));
    QCOMPARE(pairedOps["Softmax"], size_t(6));
    QCOMPARE(pairedOps["Relu"], size_t(6));
    QCOMPARE(c.weightsSame, size_t(9));
    QVERIFY(!d.same());
  }

  // A model against what FlowBridge's default passes make of it.
  void rawAgainstItsOptimizedForm() {
    auto a = corpus("transformer_encoder_op13_raw.onnx");
    convert::ConvertOptions o;
    o.targetOpset = 13;
    auto r = convert::convertModel(*a, o);
    QVERIFY(r.model);
    const auto d = diff::diffModels(*a, *r.model);
    const auto c = d.counts();
    qInfo("%s", diff::diffText(d, "op13_raw", "optimized", {10, false}).c_str());
    // What the passes keep of the compute is paired: every MatMul, Gemm and Softmax of the result.
    std::map<std::string, size_t> paired, inB;
    for (const auto& n : d.graphs[0].nodes) {
      if (n.b) ++inB[n.b->opType];
      if (n.a && n.b) ++paired[n.b->opType];
    }
    for (const char* op : {"MatMul", "Gemm", "Softmax", "Relu"}) QCOMPARE(paired[op], inB[op]);
    QVERIFY(c.paired * 10 >= c.nodesB * 9);
  }

  // FlowBridge's conversion records where each node comes from (`origins`): the pairs it gives are the truth the
  // matcher must find on its own, by structure (names off) and with names.
  void conversionAgainstSourceFindsProvenancePairs_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("opset");
    QTest::newRow("transformer_op13_raw to 17") << "transformer_encoder_op13_raw.onnx" << 17;
    QTest::newRow("mobilenet_v2_op13_raw to 11") << "mobilenet_v2_op13_raw.onnx" << 11;
    QTest::newRow("efficientnet_b0_op13 to 17") << "efficientnet_b0_op13.onnx" << 17;
    QTest::newRow("control_flow_op13 to 11") << "control_flow_op13.onnx" << 11;
  }

  void conversionAgainstSourceFindsProvenancePairs() {
    QFETCH(QString, file);
    QFETCH(int, opset);
    auto a = loadModel(test::corpusModel(file).toStdString());
    convert::ConvertOptions o;
    o.targetOpset = opset;
    auto r = convert::convertModel(*a, o);
    QVERIFY(r.model);
    // A converted node with one origin of its own op type pairs with that source node.
    std::map<uint64_t, const ir::Node*> sourceById;
    std::vector<ir::Graph*> graphs;
    allGraphs(a->graph(), graphs);
    for (ir::Graph* g : graphs)
      for (const auto& n : g->nodes()) sourceById[n->id()] = n.get();
    std::map<const ir::Node*, const ir::Node*> truth;  // converted -> source
    std::vector<ir::Graph*> converted;
    allGraphs(r.model->graph(), converted);
    for (ir::Graph* g : converted)
      for (const auto& n : g->nodes()) {
        if (n->origins.size() != 1) continue;
        auto it = sourceById.find(n->origins[0]);
        if (it != sourceById.end() && it->second->opType == n->opType) truth[n.get()] = it->second;
      }
    QVERIFY(truth.size() > 0);
    for (bool useNames : {false, true}) {
      diff::DiffOptions dopts;
      dopts.match.useNames = useNames;
      const auto d = diff::diffModels(*a, *r.model, dopts);
      size_t found = 0;
      for (const auto& g : d.graphs)
        for (const auto& n : g.nodes)
          if (n.a && n.b)
            if (auto it = truth.find(n.b); it != truth.end() && it->second == n.a) ++found;
      const double share = double(found) / double(truth.size());
      qInfo("%s: names %s: %zu of %zu provenance pairs found (%.1f %%)", qPrintable(file), useNames ? "on" : "off",
            found, truth.size(), 100.0 * share);
      QVERIFY2(share >= 0.95, qPrintable(QString("%1 of %2").arg(found).arg(truth.size())));
    }
  }

  void jsonListsEveryPair() {
    auto a = corpus("super_resolution_op11.onnx");
    auto b = corpus("super_resolution_op17.onnx");
    const auto d = diff::diffModels(*a, *b);
    const auto j = diff::diffJson(d, "a.onnx", "b.onnx");
    QCOMPARE(j["nodes"].size(), d.graphs[0].nodes.size());
    for (const auto& row : j["nodes"]) {
      QVERIFY(row.contains("a") && row.contains("b") && row.contains("status"));
      const std::string s = row["status"];
      QVERIFY(s == "same" || s == "changed" || s == "only_a" || s == "only_b");
    }
    QCOMPARE(j["weights"].size(), size_t(8));
    for (const auto& w : j["weights"]) QVERIFY(w.contains("max_abs_diff"));
  }

  void cancelStopsTheMatch() {
    auto a = corpus("transformer_encoder_op13_dyn.onnx");
    std::atomic<bool> cancel{true};
    diff::DiffOptions o;
    o.match.cancel = &cancel;
    const auto d = diff::diffModels(*a, *a, o);
    QVERIFY(d.cancelled);
  }
};

QTEST_GUILESS_MAIN(DiffMatching)
#include "test_diff_matching.moc"
