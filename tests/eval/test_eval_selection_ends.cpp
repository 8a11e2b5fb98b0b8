// Where a selection of nodes is cut (Extract Subgraph...): on squeezenet's first Fire module (squeeze Conv and Relu,
// two expand Conv/Relu branches, Concat), the whole module starts at the module's input and gives the Concat's
// output; part of it gives the values the rest of the graph reads; a selection with a gap starts at the values the
// gap computes; the last node gives the graph output; weights are never inputs, nor are values computed from weights
// alone (an Identity of a weight outside the selection).
#include <QtTest>

#include "eval/verify/extract_subgraph.h"
#include "eval/verify/selection_ends.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"
#include "support/helpers.h"

using namespace fb;

namespace {

const ir::Node* producerOfInput(const ir::Node* n, size_t k) { return n->input(k) ? n->input(k)->producer() : nullptr; }

std::vector<std::string> names(std::initializer_list<const ir::Value*> values) {
  std::vector<std::string> out;
  for (const ir::Value* v : values) out.push_back(v->name());
  return out;
}

}  // namespace

class TestEvalSelectionEnds : public QObject {
  Q_OBJECT
 private slots:
  void fireModule() {
    auto m = loadModel(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
    const ir::Node* concat = nullptr;
    for (const auto& n : m->graph().nodes())
      if (n->opType == "Concat") {
        concat = n.get();
        break;
      }
    QVERIFY(concat && concat->inputs().size() == 2);
    const ir::Node* relu1 = producerOfInput(concat, 0);
    const ir::Node* relu3 = producerOfInput(concat, 1);
    QVERIFY(relu1 && relu3 && relu1->opType == "Relu" && relu3->opType == "Relu");
    const ir::Node* conv1 = producerOfInput(relu1, 0);
    const ir::Node* conv3 = producerOfInput(relu3, 0);
    const ir::Node* squeezeRelu = producerOfInput(conv1, 0);
    QVERIFY(squeezeRelu && squeezeRelu == producerOfInput(conv3, 0));
    const ir::Node* squeezeConv = producerOfInput(squeezeRelu, 0);
    QVERIFY(squeezeConv && squeezeConv->opType == "Conv");

    auto ends = eval::endsOfSelection({concat, relu3, conv3, relu1, conv1, squeezeRelu, squeezeConv});
    // The weights stay inside, and so does the bias the export computes with an Identity of a weight outside the
    // module: a value computed from weights only is carried, not asked for.
    QVERIFY(conv3->input(2) && conv3->input(2)->producer() && conv3->input(2)->producer()->opType == "Identity");
    QCOMPARE(ends.inputs, names({squeezeConv->input(0)}));
    QCOMPARE(ends.outputs, names({concat->output(0)}));
    // The cut then holds that Identity, and the extracted model needs nothing else.
    auto sub = eval::extractSubgraph(*m, ends.outputs, ends.inputs);
    QCOMPARE(int(sub->graph().inputs().size()), 1);
    bool carried = false;
    for (const auto& n : sub->graph().nodes()) carried |= n->opType == "Identity";
    QVERIFY(carried);

    ends = eval::endsOfSelection({squeezeConv, squeezeRelu});
    QCOMPARE(ends.inputs, names({squeezeConv->input(0)}));
    QCOMPARE(ends.outputs, names({squeezeRelu->output(0)}));

    // A gap: the Concat reads both Relus from outside; the Conv's output is read by a Relu outside.
    ends = eval::endsOfSelection({concat, conv1});
    QCOMPARE(ends.inputs, names({squeezeRelu->output(0), relu1->output(0), relu3->output(0)}));
    QCOMPARE(ends.outputs, names({conv1->output(0), concat->output(0)}));

    const ir::Node* last = m->graph().nodes().back().get();
    ends = eval::endsOfSelection({last});
    QCOMPARE(ends.outputs, names({m->graph().outputs().front()}));
    QVERIFY(eval::endsOfSelection({}).outputs.empty());
  }
};

QTEST_GUILESS_MAIN(TestEvalSelectionEnds)
#include "test_eval_selection_ends.moc"
