// Topological order, cycle reports and graph rewiring in the IR.
#include <QtTest>

#include "formats/onnx/onnx_proto_import.h"
#include "ir/model.h"
#include "ir/topo_sort.h"
#include "support/proto_builders.h"
#include "util/error.h"

using namespace fb;

namespace {
std::unique_ptr<ir::Model> import(onnx::ModelProto p) {
  onnxfmt::ImportOptions o;
  o.modelPath = "test.onnx";
  return onnxfmt::importModel(p, o);
}
std::vector<std::string> names(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const auto& n : g.nodes()) out.push_back(n->name);
  return out;
}
}  // namespace

class IrTopology : public QObject {
  Q_OBJECT
 private slots:
  void sortedGraphKeepsItsOrder() {
    auto m = import(test::reluChain(5));
    QCOMPARE(names(m->graph()), (std::vector<std::string>{"relu0", "relu1", "relu2", "relu3", "relu4"}));
    auto r = ir::topologicalSort(m->graph());
    QVERIFY(r.ok);
    QVERIFY(!r.reordered);
  }

  void outOfOrderNodesAreSorted() {
    auto m = import(test::reluChain(5, {3, 1, 4, 0, 2}));
    QCOMPARE(names(m->graph()), (std::vector<std::string>{"relu0", "relu1", "relu2", "relu3", "relu4"}));
  }

  void cycleIsReportedWithItsNodes() {
    try {
      import(test::cyclicModel());
      QFAIL("a cyclic graph was accepted");
    } catch (const InputError& e) {
      QCOMPARE(e.file(), std::string("test.onnx"));
      std::string what = e.what();
      QVERIFY2(what.find("cycle") != std::string::npos, e.what());
      QVERIFY2(what.find("join") != std::string::npos && what.find("loop_back") != std::string::npos, e.what());
    }
  }

  void undefinedInputIsReported() {
    try {
      import(test::undefinedInputModel());
      QFAIL("an undefined input was accepted");
    } catch (const InputError& e) {
      std::string what = e.what();
      QVERIFY2(what.find("'ghost'") != std::string::npos && what.find("adder") != std::string::npos, e.what());
    }
  }

  void rewiringKeepsUseListsRight() {
    auto m = import(test::reluChain(3));
    ir::Graph& g = m->graph();
    ir::Value* v0 = g.findValue("v0");
    ir::Value* v1 = g.findValue("v1");
    ir::Node* relu1 = v0->uses()[0].node;
    ir::Node* relu2 = v1->uses()[0].node;
    // Bypass relu1: relu2 now reads v0 directly.
    g.replaceAllUses(v1, v0);
    QCOMPARE(v1->uses().size(), size_t(0));
    QCOMPARE(v0->uses().size(), size_t(2));
    QCOMPARE(relu2->input(0), v0);
    g.removeNode(relu1);
    QCOMPARE(v0->uses().size(), size_t(1));
    QVERIFY(v1->producer() == nullptr);
    g.pruneValues();
    QVERIFY(g.findValue("v1") == nullptr);
    QCOMPARE(g.nodeCount(), size_t(2));
    // Replacing a graph output keeps the output list right.
    ir::Value* y = g.findValue("y");
    QVERIFY(y->isGraphOutput());
    g.replaceAllUses(y, v0);
    QVERIFY(!y->isGraphOutput());
    QVERIFY(v0->isGraphOutput());
    QCOMPARE(g.outputs()[0], v0);
  }

  void newNodesCanBeInsertedAndSorted() {
    auto m = import(test::reluChain(2));
    ir::Graph& g = m->graph();
    ir::Value* v0 = g.findValue("v0");
    ir::Value* t = g.createUniqueValue("v0");
    QVERIFY(t->name() != "v0");
    // Appended at the end although its consumer comes earlier: sorting moves it into place.
    ir::Node* extra = g.addNode("Sigmoid", {v0}, {t});
    extra->name = "extra";
    g.findValue("y")->producer()->setInput(0, t);
    auto r = ir::topologicalSort(g);
    QVERIFY(r.ok);
    QVERIFY(r.reordered);
    QCOMPARE(names(g), (std::vector<std::string>{"relu0", "extra", "relu1"}));
  }
};

QTEST_GUILESS_MAIN(IrTopology)
#include "test_ir_topology.moc"
