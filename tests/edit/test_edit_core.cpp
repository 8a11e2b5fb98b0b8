// core/edit on corpus models: every verb applied, checked by FlowBridge's structural check, and undone back to the
// very bytes of the model; edits that must not apply (unknown verbs, missing names, wrong types, two producers, a
// cycle) refused with the model untouched; a script that fails half-way rolled back; the script format's quoting;
// pinned dynamic dims making the transformer's shape arithmetic fold under the default passes.
#include <QtTest>

#include <malloc.h>

#include <onnx/onnx_pb.h>

#include "edit/apply_edits.h"
#include "edit/edit_script.h"
#include "edit/edit_verb.h"
#include "eval/io/npy_file.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_export.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "support/helpers.h"

using namespace fb;
using edit::Edit;

namespace {

std::unique_ptr<ir::Model> load(const char* file) { return loadModel(test::corpusModel(file).toStdString()); }

// The model as it would be written (every field, weights included).
std::string bytesOf(const ir::Model& m) {
  onnx::ModelProto p;
  onnxfmt::exportModel(m, p);
  std::string s;
  p.SerializeToString(&s);
  return s;
}

Edit make(std::string verb, std::vector<std::pair<std::string, std::string>> args) {
  return Edit{std::move(verb), std::move(args)};
}

// The n-th node (graph order) and its first output.
const ir::Node* nodeAt(const ir::Model& m, size_t n) {
  size_t k = 0;
  for (const auto& node : m.graph().nodes())
    if (k++ == n) return node.get();
  return nullptr;
}

const ir::Node* firstOf(const ir::Model& m, const std::string& op) {
  for (const auto& node : m.graph().nodes())
    if (node->opType == op) return node.get();
  return nullptr;
}

size_t countOp(const ir::Model& m, const std::string& op) {
  size_t c = 0;
  for (const auto& node : m.graph().nodes()) c += node->opType == op;
  return c;
}

std::string checkText(const CheckResult& r) {
  std::string s;
  for (const auto& msg : r.messages) s += msg.node + ": " + msg.message + "\n";
  return s;
}

size_t nodesAfterDefaultPasses(ir::Model& m) {
  passes::PassManager pm(passes::PassRegistry::instance().defaultPipeline());
  return pm.run(m).nodesAfter;
}

}  // namespace

class EditCoreTest : public QObject {
  Q_OBJECT
 private slots:
  void registryListsEveryVerb() {
    const auto& all = edit::EditRegistry::instance().all();
    QVERIFY(all.size() >= 20);
    for (const char* v : {"set-input-shape", "set-dim", "rename", "add-output", "remove-output", "set-attr",
                          "set-initializer", "set-op", "remove-node", "bypass-node", "insert-node", "prune", "extract",
                          "cut", "set-opset", "set-ir-version", "set-producer", "set-metadata"})
      QVERIFY2(edit::EditRegistry::instance().find(v), v);
    for (const auto& v : all)
      QVERIFY2(!v.description.empty() && v.description.find('\n') == std::string::npos, v.name.c_str());
  }

