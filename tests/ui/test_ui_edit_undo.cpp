// Editing in the app (issue 28) on corpus models: each kind of edit the Edit menu and the graph's context menu
// offer is applied through its action (the questions it asks answered here), then undone: the model's bytes (the
// project's serializer, what Save writes) equal those before; redone: equal those after. The selection, the
// breadcrumb and the run values never point at a freed node or value (a node selected while it is deleted, undone
// and redone; a body entered while its owner goes), an edit that does not apply changes and pushes nothing, and a
// converted preview is not editable.
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QUndoView>
#include <QUndoStack>
#include <QApplication>
#include <QTimer>
#include <QtTest>
#include <algorithm>
#include <functional>

#include "edit/edit.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"
#include "support/edit_ui.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/document.h"
#include "ui/edit/dialogs/attribute_editor_dialog.h"
#include "ui/edit/dialogs/op_type_dialog.h"
#include "ui/edit/edit_actions.h"
#include "ui/edit/edit_file_actions.h"
#include "ui/edit/editing.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/widgets/log_panel.h"

using namespace fb;
using test::modelBytes;
using test::nodeNamed;

namespace {

// Every pointer the document hands out is a node or value of the graph it shows now.
void checkNothingDangles(const ui::Document& d) {
  QVERIFY(d.hasGraph());
  const ir::Graph* g = d.currentLevel().graph;
  for (int i = 1; i < d.levelCount(); ++i) QVERIFY(d.level(i).graph->ownerNode()->graph() == d.level(i - 1).graph);
  QVERIFY(d.level(0).graph == &d.model()->graph());
  for (const ir::Node* n : d.selectedNodes()) {
    bool found = false;
    for (const auto& m : g->nodes()) found |= m.get() == n;
    QVERIFY2(found, "a selected node is not in the shown graph");
  }
  if (const ir::Value* v = d.selectedValue()) {
    const auto values = g->values();
    QVERIFY2(std::find(values.begin(), values.end(), v) != values.end(), "the selected value is not in the graph");
  }
  for (const auto& n : g->nodes()) QVERIFY(d.findNode(n->id()) == n.get());
}

}  // namespace

class EditUndoTest : public QObject {
  Q_OBJECT

  std::unique_ptr<ui::MainWindow> w_;
  test::ScriptedAnswers answers_;

  ui::Document& doc() { return *w_->document(); }

  bool open(const QString& file) {
    w_ = std::make_unique<ui::MainWindow>(nullptr, ui::MainWindow::Settings::Ignore);
    w_->editing()->actions()->setQuestions(answers_.questions());
    // No question may block: an unexpected one fails the test instead.
    w_->editing()->files()->setUnsavedEditsQuestion([](QWidget*, const QString&, int) {
      qWarning("unexpected unsaved-edits question");
      return ui::UnsavedEditsAnswer::Discard;
    });
    w_->show();
    return test::openAndWait(*w_, test::corpusModel(file));
  }

  // Triggers the action, then checks undo/redo give the bytes before/after; returns the bytes after.
  std::string applyUndoRedo(const QString& action, const QStringList& texts, const QList<int>& items) {
    const std::string before = modelBytes(*doc().model());
    const int count = doc().undoStack()->count();
    answers_.texts = texts;
    answers_.items = items;
    QAction* a = test::editAction(*w_, action);
    if (!a) qFatal("no action %s", qPrintable(action));
    if (!a->isEnabled()) {
      QTest::qFail(qPrintable(action + " is disabled"), __FILE__, __LINE__);
      return {};
    }
    QSignalSpy about(&doc(), &ui::Document::aboutToEditModel);
    QSignalSpy edited(&doc(), &ui::Document::modelEdited);
    a->trigger();
    const std::string after = modelBytes(*doc().model());
    if (doc().undoStack()->count() != count + 1 || about.count() != 1 || edited.count() != 1 || after == before) {
      QTest::qFail(qPrintable(action + " did not apply one edit"), __FILE__, __LINE__);
      return {};
    }
    checkNothingDangles(doc());
    w_->editing()->undoAction()->trigger();
    if (modelBytes(*doc().model()) != before) QTest::qFail("undo differs from before", __FILE__, __LINE__);
    checkNothingDangles(doc());
    w_->editing()->redoAction()->trigger();
    if (modelBytes(*doc().model()) != after) QTest::qFail("redo differs from after", __FILE__, __LINE__);
    checkNothingDangles(doc());
    if (edited.count() != 3) QTest::qFail("modelEdited not after each of edit, undo, redo", __FILE__, __LINE__);
    return after;
  }

