// The IR's rarely-set fields (ir/rare.h) behave as the std::string / std::vector / std::optional they replace:
// copies are deep, equality is by content, an emptied field equals one never set, and clones keep them.
#include <QtTest>

#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_export.h"
#include "ir/model.h"
#include "ir/rare.h"
#include "support/helpers.h"

using namespace fb;
using ir::RareOptional;
using ir::RareString;
using ir::RareVector;

namespace {
std::string serialized(const ir::Model& m) {
  onnx::ModelProto p;
  onnxfmt::exportModel(m, p);
  std::string out;
  p.SerializeToString(&out);
  return out;
}
}  // namespace

class IrRareFields : public QObject {
  Q_OBJECT
 private slots:
  void stringCopiesAreDeep() {
    RareString a = "doc";
    RareString b = a;
    b.edit() += " more";
    QCOMPARE(a.str(), std::string("doc"));
    QCOMPARE(b.str(), std::string("doc more"));
    RareString c;
    c = a;
    a = "changed";
    QCOMPARE(c.str(), std::string("doc"));
  }

  void stringsCompareByContent() {
    RareString a = "x";
    RareString b = std::string("x");
    QVERIFY(a == b);
    QVERIFY(a == "x");
    QVERIFY(a == std::string("x"));
    QVERIFY(std::string("x") == a);
    QVERIFY(a != "y");
    QVERIFY(a + "y" == std::string("xy"));
  }

  void emptiedStringEqualsNeverSet() {
    const RareString never;
    RareString assignedEmpty = "text";
    assignedEmpty = std::string();
    RareString cleared = "text";
    cleared.clear();
    RareString editedButEmpty;
    editedButEmpty.edit();  // allocated, still empty
    for (const RareString* s : {&assignedEmpty, &cleared, &editedButEmpty}) {
      QVERIFY(s->empty());
      QCOMPARE(s->size(), size_t(0));
      QVERIFY(*s == never);
      QVERIFY(*s == "");
      QCOMPARE(static_cast<const std::string&>(*s), std::string());
    }
    QVERIFY(RareString(editedButEmpty) == never);
  }

  void vectorCopiesAreDeep() {
    RareVector<std::string> a{"p", "q"};
    RareVector<std::string> b = a;
    b.push_back("r");
    b[0] = "changed";
    QCOMPARE(a.vec(), (std::vector<std::string>{"p", "q"}));
    QCOMPARE(b.vec(), (std::vector<std::string>{"changed", "q", "r"}));
    QVERIFY(a != b);
    b = a;
    QVERIFY(a == b);
  }

  void emptiedVectorEqualsNeverSet() {
    const RareVector<float> never;
    RareVector<float> cleared{1.f};
    cleared.clear();
    RareVector<float> assignedEmpty{2.f};
    assignedEmpty = std::vector<float>{};
    RareVector<float> resized{3.f, 4.f};
    resized.resize(0);
    RareVector<float> editedButEmpty;
    editedButEmpty.edit();
    for (const RareVector<float>* v : {&cleared, &assignedEmpty, &resized, &editedButEmpty}) {
      QVERIFY(v->empty());
      QVERIFY(*v == never);
      QVERIFY(*v == std::vector<float>{});
      QVERIFY(v->begin() == v->end());
    }
    RareVector<float> mutableNever;
    int visited = 0;
    for (float& f : mutableNever) visited += static_cast<int>(f);  // iterating a never-set vector is empty
    QCOMPARE(visited, 0);
  }

  void optionalCopiesAreDeep() {
    using Segment = RareOptional<std::pair<int64_t, int64_t>>;
    Segment a;
    QVERIFY(!a);
    a = std::make_pair(int64_t(2), int64_t(5));
    Segment b = a;
    b->second = 9;
    QCOMPARE(a->second, int64_t(5));
    QVERIFY(!(a == b));
    b = std::nullopt;
    QVERIFY(!b.has_value());
    QVERIFY(b == Segment());
  }

  void attributeCopiesAreDeep() {
    ir::Tensor t = ir::Tensor::fromValues<float>("w", ir::DataType::Float, {2}, {1.f, 2.f});
    t.docString = "weights";
    t.segment = std::make_pair(int64_t(0), int64_t(2));
    ir::Attribute a = ir::Attribute::makeTensor("value", t);
    a.strings = {"s0", "s1"};
    a.docString = "attr doc";
    ir::Attribute b = a;
    b.tensors[0].docString = "other";
    b.tensors[0].segment->second = 7;
    b.strings.push_back("s2");
    b.docString.clear();
    QCOMPARE(a.tensors[0].docString.str(), std::string("weights"));
    QCOMPARE(a.tensors[0].segment->second, int64_t(2));
    QCOMPARE(a.strings.size(), size_t(2));
    QCOMPARE(a.docString.str(), std::string("attr doc"));
    QVERIFY(b.docString == RareString());
  }

