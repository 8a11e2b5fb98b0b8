// The verification core in process: a conversion handler broken through the core API (a registry override) is
// located by compareModels at the node it broke, through the provenance recordProvenance writes (model-level below
// IR 10, node metadata_props from IR 10) and that survives a write and a read; pairing by value name without it;
// seeded inputs are repeatable and size symbolic dims as asked.
#include <QtTest>

#include "convert/builtin_handlers.h"
#include "convert/converter.h"
#include "convert/handler_registry.h"
#include "eval/verify/model_compare.h"
#include "eval/verify/provenance.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/node.h"
#include "support/helpers.h"
#include "support/proto_builders.h"

using namespace fb;

namespace {

// Relu chain x -> relu0 -> relu1 -> relu2 -> y, opset 13.
std::unique_ptr<ir::Model> chain(const QString& dir) {
  const std::string path = (dir + "/chain.onnx").toStdString();
  test::saveProto(test::reluChain(3), path);
  return loadModel(path);
}

// Converts with the Relu handler replaced by one computing Add(x, x) for the node named `broken` (at every
// since-version, so it wins at any target; the override lasts for this test process, whose other functions
// convert nothing).
std::unique_ptr<ir::Model> convertWithBrokenRelu(const ir::Model& source, int64_t opset, const std::string& broken) {
  convert::registerBuiltinHandlers();
  auto& registry = convert::HandlerRegistry::forDirection("onnx");
  for (int64_t since = 1; since <= 26; ++since)
    registry.add({"", "Relu", since, "broken on purpose", [broken](ir::Node& n, convert::HandlerContext& ctx) {
                    if (n.name != broken || !ctx.commit()) return;
                    ir::Value* x = n.input(0);
                    n.opType = "Add";
                    n.addInput(x);
                  }});
  auto work = source.clone();
  const auto names = eval::nodeNamesById(*work);
  convert::ConvertOptions o;
  o.targetOpset = opset;
  o.passes = std::vector<std::string>{};
  auto r = convert::convertModel(std::move(work), o);
  if (!r.model) return nullptr;
  eval::recordProvenance(*r.model, names);
  return std::move(r.model);
}

}  // namespace

class EvalVerify : public QObject {
  Q_OBJECT
 private slots:
  void theBrokenNodeIsFoundThroughProvenance_data() {
    QTest::addColumn<int>("opset");
    QTest::newRow("opset 11, IR 6: model-level entry") << 11;
    QTest::newRow("opset 21, IR 10: node metadata_props") << 21;
  }
  void theBrokenNodeIsFoundThroughProvenance() {
    QFETCH(int, opset);
    const QString dir = test::scratchDir("eval_verify_broken");
    auto a = chain(dir);
    auto b = convertWithBrokenRelu(*a, opset, "relu1");
    QVERIFY(b);
    // Through a file, as `compare` sees it.
    const std::string path = (dir + "/b.onnx").toStdString();
    onnxfmt::writeOnnxFile(*b, path);
    auto bRead = loadModel(path);
    const bool modelLevel = std::any_of(bRead->metadata.begin(), bRead->metadata.end(),
                                        [](const auto& kv) { return kv.first == eval::kModelProvenanceKey; });
    QCOMPARE(modelLevel, opset < 21);
    const auto recorded = eval::readProvenance(*bRead);
    QVERIFY(recorded.has_value());

    const auto inputs = eval::makeInputs(*a, {}, {}, 3);
    const auto cmp = eval::compareModels(*a, *bRead, inputs.values, eval::Tolerance{});
    QVERIFY(cmp.provenance);
    QVERIFY(cmp.firstDivergence.has_value());
    QCOMPARE(cmp.firstDivergence->bNode, std::string("relu1"));
    QCOMPARE(cmp.firstDivergence->op, std::string("Add"));
    QCOMPARE(cmp.firstDivergence->aOp, std::string("Relu"));
    // relu0's output agrees; relu1's (2x instead of x) and relu2's after it do not.
    QCOMPARE(cmp.compared, size_t{3});  // the three nodes' outputs (y among them)
    QCOMPARE(cmp.disagreeing, size_t{2});
    QVERIFY(!cmp.outputs.front().diff.agree);
  }

  void pairsByNameWithoutProvenance() {
    const QString dir = test::scratchDir("eval_verify_names");
    auto a = chain(dir);
    auto b = chain(dir);
    QVERIFY(!eval::readProvenance(*b).has_value());
    const auto p = eval::pairValues(*a, *b);
    QVERIFY(!p.provenance);
    QCOMPARE(p.pairs.size(), size_t{3});
    QCOMPARE(p.pairs[1].aValue, std::string("v1"));
    const auto cmp = eval::compareModels(*a, *b, eval::makeInputs(*a, {}, {}, 1).values, eval::Tolerance{0, 0});
    QCOMPARE(cmp.disagreeing, size_t{0});
    QVERIFY(!cmp.firstDivergence);
  }

  void seededInputsAreRepeatableAndSized() {
    auto m = std::make_unique<ir::Model>();
    ir::Value* x = m->graph().getOrCreateValue("x");
    x->type = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(3)});
    m->graph().addInput(x);
    ir::Value* n = m->graph().getOrCreateValue("n");
    n->type = ir::TypeInfo::tensor(ir::DataType::Int64, ir::Shape{ir::Dim::named("len")});
    m->graph().addInput(n);
    const auto a = eval::makeInputs(*m, {}, {{"batch", 5}}, 42);
    const auto b = eval::makeInputs(*m, {}, {{"batch", 5}}, 42);
    const auto c = eval::makeInputs(*m, {}, {{"batch", 5}}, 43);
    QCOMPARE(a.values.at("x").tensor().dims(), (std::vector<int64_t>{5, 3}));
    QCOMPARE(a.values.at("n").tensor().dims(), (std::vector<int64_t>{1}));
    QCOMPARE(a.notes.size(), size_t{1});
    QVERIFY(QString::fromStdString(a.notes[0]).contains("dim 'len' = 1"));
    QCOMPARE(a.values.at("x").tensor().toDoubles(), b.values.at("x").tensor().toDoubles());
    QVERIFY(a.values.at("x").tensor().toDoubles() != c.values.at("x").tensor().toDoubles());
    for (double v : a.values.at("x").tensor().toDoubles()) QVERIFY(v >= -1 && v < 1);
    for (int64_t v : a.values.at("n").tensor().toInt64s()) QVERIFY(v >= 1 && v <= 3);
  }
};

QTEST_GUILESS_MAIN(EvalVerify)
#include "test_eval_verify.moc"
