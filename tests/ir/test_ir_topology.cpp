// Topological order, cycle reports and graph rewiring in the IR.
#include <QtTest>

#include <set>

#include "formats/onnx/onnx_proto_import.h"
#include "ir/change_journal.h"
#include "ir/model.h"
#include "passes/nodes_near_changes.h"
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

  void orderKeysFollowTheNodeList() {
    auto m = import(test::reluChain(4));
    ir::Graph& g = m->graph();
    auto increasing = [&] {
      uint64_t prev = 0;
      for (const auto& n : g.nodes())
        if (std::exchange(prev, n->orderKey()) >= n->orderKey()) return false;
      return true;
    };
    QVERIFY(increasing());
    // A hundred insertions at one place use up the gap between two keys many times over: the keys are spread again.
    ir::Node* last = g.findValue("y")->producer();
    for (int k = 0; k < 100; ++k) g.addNode("Identity", {g.findValue("v0")}, {g.createUniqueValue("t")}, "", last);
    QVERIFY(increasing());
    g.moveBefore(last, g.nodes().front().get());
    QVERIFY(increasing());
    QVERIFY(ir::topologicalSort(g).reordered);  // the sort moves it back: keys still follow the list
    QVERIFY(increasing());
    QVERIFY(g.nodes().front().get() != last);
  }

  void journalNotesWhatRewritesTouch() {
    auto m = import(test::reluChain(4));  // x -> relu0 -> v0 -> relu1 -> v1 -> relu2 -> v2 -> relu3 -> y
    ir::Graph& g = m->graph();
    ir::Node* relu0 = g.findValue("v0")->producer();
    ir::Node* relu1 = g.findValue("v1")->producer();
    ir::Node* relu2 = g.findValue("v2")->producer();
    ir::Node* relu3 = g.findValue("y")->producer();
    ir::ChangeJournal j;
    g.setJournal(&j);
    auto touchedFrom = [&](size_t from) {
      std::set<ir::Node*> s;
      for (size_t k = from; k < j.position(); ++k)
        if (j.alive(j.entries()[k])) s.insert(j.entries()[k].node);
      return s;
    };
    // relu2 reads v0 instead of v1: relu2, and the producers of both values (their readers changed).
    relu2->setInput(0, g.findValue("v0"));
    QCOMPARE(touchedFrom(0), (std::set<ir::Node*>{relu0, relu1, relu2}));
    // relu1 is unread and goes: its entries say so without reading it, and relu0's readers changed again.
    size_t at = j.position();
    const uint64_t gone = relu1->id();
    g.removeNode(relu1);
    QCOMPARE(touchedFrom(at), (std::set<ir::Node*>{relu0}));
    size_t removedEntries = 0;
    for (const auto& e : j.entries())
      if (e.id == gone) {
        QVERIFY(!j.alive(e));
        ++removedEntries;
      }
    QVERIFY(removedEntries > 0);
    // v2 becomes a constant in place: its reader sees it, also at the end of an Identity chain.
    ir::Value* i1 = g.createUniqueValue("i1");
    ir::Value* i2 = g.createUniqueValue("i2");
    g.addNode("Identity", {g.findValue("v2")}, {i1});
    ir::Node* identity2 = g.addNode("Identity", {i1}, {i2});
    ir::Node* reader = g.addNode("Relu", {i2}, {g.createUniqueValue("r")});
    g.removeNode(relu2);
    at = j.position();
    g.addInitializer(ir::Tensor::fromValues<float>("v2", ir::DataType::Float, {1}, std::vector<float>{1.f}));
    const auto touched = touchedFrom(at);
    QVERIFY(touched.count(relu3) && touched.count(identity2) && touched.count(reader));
    // Nodes near the change: radius 0 is what was noted, radius 1 adds producers, fellow readers and readers.
    auto near0 = passes::nodesNearChanges(j, at, g, 0);
    QVERIFY(near0 && !std::count(near0->begin(), near0->end(), relu0));
    auto near1 = passes::nodesNearChanges(j, j.position() - 1, g, 1);  // the last entry only: `reader`
    QVERIFY(near1);
    QCOMPARE(*near1, (std::vector<ir::Node*>{identity2, reader}));  // in graph order; `reader`'s output is unread
    g.setJournal(nullptr);
    const size_t before = j.position();
    relu3->setInput(0, i2);
    QCOMPARE(j.position(), before);  // detached: nothing noted
  }
};

QTEST_GUILESS_MAIN(IrTopology)
#include "test_ir_topology.moc"