  void dimEqualityCountsParamAndDenotation() {
    QVERIFY(ir::Dim::named("batch") == ir::Dim::named("batch"));
    QVERIFY(!(ir::Dim::named("batch") == ir::Dim::named("seq")));
    ir::Dim withDenotation = ir::Dim::of(3);
    withDenotation.denotation = "DATA_CHANNEL";
    QVERIFY(!(withDenotation == ir::Dim::of(3)));
    withDenotation.denotation = "";
    QVERIFY(withDenotation == ir::Dim::of(3));
    ir::TypeInfo a = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::named("n"), ir::Dim::of(3)});
    ir::TypeInfo b = a;
    (*b.shape)[0].param = "m";
    QCOMPARE((*a.shape)[0].param.str(), std::string("n"));
    QVERIFY(!(a == b));
  }

  void containerTypeCopiesAreDeep() {
    ir::TypeInfo seq;
    seq.kind = ir::TypeInfo::Kind::Sequence;
    seq.inner = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::named("n")});
    ir::TypeInfo copy = seq;
    QVERIFY(copy == seq);
    QCOMPARE(copy.toString(), std::string("seq(float[n])"));
    (*copy.inner->shape)[0] = ir::Dim::of(4);
    QCOMPARE(seq.toString(), std::string("seq(float[n])"));
    QVERIFY(!(copy == seq));
    copy.inner.reset();
    QCOMPARE(copy.toString(), std::string("seq(?)"));
  }

  void valueFlagsAndCountsAreKept() {
    ir::Model m;
    ir::Graph& g = m.graph();
    ir::Value* x = g.getOrCreateValue("x");
    g.addInput(x);
    ir::Value* y = g.getOrCreateValue("y");
    g.addNode("Relu", {x}, {g.getOrCreateValue("unused"), y});
    g.addOutput(y);
    g.addOutput(y);
    g.addValueInfo(y);
    QVERIFY(x->isGraphInput());
    QVERIFY(!x->isGraphOutput());
    QCOMPARE(y->graphOutputCount(), 2);
    QCOMPARE(y->producerOutput(), 1);
    QVERIFY(y->hasValueInfo());
    QVERIFY(!y->isGraphInput());
    g.clearOutputs();
    QCOMPARE(y->graphOutputCount(), 0);
    QVERIFY(y->hasValueInfo());
    g.markOuterScope(x);
    QVERIFY(x->isOuterScope());
    QVERIFY(x->isGraphInput());
  }

  void dimWithParamSurvivesClone() {
    ir::Model m;
    ir::Graph& g = m.graph();
    ir::Value* x = g.getOrCreateValue("x");
    ir::Dim batch = ir::Dim::named("batch");
    batch.denotation = "DATA_BATCH";
    x->type = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{batch, ir::Dim::of(3)});
    x->type.denotation = "TENSOR";
    x->docString = "the input";
    g.addInput(x);
    ir::Value* y = g.getOrCreateValue("y");
    ir::Node* relu = g.addNode("Relu", {x}, {y});
    relu->docString = "relu doc";
    g.addOutput(y);

    auto copy = m.clone();
    const ir::Value* cx = copy->graph().findValue("x");
    QVERIFY(cx);
    QVERIFY(cx->type == x->type);
    QCOMPARE((*cx->type.shape)[0].param.str(), std::string("batch"));
    QCOMPARE((*cx->type.shape)[0].denotation.str(), std::string("DATA_BATCH"));
    QCOMPARE(cx->docString.str(), std::string("the input"));
    QCOMPARE(copy->graph().nodes().front()->docString.str(), std::string("relu doc"));
    (*copy->graph().findValue("x")->type.shape)[0].param = "other";
    QCOMPARE((*x->type.shape)[0].param.str(), std::string("batch"));
  }

  // On real models: a clone writes the same bytes as its source, and editing the clone leaves the source alone.
  void corpusModelsCloneExactly_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }
  void corpusModelsCloneExactly() {
    QFETCH(QString, file);
    auto source = loadModel(test::corpusModel(file).toStdString());
    const std::string before = serialized(*source);
    auto copy = source->clone();
    QVERIFY(serialized(*copy) == before);
    for (const auto& n : copy->graph().nodes()) {
      n->docString = "edited";
      for (auto& a : n->attributes) a.strings.push_back("extra");
    }
    for (const auto& t : copy->graph().initializers()) t->docString = "edited";
    for (ir::Value* v : copy->graph().values()) v->docString = "edited";
    QVERIFY(serialized(*copy) != before);
    QVERIFY(serialized(*source) == before);
  }
};

QTEST_GUILESS_MAIN(IrRareFields)
#include "test_ir_rare_fields.moc"