  // Each edit changes the model, leaves it passing the check, and its undo gives back the same bytes.
  void applyCheckUndo_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("line");
    // Lines name nodes and values of the corpus models (PyTorch 1.13 exports): '$NODE' and '$VALUE' stand for the
    // middle node and its first output, '$RELU' for the first Relu, '$CONV' for the first Conv.
    const char* sq = "squeezenet1_0_op11.onnx";
    const char* tf = "transformer_encoder_op17.onnx";
    QTest::newRow("set-input-shape") << "super_resolution_op13_dyn.onnx"
                                     << "set-input-shape name=input shape=1,1,224,224";
    QTest::newRow("set-dim") << "transformer_encoder_op13_dyn.onnx"
                             << "set-dim name=batch value=2";
    QTest::newRow("rename value") << sq << "rename from=$VALUE to=\"renamed value\"";
    QTest::newRow("rename node") << sq << "rename-node from=$NODE to=middle";
    QTest::newRow("add-output") << sq << "add-output value=$VALUE";
    QTest::newRow("set-attr int") << sq << "set-attr node=$MAXPOOL name=storage_order value=0";
    QTest::newRow("set-attr ints") << sq << "set-attr node=$MAXPOOL name=dilations value=1,1";
    QTest::newRow("set-attr float") << tf << "set-attr node=$LAYERNORM name=epsilon value=0.0001";
    QTest::newRow("set-initializer fill") << tf << "set-initializer name=$WEIGHT fill=0.5";
    // A float16 weight needs a Cast back to float before the Conv: a two-edit script, undone as one.
    QTest::newRow("set-initializer cast") << sq
                                          << "set-initializer name=$WEIGHT cast=float16\n"
                                             "insert-node value=$WEIGHT op=Cast attr.to=1";
    QTest::newRow("set-op") << sq << "set-op node=$RELU op=Sigmoid";
    QTest::newRow("remove-node rewire") << sq << "remove-node node=$RELU rewire=$RELUIN";
    QTest::newRow("remove-node to inputs") << sq << "remove-node node=$RELU";
    QTest::newRow("bypass-node") << tf << "bypass-node node=$RELU";
    QTest::newRow("insert Cast") << sq << "insert-node value=$VALUE op=Cast attr.to=1";
    QTest::newRow("insert Identity") << tf << "insert-node value=$VALUE op=Identity name=probe";
    QTest::newRow("cut before") << sq << "cut value=$VALUE side=before";
    QTest::newRow("cut after") << sq << "cut value=$VALUE side=after";
    QTest::newRow("extract") << tf << "extract outputs=$VALUE";
    QTest::newRow("set-producer") << sq << "set-producer name=edited version=1";
    QTest::newRow("set-metadata") << sq << "set-metadata key=note value=\"pinned by hand\"";
    QTest::newRow("set-ir-version") << sq << "set-ir-version version=7";
  }
  void applyCheckUndo() {
    QFETCH(QString, file);
    QFETCH(QString, line);
    auto m = load(qPrintable(file));
    const ir::Node* middle = nodeAt(*m, m->graph().nodeCount() / 2);
    const ir::Node* relu = firstOf(*m, "Relu");
    const ir::Node* conv = firstOf(*m, "Conv");
    std::string text = line.toStdString();
    auto sub = [&](const std::string& key, const std::string& value) {
      for (size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), "\"" + value + "\"");
    };
    sub("$RELUIN", relu ? relu->input(0)->name() : "");
    sub("$RELU", relu ? relu->name : "");
    sub("$CONV", conv ? conv->name : "");
    sub("$MAXPOOL", firstOf(*m, "MaxPool") ? firstOf(*m, "MaxPool")->name : "");
    sub("$LAYERNORM", firstOf(*m, "LayerNormalization") ? firstOf(*m, "LayerNormalization")->name : "");
    sub("$NODE", middle->name);
    sub("$VALUE", middle->output(0)->name());
    sub("$WEIGHT", m->graph().initializers().front()->name);
    for (size_t at; (at = text.find("\\n")) != std::string::npos;) text.replace(at, 2, "\n");
    const auto edits = edit::parseScript(text);
    const std::string before = bytesOf(*m);
    const auto why = edit::checkEdit(*m, edits[0]);
    QVERIFY2(!why, why ? why->c_str() : "");
    QCOMPARE(bytesOf(*m), before);  // checking changes nothing
    auto applied = edit::applyEdits(*m, edits);
    QVERIFY(bytesOf(*m) != before);
    const auto check = edit::checkEditedModel(*m);
    QVERIFY2(check.ok, checkText(check).c_str());
    for (const auto& a : applied) QVERIFY(a.undo.bytes > 0);
    edit::revertEdits(*m, applied);
    QVERIFY2(bytesOf(*m) == before, "undo did not restore the model");
    // Redo (the same values applied again) works on the restored model.
    auto again = edit::applyEdits(*m, edits);
    QVERIFY(edit::checkEditedModel(*m).ok);
  }

  void removedNodesReadersBecomeInputs() {
    auto m = load("squeezenet1_0_op11.onnx");
    const ir::Node* relu = firstOf(*m, "Relu");
    const std::string out = relu->output(0)->name();
    const size_t inputs = m->graph().inputs().size();
    auto applied = edit::applyEdit(*m, make("remove-node", {{"node", relu->name}}));
    QCOMPARE(m->graph().inputs().size(), inputs + 1);
    QCOMPARE(m->graph().inputs().back()->name(), out);
    QVERIFY(m->graph().inputs().back()->type.hasStaticShape());  // typed by inference: a valid graph input
    QCOMPARE(applied.notes.size(), size_t(1));
    QVERIFY(edit::checkEditedModel(*m).ok);
  }

  // Edits that must not apply: a clear reason naming the thing, and the model untouched.
  void badEditsRefused_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unknown verb") << "explode node=x"
                                  << "unknown verb 'explode'";
    QTest::newRow("missing node") << "remove-node node=nowhere"
                                  << "no node named 'nowhere'";
    QTest::newRow("missing argument") << "set-attr node=$CONV name=group"
                                      << "missing argument 'value'";
    QTest::newRow("unknown argument") << "prune hard=yes"
                                      << "unknown argument 'hard'";
    QTest::newRow("wrong attribute type") << "set-attr node=$CONV name=group value=abc"
                                          << "is not one";
    QTest::newRow("declared type clash") << "set-attr node=$CONV name=group value=1 type=float"
                                         << "is int, not float";
    QTest::newRow("attribute the op lacks") << "set-attr node=$CONV name=alpha value=1"
                                            << "Conv has no attribute 'alpha'";
    QTest::newRow("two producers") << "rename from=$VALUE to=$OTHER"
                                   << "is named";
    QTest::newRow("cycle") << "insert-node value=$INPUT op=Add inputs=$VALUE"
                           << "cyclic";
    QTest::newRow("two producers by insert-node") << "insert-node value=$INPUT op=Identity output=$OTHER"
                                                  << "a value is named";
    QTest::newRow("two producers by rename-value") << "rename-value from=$INPUT to=$OUTPUT"
                                                   << "a value is named";
    QTest::newRow("node name taken") << "rename-node from=$CONV to=$RELU"
                                     << "a node is named";
    QTest::newRow("op not in opset") << "set-op node=$RELU op=Gelu"
                                     << "has no op 'Gelu'";
    QTest::newRow("not a number") << "set-initializer name=$WEIGHT scalar=lots"
                                  << "not a number";
    QTest::newRow("two weight sources") << "set-initializer name=$WEIGHT scalar=1 cast=float"
                                        << "exactly one";
    QTest::newRow("missing npy") << "set-initializer name=$WEIGHT npy=/nonexistent.npy"
                                 << "nonexistent.npy";
    QTest::newRow("graph output removed") << "remove-node node=$LAST"
                                          << "is a graph output";
    QTest::newRow("only output") << "remove-output value=$OUTPUT"
                                 << "only output";
    QTest::newRow("bad shape") << "set-input-shape name=$INPUT shape=1,-3"
                               << "not a shape";
  }
  void badEditsRefused() {
    QFETCH(QString, line);
    QFETCH(QString, reason);
    auto m = load("squeezenet1_0_op11.onnx");
    const ir::Node* conv = firstOf(*m, "Conv");
    const ir::Node* relu = firstOf(*m, "Relu");
    const ir::Node* middle = nodeAt(*m, m->graph().nodeCount() / 2);
    const ir::Node* other = nodeAt(*m, 3);
    std::string text = line.toStdString();
    auto sub = [&](const std::string& key, const std::string& value) {
      for (size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), "\"" + value + "\"");
    };
    sub("$CONV", conv->name);
    sub("$RELU", relu->name);
    sub("$VALUE", middle->output(0)->name());
    sub("$OTHER", other->output(0)->name());
    sub("$INPUT", m->graph().inputs()[0]->name());
    sub("$OUTPUT", m->graph().outputs()[0]->name());
    sub("$WEIGHT", m->graph().initializers().front()->name);
    sub("$LAST", m->graph().outputs()[0]->producer()->name);
    const Edit e = edit::parseEditLine(text);
    const std::string before = bytesOf(*m);
    const auto why = edit::checkEdit(*m, e);
    QVERIFY2(why, "the edit was accepted");
    QVERIFY2(why->find(reason.toStdString()) != std::string::npos, why->c_str());
    try {
      edit::applyEdit(*m, e);
      QFAIL("applyEdit did not throw");
    } catch (const edit::EditError& err) {
      QVERIFY(std::string(err.what()).find(reason.toStdString()) != std::string::npos);
      QVERIFY(std::string(err.what()).starts_with(e.verb));  // the line names the edit
    }
    QCOMPARE(bytesOf(*m), before);
  }

  // A bypass whose input and output types differ (a Shape node: float in, int64 out) is refused.
  void bypassRefusesTypeChange() {
    auto m = load("transformer_encoder_op13_dyn.onnx");
    const ir::Node* shape = firstOf(*m, "Shape");
    QVERIFY(shape);
    const auto why = edit::checkEdit(*m, make("bypass-node", {{"node", shape->name}}));
    QVERIFY2(why && why->find("types differ") != std::string::npos, why ? why->c_str() : "accepted");
  }

  // A script whose fourth edit fails leaves the model as it was before the first.
  void failedScriptRollsBack() {
    auto m = load("transformer_encoder_op13_dyn.onnx");
    const std::string before = bytesOf(*m);
    const ir::Node* relu = firstOf(*m, "Relu");
    const ir::Node* middle = nodeAt(*m, m->graph().nodeCount() / 2);
    std::vector<Edit> script = {
        make("set-dim", {{"name", "batch"}, {"value", "1"}}),
        make("bypass-node", {{"node", relu->name}}),
        make("rename", {{"from", middle->output(0)->name()}, {"to", "mid"}}),
        make("remove-node", {{"node", "no such node"}}),
    };
    try {
      edit::applyEdits(*m, script);
      QFAIL("the script applied");
    } catch (const edit::EditError& e) {
      QCOMPARE(e.index(), size_t(4));
      QVERIFY2(std::string(e.what()).starts_with("edit 4: remove-node"), e.what());
    }
    QVERIFY2(bytesOf(*m) == before, "the failed script left the model changed");
    // The same three edits alone apply, and revertEdits undoes them newest first.
    script.pop_back();
    auto applied = edit::applyEdits(*m, script);
    QCOMPARE(applied.size(), size_t(3));
    QVERIFY(edit::checkEditedModel(*m).ok);
    edit::revertEdits(*m, applied);
    QVERIFY(bytesOf(*m) == before);
  }

  void scriptQuotingRoundTrips() {
    const std::vector<Edit> edits = {
        make("rename", {{"from", "a b"}, {"to", "quote\"and\\back"}}),
        make("set-attr", {{"node", "x=y#z"}, {"name", "mode"}, {"value", ""}}),
        make("rename-node", {{"from", "tab\there\nnewline"}, {"to", "caf\xc3\xa9"}}),
        make("prune", {}),
    };
    const std::string text = "# a comment\n\n" + edit::formatScript(edits);
    QCOMPARE(edit::parseScript(text), edits);
    for (const auto& [bad, what] : std::vector<std::pair<std::string, std::string>>{
             {"rename from=\"open", "line 2: unterminated quote"},
             {"rename from", "line 2: argument 'from' has no '=VALUE'"},
             {"rename from=a from=b", "line 2: argument 'from' given twice"},
             {"rename from=a=b", "line 2: a second '='"}}) {
      try {
        edit::parseScript("prune\n" + bad + "\n");
        QFAIL(bad.c_str());
      } catch (const edit::ScriptError& e) {
        QVERIFY2(std::string(e.what()).starts_with(what), e.what());
      }
    }
  }

  // A tensor attribute and a weight from .npy files, as NumPy writes them.
  void npyValues() {
    auto m = load("squeezenet1_0_op11.onnx");
    const ir::Tensor w = *m->graph().initializers().front();  // a copy: the edit replaces the graph's tensor
    const auto old = w.asDouble();
    const QString dir = test::scratchDir("edit_npy");
    const std::string npy = (dir + "/w.npy").toStdString();
    auto t = eval::Tensor::zeros(w.dtype, w.dims);
    eval::writeNpyFile(npy, t);
    auto applied = edit::applyEdit(*m, make("set-initializer", {{"name", w.name}, {"npy", npy}}));
    const ir::Tensor& now = *m->graph().findValue(w.name)->initializer();
    QCOMPARE(now.dims, w.dims);
    for (double x : now.asDouble()) QCOMPARE(x, 0.0);
    QVERIFY(edit::checkEditedModel(*m).ok);
    // The undo record keeps the old tensor by its shared bytes: about the tensor's size, far less than the model.
    QVERIFY(applied.undo.bytes >= w.expectedBytes());
    applied.undo.revert(*m);
    QVERIFY(m->graph().findValue(w.name)->initializer()->asDouble() == old);
  }

  // Nodes of If/Loop/Scan bodies: the edits that change a node in place (attribute, op type, name) find them; the
  // edits that rewire a graph refuse them naming the body; values of bodies are refused so too. Undo restores.
  void editsInBodies_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("refusal");  // empty: it applies
    QTest::newRow("set-attr in Loop body") << "set-attr node=/step/lin/Gemm name=alpha value=0.5"
                                           << "";
    QTest::newRow("remove-attr in Loop body") << "remove-attr node=/step/lin/Gemm name=beta"
                                              << "";
    QTest::newRow("set-op in Loop body") << "set-op node=/step/Tanh op=Sigmoid"
                                         << "";
    QTest::newRow("rename-node in If branch") << "rename-node from=/Neg to=negate"
                                              << "";
    QTest::newRow("rename in If branch") << "rename from=/head/Gemm to=\"then head\""
                                         << "";
    QTest::newRow("rename-node to a body's name") << "rename-node from=/Softmax to=/Neg"
                                                  << "a node is named '/Neg' already";
    QTest::newRow("remove-node in If branch")
        << "remove-node node=/Neg"
        << "node '/Neg' is in the body 'else_branch' of If '/If': this edit changes nodes of the main graph only";
    QTest::newRow("bypass-node in Loop body")
        << "bypass-node node=/step/Tanh"
        << "node '/step/Tanh' is in the body 'body' of Loop '/Loop': this edit changes nodes of the main graph only";
    QTest::newRow("insert-node reader in body") << "insert-node value=/Loop_output_0 op=Identity readers=/head/Gemm"
                                                << "is in the body 'then_branch' of If '/If'";
    QTest::newRow("rename-value in body") << "rename-value from=/step/Tanh_output_0 to=t"
                                          << "it is a value of the body 'body' of Loop '/Loop'";
    QTest::newRow("add-output of a body value") << "add-output value=/Neg_output_0"
                                                << "it is a value of the body 'else_branch' of If '/If'";
    QTest::newRow("rename a value a body reads") << "rename from=/Loop_output_0 to=x2"
                                                 << "a subgraph reads '/Loop_output_0' by name";
  }
  void editsInBodies() {
    QFETCH(QString, line);
    QFETCH(QString, refusal);
    auto m = load("control_flow_op13.onnx");
    const std::string before = bytesOf(*m);
    const Edit e = edit::parseEditLine(line.toStdString());
    const auto why = edit::checkEdit(*m, e);
    if (!refusal.isEmpty()) {
      QVERIFY2(why && why->find(refusal.toStdString()) != std::string::npos, why ? why->c_str() : "accepted");
      QVERIFY_THROWS_EXCEPTION(edit::EditError, edit::applyEdit(*m, e));
      QCOMPARE(bytesOf(*m), before);
      return;
    }
    QVERIFY2(!why, why ? why->c_str() : "");
    auto applied = edit::applyEdit(*m, e);
    const std::string edited = bytesOf(*m);
    QVERIFY(edited != before);
    // The change is in the body, where the named node is.
    const ir::Node* loop = firstOf(*m, "Loop");
    const ir::Node* branch = firstOf(*m, "If");
    size_t bodyNodesChanged = 0;
    for (const ir::Node* holder : {loop, branch})
      for (const ir::Graph* body : holder->subgraphs())
        for (const auto& n : body->nodes())
          bodyNodesChanged += n->opType == "Sigmoid" || n->name == "negate" || n->name == "then head" ||
                              n->attrFloat("alpha", 1.0f) == 0.5f || (n->opType == "Gemm" && !n->hasAttr("beta"));
    QCOMPARE(bodyNodesChanged, size_t(1));
    const auto check = edit::checkEditedModel(*m);
    QVERIFY2(check.ok, checkText(check).c_str());
    applied.undo.revert(*m);
    QVERIFY2(bytesOf(*m) == before, "undo did not restore the model");
  }

  // The name index edits look nodes up in (edit/node_index.h) follows what changes the graph outside edits: nodes
  // added and removed through the graph's API, the default passes (which replace the index's journal), another
  // model edited in between, a model destroyed and another read (its graph may take the same address).
  void nameIndexFollowsChanges() {
    auto m = load("transformer_encoder_op13_dyn.onnx");
    ir::Graph& g = m->graph();
    const ir::Node* relu = firstOf(*m, "Relu");
    edit::applyEdit(*m, make("rename-node", {{"from", relu->name}, {"to", "first relu"}}));
    QVERIFY(!edit::checkEdit(*m, make("set-op", {{"node", "first relu"}, {"op", "Sigmoid"}})));
    // A node added through the graph, named after addNode as readers and passes name them, is found.
    ir::Value* probe = g.getOrCreateValue("probe_out");
    ir::Node* direct = g.addNode("Identity", {relu->output(0)}, {probe});
    direct->name = "direct";
    QVERIFY(!edit::checkEdit(*m, make("rename-node", {{"from", "direct"}, {"to", "direct2"}})));
    g.removeNode(direct);
    auto why = edit::checkEdit(*m, make("rename-node", {{"from", "direct"}, {"to", "direct2"}}));
    QVERIFY2(why && why->find("no node named 'direct'") != std::string::npos, why ? why->c_str() : "accepted");
    // Another model edited in between, then this one again.
    auto other = load("squeezenet1_0_op11.onnx");
    const std::string otherRelu = firstOf(*other, "Relu")->name;
    QVERIFY(!edit::checkEdit(*other, make("set-op", {{"node", otherRelu}, {"op", "Sigmoid"}})));
    QVERIFY(edit::checkEdit(*m, make("set-op", {{"node", otherRelu}, {"op", "Sigmoid"}})));
    // The default passes rewrite the graph with a journal of their own: the next lookup rebuilds the index.
    const std::string constant = firstOf(*m, "Constant")->name;  // folded into a weight by the passes
    nodesAfterDefaultPasses(*m);
    QCOMPARE(countOp(*m, "Constant"), size_t(0));
    std::vector<std::string> names;
    for (const auto& n : g.nodes()) names.push_back(n->name);
    size_t found = 0;
    for (const auto& name : names) {
      const ir::Node* n = nullptr;
      for (const auto& c : g.nodes())
        if (c->name == name) n = c.get();
      const auto w = edit::checkEdit(*m, make("set-op", {{"node", name}, {"op", n->opType}}));
      found += !w || w->find("nodes are named") != std::string::npos;
    }
    QCOMPARE(found, names.size());
    why = edit::checkEdit(*m, make("set-op", {{"node", constant}, {"op", "Constant"}}));
    QVERIFY2(why && why->find("no node named") != std::string::npos, why ? why->c_str() : "accepted");
    // A model destroyed and another read: the index of the new graph is its own.
    other.reset();
    auto third = load("super_resolution_op13_dyn.onnx");
    why = edit::checkEdit(*third, make("set-op", {{"node", otherRelu}, {"op", "Sigmoid"}}));
    QVERIFY2(why && why->find("no node named") != std::string::npos, why ? why->c_str() : "accepted");
    QVERIFY(!edit::checkEdit(*third, make("set-op", {{"node", "/relu/Relu"}, {"op", "Sigmoid"}})));
  }

  // A long chain of edits over the same region (insert, bypass, remove with rewire, then prune), undone newest
  // first: each undo finds the nodes the later undos rebuilt, and the model comes back to the same bytes.
  void longChainUndoneToTheSameBytes() {
    auto m = load("squeezenet1_0_op11.onnx");
    const std::string before = bytesOf(*m);
    std::vector<Edit> script;
    size_t k = 0;
    for (const auto& n : m->graph().nodes()) {
      if (n->opType != "Relu") continue;
      const std::string probe = "probe" + std::to_string(k++);
      script.push_back(make("insert-node", {{"value", n->output(0)->name()}, {"op", "Identity"}, {"name", probe}}));
      script.push_back(make("bypass-node", {{"node", n->name}}));
      script.push_back(make("remove-node", {{"node", probe}, {"rewire", n->input(0)->name()}}));
    }
    script.push_back(
        make("cut", {{"value", m->graph().outputs()[0]->producer()->input(0)->name()}, {"side", "before"}}));
    QVERIFY(k > 20);
    const size_t identities = countOp(*m, "Identity");
    auto applied = edit::applyEdits(*m, script);
    QCOMPARE(countOp(*m, "Relu"), size_t(0));
    QCOMPARE(countOp(*m, "Identity"), identities);  // every probe removed again
    QVERIFY(edit::checkEditedModel(*m).ok);
    edit::revertEdits(*m, applied);
    QVERIFY2(bytesOf(*m) == before, "undoing the chain did not restore the model");
  }

  // Undo records hold what their edits changed, not the model: 1,000 set-attr edits on a model of 3.5M weights
  // hold a few hundred bytes each (the old attribute, the names), measured on the heap.
  void undoMemoryFollowsTheChange() {
    auto m = load("mobilenet_v2_op11.onnx");
    std::vector<const ir::Node*> convs;
    for (const auto& n : m->graph().nodes())
      if (n->opType == "Conv") convs.push_back(n.get());
    QVERIFY(convs.size() > 40);
    std::vector<Edit> edits;
    size_t changed = 0;  // the bytes each edit's old attribute and names take
    for (size_t i = 0; i < 1000; ++i) {
      const ir::Node* conv = convs[i % convs.size()];
      edits.push_back(make("set-attr", {{"node", conv->name}, {"name", "dilations"}, {"value", "1,1"}}));
      const ir::Attribute* old = conv->attr("dilations");
      changed += sizeof(ir::Attribute) + conv->name.size() + 9 + (old ? old->ints.size() * 8 : 0);
    }
    size_t modelBytes = 0;
    for (const auto& t : m->graph().initializers()) modelBytes += t->expectedBytes();
    const size_t heap0 = mallinfo2().uordblks;
    std::vector<edit::Applied> applied;
    applied.reserve(edits.size());
    for (const auto& e : edits) applied.push_back(edit::applyEdit(*m, e));
    const size_t heap1 = mallinfo2().uordblks;
    size_t reported = 0;
    for (const auto& a : applied) reported += a.undo.bytes;
    const size_t held = heap1 > heap0 ? heap1 - heap0 : 0;
    qInfo(
        "1000 set-attr edits: undo records report %zu B, the heap grew by %zu B; what they changed: %zu B; "
        "model weights %zu B",
        reported, held, changed, modelBytes);
    // Allocation overhead (the std::function, the shared attribute, the name copies) and the name index's journal
    // entries at most triple it.
    QVERIFY2(held < 3 * changed, qPrintable(QString("%1 B held").arg(held)));
    QVERIFY(reported >= changed / 2 && reported < 2 * changed);
    QVERIFY(held < modelBytes / 20);
    edit::revertEdits(*m, applied);
  }

  // The proof of the issue: with the batch dim pinned, the default passes fold the transformer's shape arithmetic.
  void pinnedDimsFold_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("transformer_encoder_op13_dyn") << "transformer_encoder_op13_dyn.onnx";
    QTest::newRow("super_resolution_op13_dyn") << "super_resolution_op13_dyn.onnx";
  }
  void pinnedDimsFold() {
    QFETCH(QString, file);
    auto dynamic = load(qPrintable(file));
    auto pinned = load(qPrintable(file));
    const size_t nodes = dynamic->graph().nodeCount();
    edit::applyEdit(
        *pinned,
        make("set-input-shape", {{"name", "input"}, {"shape", file.startsWith("super") ? "1,1,224,224" : "1,32,256"}}));
    QVERIFY(edit::checkEditedModel(*pinned).ok);
    const size_t dynAfter = nodesAfterDefaultPasses(*dynamic);
    const size_t pinAfter = nodesAfterDefaultPasses(*pinned);
    qInfo("%s: %zu nodes; default passes: %zu dynamic, %zu pinned (Shape nodes left: %zu, %zu)", qPrintable(file),
          nodes, dynAfter, pinAfter, countOp(*dynamic, "Shape"), countOp(*pinned, "Shape"));
    QVERIFY(pinned->graph().outputs()[0]->type.hasStaticShape());
    if (countOp(*load(qPrintable(file)), "Shape") > 0) {
      QVERIFY(countOp(*dynamic, "Shape") > 0);  // not folded while the batch dim is unknown
      QCOMPARE(countOp(*pinned, "Shape"), size_t(0));
      QVERIFY(pinAfter < dynAfter);
    } else {
      QCOMPARE(pinAfter, dynAfter);  // nothing to fold: pinning must not cost nodes either
    }
  }
};

QTEST_GUILESS_MAIN(EditCoreTest)
#include "test_edit_core.moc"
