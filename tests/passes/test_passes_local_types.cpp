// refreshValueTypesOf against the whole-graph refreshValueTypes on the real corpus models: values whose types
// are cleared come back exactly as whole-graph inference types them (sampled nodes handed in together, and a chain
// where only its first node is handed in, so the rest must come from the downstream cascade); complete types,
// graph outputs and graph inputs are never written.
#include <QtTest>

#include <QElapsedTimer>

#include <unordered_map>

#include "formats/onnx/onnx_reader.h"
#include "passes/value_types.h"
#include "support/helpers.h"

using namespace fb;
using namespace fb::test;

namespace {

std::unique_ptr<ir::Model> load(const QString& path) { return onnxfmt::readOnnxFile(path.toStdString()); }

bool complete(const ir::TypeInfo& t) { return !passes::typeIncomplete(t); }

bool writable(const ir::Value* v) { return v && !v->isGraphInput() && !v->isGraphOutput() && !v->initializer(); }

using Types = std::unordered_map<std::string, ir::TypeInfo>;

// The reference: every main-graph node output as whole-graph inference types it.
Types referenceTypes(ir::Model& m) {
  passes::refreshValueTypes(m);
  Types ref;
  for (const auto& n : m.graph().nodes())
    for (const ir::Value* v : n->outputs())
      if (v) ref[v->name()] = v->type;
  return ref;
}

// Clears the writable outputs of `nodes`; returns their names.
std::vector<std::string> clearOutputs(const std::vector<ir::Node*>& nodes) {
  std::vector<std::string> cleared;
  for (ir::Node* n : nodes)
    for (ir::Value* v : n->outputs())
      if (writable(v)) {
        v->type = {};
        cleared.push_back(v->name());
      }
  return cleared;
}

// Every cleared value whose reference type is complete has exactly that type again; returns how many were checked.
size_t expectRestored(const ir::Model& m, const Types& ref, const std::vector<std::string>& cleared, QString& failure) {
  size_t checked = 0;
  for (const auto& name : cleared) {
    const ir::TypeInfo& want = ref.at(name);
    if (!complete(want)) continue;
    ++checked;
    const ir::TypeInfo& got = m.graph().findValue(name)->type;
    if (!(got == want) && failure.isEmpty())
      failure = QString::fromStdString("value '" + name + "': got " + got.toString() +
                                       ", whole-graph inference gives " + want.toString());
  }
  return checked;
}

// A path downstream of `start`: each node reads an output of the one before.
std::vector<ir::Node*> chainFrom(ir::Node* start, size_t length) {
  std::vector<ir::Node*> chain{start};
  while (chain.size() < length) {
    ir::Node* next = nullptr;
    for (const ir::Value* v : chain.back()->outputs())
      if (writable(v))
        for (const auto& u : v->uses())
          if (u.node->graph() == start->graph() && !next) next = u.node;
    if (!next) break;
    chain.push_back(next);
  }
  return chain;
}

std::vector<ir::Node*> mainNodes(ir::Model& m) {
  std::vector<ir::Node*> out;
  for (const auto& n : m.graph().nodes()) out.push_back(n.get());
  return out;
}

}  // namespace

class LocalTypes : public QObject {
  Q_OBJECT
 private slots:
  void everyFifthNode_data();
  void everyFifthNode();
  void cascadeAlongChain_data();
  void cascadeAlongChain();
  void neverOverwritesCompleteTypes_data();
  void neverOverwritesCompleteTypes();
  void leavesGraphOutputsAlone();
  void timing();
};

static void corpusRows() {
  QTest::addColumn<QString>("file");
  for (const auto& f : corpusModels()) QTest::newRow(qPrintable(f)) << f;
}

void LocalTypes::everyFifthNode_data() { corpusRows(); }

void LocalTypes::everyFifthNode() {
  QFETCH(QString, file);
  // Five runs, each from a fresh model, so that every node is handed in once.
  size_t checked = 0, madeUp = 0;
  for (size_t offset = 0; offset < 5; ++offset) {
    auto m = load(corpusModel(file));
    const Types ref = referenceTypes(*m);
    std::vector<ir::Node*> sample;
    auto all = mainNodes(*m);
    for (size_t k = offset; k < all.size(); k += 5) sample.push_back(all[k]);
    const auto cleared = clearOutputs(sample);
    const size_t typed = passes::refreshValueTypesOf(*m, sample);
    QString failure;
    const size_t restored = expectRestored(*m, ref, cleared, failure);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(typed >= restored);
    checked += restored;
    // Dims inference could not know are named after their value: two values typed in one call (or in two) never
    // share a made-up dim, which would say the two dims are equal.
    for (const auto& name : cleared)
      if (const ir::Value* v = m->graph().findValue(name); v && v->type.isTensor() && v->type.shape)
        for (const auto& d : *v->type.shape)
          if (d.kind == ir::Dim::Kind::Param && d.param.starts_with("unk__")) {
            QVERIFY2(d.param.find(v->name()) != std::string::npos,
                     qPrintable(QString::fromStdString(v->name() + ": " + d.param)));
            ++madeUp;
          }
  }
  QVERIFY2(checked > 0, "no value had a complete reference type");
  if (file == "transformer_encoder_op13_dyn.onnx")
    QVERIFY2(madeUp > 0, "the dynamic-batch model has no made-up dim to check");
}

void LocalTypes::cascadeAlongChain_data() { corpusRows(); }