  // Fills the dialog of type D once it shows as the modal widget, and accepts it.
  template <typename D>
  void answerDialog(std::function<void(D*)> fill, int tries = 0) {
    QTimer::singleShot(10, [this, fill, tries] {
      auto* d = qobject_cast<D*>(QApplication::activeModalWidget());
      if (!d) {
        if (tries < 500) answerDialog<D>(fill, tries + 1);
        return;
      }
      fill(d);
      d->revalidate();
      if (!d->canAccept()) qWarning("the dialog refuses: %s", qPrintable(d->reason()));
      d->accept();
    });
  }

  void selectNamed(const std::string& name) { doc().selectNode(nodeNamed(doc().model()->graph(), name)); }
  void selectValue(const std::string& name) { doc().selectValue(doc().model()->graph().findValue(name)); }

 private slots:
  void setInputShape() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    selectValue("input");
    applyUndoRedo("editSetInputShape", {"1,1,224,224"}, {});
    QCOMPARE(doc().model()->graph().findValue("input")->type.toString(), std::string("float[1,1,224,224]"));
    QVERIFY(w_->editing()->undoAction()->text().contains("set-input-shape"));
  }

  void setDim() {
    QVERIFY(open("transformer_encoder_op13_dyn.onnx"));
    answers_.choose = {"batch"};
    applyUndoRedo("editSetDim", {"2"}, {});
    QVERIFY(answers_.offered.last().contains("batch"));
    QVERIFY(!doc().model()->graph().findValue("input")->type.toString().empty());
    QCOMPARE(doc().model()->graph().findValue("input")->type.toString(), std::string("float[2,32,256]"));
  }

  void renameNodeAndValue() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    selectNamed("/relu/Relu");
    applyUndoRedo("editRenameNode", {"relu_renamed"}, {});
    QVERIFY(nodeNamed(doc().model()->graph(), "relu_renamed"));
    // The renamed node stays selected (by id) through the edit, undo and redo.
    QCOMPARE(doc().focusNode(), nodeNamed(doc().model()->graph(), "relu_renamed"));
    selectValue("/relu/Relu_output_0");
    applyUndoRedo("editRenameValue", {"r0"}, {});
    QVERIFY(doc().model()->graph().findValue("r0"));
    QCOMPARE(doc().undoStack()->count(), 2);
  }

  void addAndRemoveOutput() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    selectValue("/relu_1/Relu_output_0");
    applyUndoRedo("editAddOutput", {}, {});
    QCOMPARE(doc().model()->graph().outputs().size(), size_t(2));
    doc().clearSelection();
    applyUndoRedo("editRemoveOutput", {}, {0});  // the first output offered: "output"
    QCOMPARE(doc().model()->graph().outputs().size(), size_t(1));
    QCOMPARE(doc().model()->graph().outputs().front()->name(), std::string("/relu_1/Relu_output_0"));
  }

  void deleteNodeWhileSelected() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    selectNamed("/relu_1/Relu");
    // Rewired to its input (the second choice; the first is "new graph inputs").
    applyUndoRedo("editDeleteNode", {}, {1});
    QVERIFY(!nodeNamed(doc().model()->graph(), "/relu_1/Relu"));
    QVERIFY(doc().selectedNodes().isEmpty());  // the deleted node is not selected any more
    // Another node selected while one is deleted: it stays selected, and the scene shows it.
    selectNamed("/conv3/Conv");
    const ir::Node* conv3 = doc().focusNode();
    QString error;
    QVERIFY(doc().applyEdit(edit::Edit{"remove-node", {}}.set("node", "/relu/Relu"), &error));
    QCOMPARE(doc().focusNode(), conv3);
    // The edit's line and its notes (the readers' new graph input) are in the Log.
    const QString log = w_->logPanel()->toPlainText();
    QVERIFY2(log.contains("Edit: remove-node node=/relu/Relu"), qPrintable(log.right(400)));
    QVERIFY2(log.contains("graph input"), qPrintable(log.right(400)));
    doc().undoStack()->undo();
    doc().undoStack()->undo();
    QVERIFY(nodeNamed(doc().model()->graph(), "/relu_1/Relu"));
    QCOMPARE(doc().focusNode(), nodeNamed(doc().model()->graph(), "/conv3/Conv"));
    selectNamed("/relu_1/Relu");
    doc().undoStack()->redo();  // deletes the selected node again
    QVERIFY(doc().selectedNodes().isEmpty());
    doc().undoStack()->undo();  // puts it back (a new Node object)
    QVERIFY(nodeNamed(doc().model()->graph(), "/relu_1/Relu"));
    checkNothingDangles(doc());
    QTest::qWait(50);  // the scene repaints with the selection
    QVERIFY(w_->scene()->items().size() > 8);
  }

  void bypassNode() {
    QVERIFY(open("squeezenet1_0_op11.onnx"));
    const ir::Node* relu = nullptr;
    for (const auto& n : doc().model()->graph().nodes())
      if (n->opType == "Relu" && !n->name.empty()) relu = n.get();
    QVERIFY(relu);
    const std::string name = relu->name;
    doc().selectNode(relu);
    applyUndoRedo("editBypassNode", {}, {});
    QVERIFY(!nodeNamed(doc().model()->graph(), name));
  }

  void prune() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    // The graph output moved to the first Conv's: everything after it is not needed any more.
    QVERIFY(doc().applyEdit(edit::Edit{"add-output", {}}.set("value", "/conv1/Conv_output_0")));
    QVERIFY(doc().applyEdit(edit::Edit{"remove-output", {}}.set("value", "output")));
    selectNamed("/conv3/Conv");  // will be pruned
    applyUndoRedo("editPrune", {}, {});
    QCOMPARE(doc().model()->graph().nodeCount(), size_t(1));
    QVERIFY(doc().selectedNodes().isEmpty());
  }

  void extractSelection() {
    QVERIFY(open("squeezenet1_0_op11.onnx"));
    const ir::Graph& g = doc().model()->graph();
    // Three connected nodes half-way through.
    QList<const ir::Node*> chain;
    size_t k = 0;
    for (const auto& n : g.nodes())
      if (k++ == g.nodeCount() / 2) chain.append(n.get());
    while (chain.size() < 3 && !chain.last()->output(0)->uses().empty())
      chain.append(chain.last()->output(0)->uses().front().node);
    QCOMPARE(chain.size(), 3);
    doc().selectNodes(chain);
    const size_t before = g.nodeCount();
    applyUndoRedo("editExtractSelection", {}, {});
    QVERIFY(doc().model()->graph().nodeCount() < before);
    QVERIFY(doc().model()->graph().nodeCount() >= 3);
    QCOMPARE(doc().selectedNodes().size(), 3);  // the extracted nodes stay selected
  }

  void cutAtValue() {
    QVERIFY(open("transformer_encoder_op13_dyn.onnx"));
    const ir::Graph& g = doc().model()->graph();
    const ir::Node* mid = nullptr;
    size_t k = 0;
    for (const auto& n : g.nodes())
      if (k++ == g.nodeCount() / 2) mid = n.get();
    const std::string value = mid->output(0)->name();
    doc().selectValue(mid->output(0));
    const size_t before = g.nodeCount();
    applyUndoRedo("editCutAtValue", {}, {0});  // keep what computes it
    QCOMPARE(doc().model()->graph().outputs().size(), size_t(1));
    QCOMPARE(doc().model()->graph().outputs().front()->name(), value);
    QVERIFY(doc().model()->graph().nodeCount() < before);
  }

  void setProducer() {
    QVERIFY(open("control_flow_op13.onnx"));
    applyUndoRedo("editSetProducer", {"fb-test", "7.1"}, {});
    QCOMPARE(doc().model()->producerName, std::string("fb-test"));
    QCOMPARE(doc().model()->producerVersion, std::string("7.1"));
  }

  // The breadcrumb keeps a body whose owner survives an edit, and drops it when the owner goes.
  void bodyOnBreadcrumb() {
    QVERIFY(open("control_flow_op13.onnx"));
    const ir::Node* loop = nodeNamed(doc().model()->graph(), "/Loop");
    QVERIFY(loop);
    doc().enterBody(loop->subgraphs().front());
    QCOMPARE(doc().levelCount(), 2);
    // Edits act on the main graph: the context actions are off inside a body.
    QVERIFY(!test::editAction(*w_, "editBypassNode")->isEnabled());
    QVERIFY(doc().applyEdit(edit::Edit{"rename-node", {}}.set("from", "/ReduceSum").set("to", "sum")));
    QCOMPARE(doc().levelCount(), 2);
    checkNothingDangles(doc());
    QVERIFY(doc().applyEdit(edit::Edit{"remove-node", {}}.set("node", "/Loop")));
    QCOMPARE(doc().levelCount(), 1);
    checkNothingDangles(doc());
    doc().undoStack()->undo();
    checkNothingDangles(doc());
    doc().undoStack()->undo();
    checkNothingDangles(doc());
    QVERIFY(nodeNamed(doc().model()->graph(), "/ReduceSum"));
    // The Loop put back owns its body again (the breadcrumb names it and goes up through it).
    const ir::Node* back = nodeNamed(doc().model()->graph(), "/Loop");
    QVERIFY(back);
    const ir::Graph* body = back->subgraphs().front();
    QCOMPARE(body->ownerNode(), back);
    doc().enterBody(body);
    QCOMPARE(doc().levelCount(), 2);
    QVERIFY(doc().currentLevel().title.startsWith("/Loop"));
    QVERIFY(doc().goUp());
    QCOMPARE(doc().focusNode(), back);
  }

  // Edit > Undo / Redo with their shortcuts and texts, File > Save, the Undo History panel under View > Panels,
  // the edit actions on the graph's context menu.
  void menusAndShortcuts() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    QMenu* editMenu = nullptr;
    QMenu* panels = w_->findChild<QMenu*>("panelsMenu");
    for (QAction* a : w_->menuBar()->actions())
      if (a->text() == "&Edit") editMenu = a->menu();
    QVERIFY(editMenu && panels);
    QAction* undo = w_->editing()->undoAction();
    QAction* redo = w_->editing()->redoAction();
    QVERIFY(editMenu->actions().contains(undo) && editMenu->actions().contains(redo));
    QCOMPARE(undo->shortcut(), QKeySequence("Ctrl+Z"));
    QCOMPARE(redo->shortcut(), QKeySequence("Ctrl+Shift+Z"));
    QCOMPARE(w_->findChild<QAction*>("saveModel")->shortcut(), QKeySequence("Ctrl+S"));
    QVERIFY(!undo->isEnabled());
    QVERIFY(panels->actions().contains(w_->editing()->historyDock()->toggleViewAction()));
    QVERIFY(w_->view()->actions().contains(test::editAction(*w_, "editDeleteNode")));
    QVERIFY(w_->view()->actions().contains(test::editAction(*w_, "editExtractSelection")));
    QVERIFY(doc().applyEdit(edit::Edit{"set-dim", {}}.set("name", "batch").set("value", "4")));
    QVERIFY(undo->isEnabled());
    QCOMPARE(undo->text(), QString("&Undo set-dim name=batch value=4"));
    QCOMPARE(w_->editing()->historyView()->model()->rowCount(), 2);  // the opened model, then the edit
    w_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    QTest::keySequence(w_.get(), QKeySequence("Ctrl+Z"));
    QCOMPARE(doc().undoStack()->index(), 0);
    QTest::keySequence(w_.get(), QKeySequence("Ctrl+Shift+Z"));
    QCOMPARE(doc().undoStack()->index(), 1);
    // A dialog's edit becomes an action in one call: Edit menu, context menu, applied through the document.
    QAction* dialog = w_->editing()->addDialogAction(
        "editTestDialog", "Test Dialog...",
        [](QWidget*, const ui::Document& d) -> std::optional<edit::Edit> {
          return edit::Edit{"rename-node", {}}.set("from", d.focusNode()->name).set("to", "from_dialog");
        },
        [](const ui::Document& d) { return d.focusNode() != nullptr; }, true);
    QVERIFY(editMenu->actions().contains(dialog) && w_->view()->actions().contains(dialog));
    QVERIFY(!dialog->isEnabled());
    selectNamed("/conv2/Conv");
    QVERIFY(dialog->isEnabled());
    applyUndoRedo("editTestDialog", {}, {});
    QVERIFY(nodeNamed(doc().model()->graph(), "from_dialog"));
  }

  // The rich dialogs are actions too: each opens on the selection, and its edit is applied (and undone) as any.
  void richDialogsAsActions() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    const ir::Node* relu = nullptr;
    for (const auto& n : doc().model()->graph().nodes())
      if (n->opType == "Relu" && !relu) relu = n.get();
    QVERIFY(relu);
    const std::string reluName = relu->name;
    QVERIFY(!test::editAction(*w_, "editWeight")->isEnabled());  // no weight selected
    selectNamed("/conv2/Conv");
    QVERIFY(w_->view()->actions().contains(test::editAction(*w_, "editAttributes")));
    answerDialog<ui::AttributeEditorDialog>([](ui::AttributeEditorDialog* d) {
      d->chooseAttribute("pads");
      d->setValueText("0,0,0,0");
    });
    applyUndoRedo("editAttributes", {}, {});
    QCOMPARE(nodeNamed(doc().model()->graph(), "/conv2/Conv")->attrInts("pads"), (std::vector<int64_t>{0, 0, 0, 0}));
    selectNamed(reluName);
    answerDialog<ui::OpTypeDialog>([](ui::OpTypeDialog* d) { d->setOpType("Sigmoid"); });
    applyUndoRedo("changeOpType", {}, {});
    QCOMPARE(nodeNamed(doc().model()->graph(), reluName)->opType, std::string("Sigmoid"));
    // A weight selected: Edit Weight opens on it.
    const ir::Value* weight = nullptr;
    for (const ir::Value* v : nodeNamed(doc().model()->graph(), "/conv2/Conv")->inputs())
      if (v && v->initializer() && !weight) weight = v;
    QVERIFY(weight);
    doc().selectValue(weight);
    QVERIFY(test::editAction(*w_, "editWeight")->isEnabled());
  }

  // A refused edit: false, a reason naming the edit, nothing pushed, no signals, the model as it was.
  void refusedEdit() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    const std::string before = modelBytes(*doc().model());
    QSignalSpy about(&doc(), &ui::Document::aboutToEditModel);
    QString error;
    QVERIFY(!doc().applyEdit(edit::Edit{"remove-node", {}}.set("node", "no_such_node"), &error));
    QVERIFY2(error.contains("no_such_node"), qPrintable(error));
    QVERIFY(!doc().applyEdit(edit::Edit{"frobnicate", {}}, &error));
    QVERIFY2(error.contains("frobnicate"), qPrintable(error));
    QCOMPARE(doc().undoStack()->count(), 0);
    QCOMPARE(about.count(), 0);
    QCOMPARE(modelBytes(*doc().model()), before);
    // Through an action: the refusal is in the Log's line and the status bar, nothing pushed.
    selectValue("/relu/Relu_output_0");
    answers_.texts = {"/conv2/Conv_output_0"};  // another value's name
    test::editAction(*w_, "editRenameValue")->trigger();
    QCOMPARE(doc().undoStack()->count(), 0);
    QCOMPARE(modelBytes(*doc().model()), before);
  }

  // A converted preview is shown from memory: not editable (the source document is the one edited).
  void previewNotEditable() {
    QVERIFY(open("super_resolution_op13_dyn.onnx"));
    QVERIFY(doc().isEditable());
    QVERIFY(test::previewAndWait(*w_));
    ui::Document* preview = w_->conversion()->previewDocument();
    QVERIFY(preview->model());
    QVERIFY(!preview->isEditable());
    QString error;
    QVERIFY(!preview->applyEdit(edit::Edit{"prune", {}}, &error));
    QVERIFY2(error.contains("source"), qPrintable(error));
    // An edit of the source drops the preview made from the model before it.
    QVERIFY(doc().applyEdit(edit::Edit{"set-dim", {}}.set("name", "batch").set("value", "1")));
    QVERIFY(!w_->conversion()->previewPane()->isVisible());
  }

  void cleanup() { w_.reset(); }
};

QTEST_MAIN(EditUndoTest)
#include "test_ui_edit_undo.moc"
