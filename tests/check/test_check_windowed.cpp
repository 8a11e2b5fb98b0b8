// The windowed check (node-heavy graphs: libonnx sees the main graph a window of nodes at a time) must say what
// the whole-model check says: the same verdict on every corpus model at several window sizes, and the same
// message for faults placed late in the graph, where only a later window sees them (an unknown op, an attribute
// of the wrong type, an initializer whose type breaks strict inference), on corpus models and on a chain long
// enough for checkModel to choose windows itself.
#include <QtTest>

#include "check/onnx_check.h"
#include "formats/model_io.h"
#include "support/helpers.h"
#include "passes/pass_graph.h"

using namespace fb;

namespace {

using Fault = std::function<bool(ir::Model&)>;  // false: the model has no place for this fault

// The first node in the second half of the graph that `pick` accepts.
ir::Node* lateNode(ir::Model& m, const std::function<bool(ir::Node&)>& pick) {
  size_t i = 0, half = m.graph().nodeCount() / 2;
  for (const auto& n : m.graph().nodes())
    if (i++ >= half && pick(*n)) return n.get();
  return nullptr;
}

const std::vector<std::pair<const char*, Fault>>& faults() {
  static const std::vector<std::pair<const char*, Fault>> all = {
      {"unknown op",
       [](ir::Model& m) {
         ir::Node* n = lateNode(m, [](ir::Node& n) { return n.isDefaultDomain() && n.subgraphs().empty(); });
         if (n) n->opType = "NoSuchOp";
         return n != nullptr;
       }},
      {"attribute of the wrong type",
       [](ir::Model& m) {
         ir::Node* n = lateNode(m, [](ir::Node& n) {
           for (const auto& a : n.attributes)
             if (a.type == ir::AttrType::Int) return true;
           return false;
         });
         if (!n) return false;
         for (auto& a : n->attributes)
           if (a.type == ir::AttrType::Int) {
             a.type = ir::AttrType::Float;
             a.f = float(a.i);
             break;
           }
         return true;
       }},
      {"initializer of the wrong type",
       [](ir::Model& m) {
         // A float weight read by a MatMul/Gemm/Add late in the graph, made double: strict inference rejects the
         // node (its type parameter binds to two types).
         ir::Node* n = lateNode(m, [](ir::Node& n) {
           if (n.opType != "MatMul" && n.opType != "Gemm" && n.opType != "Add") return false;
           for (ir::Value* v : n.inputs())
             if (v && v->initializer() && v->initializer()->dtype == ir::DataType::Float && v->uses().size() == 1)
               return true;
           return false;
         });
         if (!n) return false;
         for (ir::Value* v : n->inputs())
           if (v && v->initializer() && v->initializer()->dtype == ir::DataType::Float && v->uses().size() == 1) {
             v->initializer()->dtype = ir::DataType::Double;
             v->type.elemType = ir::DataType::Double;
             break;
           }
         return true;
       }},
  };
  return all;
}

void compareVerdicts(const CheckResult& whole, const std::optional<CheckResult>& windowed, const QString& what) {
  QVERIFY2(windowed.has_value(), qPrintable(what + ": the windowed check gave up"));
  QVERIFY2(whole.ok == windowed->ok, qPrintable(what + ": whole " + (whole.ok ? "ok" : "fails") + ", windowed " +
                                                (windowed->ok ? "ok" : "fails")));
  if (!whole.ok) {
    QVERIFY(!whole.messages.empty() && !windowed->messages.empty());
    QCOMPARE(QString::fromStdString(windowed->messages[0].message), QString::fromStdString(whole.messages[0].message));
    QCOMPARE(QString::fromStdString(windowed->messages[0].node), QString::fromStdString(whole.messages[0].node));
  }
}

// A chain of kCheckWindowFrom + 500 nodes (Softmax, Add with a 1 KB bias, Transpose) over [1, 16, 16].
std::unique_ptr<ir::Model> longChain() {
  test::GraphBuilder b(13);
  ir::Value* h = b.input("x", {1, 16, 16});
  for (size_t i = 0; b.g().nodeCount() < kCheckWindowFrom + 500; ++i) {
    const std::string k = std::to_string(i);
    h = b.node("Softmax", {h}, {"s" + k}, {ir::Attribute::makeInt("axis", -1)})->output(0);
    h = b.node("Add", {h, b.random("bias" + k, {16, 16})}, {"a" + k})->output(0);
    h = b.node("Transpose", {h}, {"t" + k}, {ir::Attribute::makeInts("perm", {0, 2, 1})})->output(0);
  }
  b.g().addOutput(h);
  h->type = test::GraphBuilder::type(ir::DataType::Float, {1, 16, 16});
  return std::move(b.model);
}

}  // namespace

class CheckWindowed : public QObject {
  Q_OBJECT
 private slots:
  void corpusModelsGetTheSameVerdict() {
    size_t windowedModels = 0;
    for (const QString& path : test::corpusModels()) {
      auto m = loadModel(test::corpusModel(path).toStdString());
      const CheckResult whole = checkModel(*m);  // corpus models are under kCheckWindowFrom nodes: checked whole
      QVERIFY2(whole.ok, qPrintable(path));
      bool allWindows = true;
      for (size_t w : {1, 7, 64}) {
        auto windowed = checkModelInWindows(*m, w);
        if (!windowed) {
          allWindows = false;  // a boundary value inference leaves without a full type: checked whole instead
          continue;
        }
        compareVerdicts(whole, windowed, path + " window " + QString::number(w));
      }
      windowedModels += allWindows;
    }
    qInfo("%zu corpus models checked in windows of 1, 7 and 64 nodes", windowedModels);
    QVERIFY(windowedModels >= 5);
  }

  void lateFaultsGetTheSameMessage() {
    size_t compared = 0;
    for (const QString& path : test::corpusModels()) {
      for (const auto& [name, fault] : faults()) {
        auto m = loadModel(test::corpusModel(path).toStdString());
        if (!fault(*m)) continue;
        const CheckResult whole = checkModel(*m);
        QVERIFY2(!whole.ok, qPrintable(path + ": " + name + " not caught"));
        auto windowed = checkModelInWindows(*m, 5);
        if (!windowed) continue;
        compareVerdicts(whole, windowed, path + ": " + name);
        ++compared;
      }
    }
    qInfo("%zu faulty corpus models compared", compared);
    QVERIFY(compared >= 10);
  }

  void longGraphsAreCheckedInWindows() {
    auto m = longChain();
    QVERIFY(checkModelInWindows(*m, kCheckWindowNodes).has_value());  // what checkModel will use
    const CheckResult ok = checkModel(*m);
    QVERIFY2(ok.ok, ok.messages.empty() ? "" : ok.messages[0].message.c_str());
    for (const auto& [name, fault] : faults()) {
      auto bad = longChain();
      QVERIFY2(fault(*bad), name);
      const CheckResult windowed = checkModel(*bad);
      const auto whole = checkModelInWindows(*bad, bad->graph().nodeCount());  // one window: the whole graph
      compareVerdicts(windowed, whole, name);
      QVERIFY2(!windowed.ok, name);
    }
  }
};

QTEST_GUILESS_MAIN(CheckWindowed)
#include "test_check_windowed.moc"