void LocalTypes::cascadeAlongChain() {
  QFETCH(QString, file);
  auto m = load(corpusModel(file));
  const Types ref = referenceTypes(*m);
  auto all = mainNodes(*m);
  // Of the paths of up to 20 nodes starting in the graph's middle third, the one with the most values whole-graph
  // inference types completely past its first node.
  auto downstreamComplete = [&](const std::vector<ir::Node*>& c) {
    size_t count = 0;
    for (size_t k = 1; k < c.size(); ++k)
      for (const ir::Value* v : c[k]->outputs())
        if (writable(v) && complete(ref.at(v->name()))) ++count;
    return count;
  };
  std::vector<ir::Node*> chain;
  size_t best = 0;
  for (size_t k = all.size() / 3; k < 2 * all.size() / 3 + 1 && k < all.size(); ++k) {
    auto c = chainFrom(all[k], 20);
    const size_t score = downstreamComplete(c);
    if (chain.empty() || score > best || (score == best && c.size() > chain.size())) {
      chain = c;
      best = score;
    }
  }
  QVERIFY2(chain.size() >= 3, "no chain to test");
  const auto cleared = clearOutputs(chain);
  passes::refreshValueTypesOf(*m, {chain.front()});
  QString failure;
  const size_t checked = expectRestored(*m, ref, cleared, failure);
  QVERIFY2(failure.isEmpty(), qPrintable(failure));
  // The cascade had something to do past the node handed in (restored above).
  QVERIFY2(best > 0 || file.startsWith("control_flow"),
           qPrintable(QString("chain of %1 nodes has no complete downstream type").arg(chain.size())));
  QVERIFY(checked >= best);
}

void LocalTypes::neverOverwritesCompleteTypes_data() { corpusRows(); }

void LocalTypes::neverOverwritesCompleteTypes() {
  QFETCH(QString, file);
  auto m = load(corpusModel(file));
  referenceTypes(*m);
  // A complete type inference would never give (double, odd dims) on every writable output of every 7th node;
  // their readers get incomplete types, so a cascade would have work if the false types were taken as news.
  const auto bogus = ir::TypeInfo::tensor(ir::DataType::Double, ir::Shape{ir::Dim::of(7), ir::Dim::named("bogus")});
  std::vector<ir::Node*> handed;
  std::vector<ir::Value*> marked;
  auto all = mainNodes(*m);
  for (size_t k = 0; k < all.size(); k += 7) {
    bool any = false;
    for (ir::Value* v : all[k]->outputs())
      if (writable(v)) {
        v->type = bogus;
        marked.push_back(v);
        any = true;
      }
    if (any) handed.push_back(all[k]);
  }
  QVERIFY(!handed.empty());
  QCOMPARE(passes::refreshValueTypesOf(*m, handed), size_t{0});
  for (const ir::Value* v : marked)
    QVERIFY2(v->type == bogus,
             qPrintable(QString::fromStdString(v->name() + " was overwritten: " + v->type.toString())));
}

void LocalTypes::leavesGraphOutputsAlone() {
  // A graph output (its declared type cleared) and the graph inputs a node reads keep what they hold.
  auto m = load(corpusModel("transformer_encoder_op13_dyn.onnx"));
  referenceTypes(*m);
  ir::Value* out = m->graph().outputs().front();
  QVERIFY(out->producer());
  out->type = {};
  ir::Node* first = nullptr;
  for (const auto& n : m->graph().nodes())
    for (ir::Value* in : n->inputs())
      if (in && in->isGraphInput() && !first) first = n.get();
  QVERIFY(first);
  ir::Value* in = nullptr;
  for (ir::Value* v : first->inputs())
    if (v && v->isGraphInput()) in = v;
  const ir::TypeInfo inputType = in->type;
  passes::refreshValueTypesOf(*m, {out->producer(), first});
  QCOMPARE(out->type.kind, ir::TypeInfo::Kind::None);
  QVERIFY(in->type == inputType);
}

// Figures for the report (no assertion on time): 50 nodes spread over the graph, their outputs cleared, against
// the whole graph. FB_LOCAL_TYPES_MODEL names another model to time.
void LocalTypes::timing() {
  QStringList files{corpusModel("transformer_encoder_op13_dyn.onnx")};
  if (qEnvironmentVariableIsSet("FB_LOCAL_TYPES_MODEL")) files << qEnvironmentVariable("FB_LOCAL_TYPES_MODEL");
  for (const auto& path : files) {
    auto m = load(path);
    const Types ref = referenceTypes(*m);  // also warms libonnx's schema registry up
    auto all = mainNodes(*m);
    std::vector<ir::Node*> sample;
    const size_t step = std::max<size_t>(1, all.size() / 50);
    for (size_t k = 0; k < all.size() && sample.size() < 50; k += step) sample.push_back(all[k]);
    double wholeMs = 1e9, localMs = 1e9;
    size_t wholeTyped = 0, typed = 0;
    for (int run = 0; run < 5; ++run) {  // best of five
      QElapsedTimer t;
      t.start();
      wholeTyped = passes::refreshValueTypes(*m);
      wholeMs = std::min(wholeMs, t.nsecsElapsed() / 1e6);
      const auto cleared = clearOutputs(sample);
      t.restart();
      typed = passes::refreshValueTypesOf(*m, sample);
      localMs = std::min(localMs, t.nsecsElapsed() / 1e6);
      QString failure;
      expectRestored(*m, ref, cleared, failure);
      QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }
    qInfo(
        "%s: %zu nodes; refreshValueTypes %.1f ms (%zu values typed); refreshValueTypesOf(%zu nodes) %.1f ms, %zu "
        "values typed",
        qPrintable(QFileInfo(path).fileName()), all.size(), wholeMs, wholeTyped, sample.size(), localMs, typed);
  }
}

QTEST_GUILESS_MAIN(LocalTypes)
#include "test_passes_local_types.moc"
