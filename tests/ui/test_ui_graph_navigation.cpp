// Issue 26, points 4 and 6: control flow and node detail as in Netron, and the keyboard. If/Loop/Scan boxes name
// their bodies and a click on a name opens it; the breadcrumb names the branch on every way into a body (a click,
// Find, a status table row, a code line, the Node panel); the Node panel names inputs and outputs as the schema does;
// the output of a folded Identity of a weight shows the weight's values; arrow keys move along edges, Enter expands a
// block or opens a body, Backspace goes up the breadcrumb, Esc clears the selection from anywhere.
#include <QtTest>

#include <QApplication>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QThreadPool>
#include <QTableView>
#include <QTableWidget>
#include <QTreeView>

#include "codegen/code_generator.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/code_preview.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/target_picker.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/inspector/find_panel.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/main_window.h"
#include "ui/widgets/code_view.h"
#include "ui/widgets/shortcuts_dialog.h"

using namespace fb;
using namespace fb::ui;

namespace {

const ir::Node* nodeNamed(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name == name) return n.get();
  for (const auto& n : g.nodes())
    for (const ir::Graph* body : n->subgraphs())
      if (const ir::Node* inner = nodeNamed(*body, name)) return inner;
  return nullptr;
}

const ir::Graph* bodyOf(const ir::Node* n, const std::string& attribute) {
  const ir::Attribute* a = n ? n->attr(attribute) : nullptr;
  return a && !a->graphs.empty() ? a->graphs.front().get() : nullptr;
}

// The row of a property panel whose link leads to `target` (LinkValueRole or LinkGraphRole), invalid when none.
QModelIndex linkTo(const PropertyTreeModel* model, int role, const void* target) {
  for (int s = 0; s < model->rowCount(); ++s) {
    const QModelIndex section = model->index(s, 0);
    for (int r = 0; r < model->rowCount(section); ++r) {
      const QModelIndex value = model->index(r, 1, section);
      if (auto v = value.data(role); v.isValid() && v.value<const void*>() == target) return value;
    }
  }
  return {};
}

void key(QWidget* w, Qt::Key k) {
  QTest::keyClick(w, k);
  QTest::qWait(10);
}

struct Window {
  MainWindow w;
  Window() {
    w.resize(1400, 900);
    w.show();
    w.activateWindow();
  }
};

}  // namespace

class UiGraphNavigation : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_graph_navigation");
  }
  void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

  // The If box lists then_branch and else_branch, the Loop box its body; one click on a name opens that body,
  // titled by node and branch; Backspace comes back with the node selected.
  void bodyNamesOnControlFlowBoxesOpenThem() {
    Window win;
    MainWindow& w = win.w;
    QVERIFY(test::openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    const ir::Graph& main = w.document()->model()->graph();
    const ir::Node* ifNode = nodeNamed(main, "/If");
    const ir::Node* loop = nodeNamed(main, "/Loop");
    QVERIFY(ifNode && loop);
    NodeItem* ifItem = w.scene()->itemForNode(ifNode);
    NodeItem* loopItem = w.scene()->itemForNode(loop);
    QVERIFY(ifItem && loopItem);
    QCOMPARE(ifItem->bodies().size(), 2);
    QCOMPARE(ifItem->bodies()[0].first, QStringLiteral("then_branch"));
    QCOMPARE(ifItem->bodies()[1].first, QStringLiteral("else_branch"));
    QCOMPARE(ifItem->bodies()[1].second, bodyOf(ifNode, "else_branch"));
    QCOMPARE(loopItem->bodies().size(), 1);
    QCOMPARE(loopItem->bodies()[0].first, QStringLiteral("body"));
    // The layout made room for the names inside the box.
    for (int i = 0; i < 2; ++i) QVERIFY(ifItem->box().contains(ifItem->bodyRect(i)));
    QVERIFY(ifItem->bodyRect(1).top() >= ifItem->bodyRect(0).bottom() - 0.5);

    w.view()->centerOn(ifItem);
    const QPoint at = w.view()->mapFromScene(ifItem->bodyRect(1).center());
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, at);
    QTest::qWait(20);
    QCOMPARE(w.document()->levelCount(), 2);
    QCOMPARE(w.document()->currentLevel().graph, bodyOf(ifNode, "else_branch"));
    QCOMPARE(w.document()->currentLevel().title, QStringLiteral("/If: else_branch"));

    w.view()->setFocus();
    key(w.view(), Qt::Key_Backspace);
    QCOMPARE(w.document()->levelCount(), 1);
    QCOMPARE(w.document()->focusNode(), ifNode);
    key(w.view(), Qt::Key_Backspace);  // on the main graph: nothing to go up to
    QCOMPARE(w.document()->levelCount(), 1);

    loopItem = w.scene()->itemForNode(loop);
    w.view()->centerOn(loopItem);
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->mapFromScene(loopItem->bodyRect(0).center()));
    QTest::qWait(20);
    QCOMPARE(w.document()->currentLevel().graph, bodyOf(loop, "body"));
    QCOMPARE(w.document()->currentLevel().title, QStringLiteral("/Loop: body"));
  }

  // Find, the status table, a code line and the Node panel's graph link all name the branch they open.
  void breadcrumbNamesTheBranchOnEveryPath() {
    Window win;
    MainWindow& w = win.w;
    QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
    QVERIFY(test::openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    QVERIFY(!dry.isEmpty() || dry.wait(60000));
    Document* doc = w.document();
    const ir::Graph& main = doc->model()->graph();
    const ir::Node* ifNode = nodeNamed(main, "/If");
    const ir::Node* neg = nodeNamed(main, "/Neg");
    const ir::Node* tanh = nodeNamed(main, "/step/Tanh");
    QVERIFY(ifNode && neg && tanh);

    FindPanel* find = w.findPanel();
    find->setQuery(QStringLiteral("/Neg"));
    QVERIFY(find->goToNext());
    QCOMPARE(doc->focusNode(), neg);
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/If: else_branch"));
    find->setQuery(QStringLiteral("/step/Tanh"));
    QVERIFY(find->goToNext());
    QCOMPARE(doc->focusNode(), tanh);
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/Loop: body"));
    doc->goToLevel(0);

    // A row of the status table: for OneFlow code every node is converted, so every node has a row.
    QSignalSpy picked(w.conversion()->controller(), &ConversionController::dryRunFinished);
    w.conversion()->panel()->targetPicker()->pick(codegen::Flavour::OneFlow);
    QVERIFY(picked.wait(60000));
    QTableView* rows = w.conversion()->panel()->table();
    const ir::Graph* elseBranch = bodyOf(ifNode, "else_branch");
    const ir::Node* rowNode = nullptr;
    for (int r = 0; r < rows->model()->rowCount() && !rowNode; ++r) {
      const QModelIndex i = rows->model()->index(r, 0);
      const ir::Node* n = doc->findNode(i.data(ConversionReportModel::NodeIdRole).toULongLong());
      if (n && n->graph() == elseBranch) {
        rowNode = n;
        rows->setCurrentIndex(i);
      }
    }
    QVERIFY2(rowNode, "a row of a node in the else branch");
    QCOMPARE(doc->focusNode(), rowNode);
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/If: else_branch"));
    doc->goToLevel(0);

    // The Node panel's link to a body.
    doc->selectNode(ifNode);
    const QModelIndex thenLink =
        linkTo(w.nodePanel()->model(), PropertyTreeModel::LinkGraphRole, bodyOf(ifNode, "then_branch"));
    QVERIFY(thenLink.isValid());
    emit w.nodePanel()->view()->activated(thenLink);
    QCOMPARE(doc->currentLevel().graph, bodyOf(ifNode, "then_branch"));
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/If: then_branch"));
    doc->goToLevel(0);

    // A line of the generated code.
    // Code targets have no converted graph to show: the preview is done when the code is.
    QSignalSpy converted(w.conversion()->controller(), &ConversionController::conversionFinished);
    w.conversion()->panel()->previewAction()->trigger();
    QVERIFY(converted.wait(60000));
    const auto code = w.conversion()->controller()->generatedCode();
    QVERIFY(code);
    const auto lines = code->nodeLines.find(neg->id());
    QVERIFY(lines != code->nodeLines.end());
    doc->goToLevel(0);
    CodePreview* preview = w.conversion()->codePreview();
    preview->view()->setTextCursor(
        QTextCursor(preview->view()->document()->findBlockByNumber(lines->second.front() - 1)));
    QCOMPARE(doc->focusNode(), neg);
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/If: else_branch"));
  }

  // Inputs and outputs by the schema's names: X, W, B and Y on a Conv, inputs[k] on a Concat (variadic).
  void nodePanelNamesInputsBySchema() {
    Window win;
    MainWindow& w = win.w;
    QVERIFY(test::openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    const ir::Node *conv = nullptr, *concat = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes()) {
      if (!conv && n->opType == "Conv" && n->inputs().size() == 3) conv = n.get();
      if (!concat && n->opType == "Concat") concat = n.get();
    }
    QVERIFY(conv && concat);
    w.document()->selectNode(conv);
    const PropertyTreeModel* panel = w.nodePanel()->model();
    auto startsWith = [](const QString& text, const ir::Value* v) {
      return text.startsWith(QString::fromStdString(v->name()) + "  ");
    };
    QVERIFY2(startsWith(panel->valueOf("X"), conv->input(0)), qPrintable(panel->valueOf("X")));
    QVERIFY2(startsWith(panel->valueOf("W"), conv->input(1)), qPrintable(panel->valueOf("W")));
    QVERIFY2(startsWith(panel->valueOf("B"), conv->input(2)), qPrintable(panel->valueOf("B")));
    QVERIFY2(startsWith(panel->valueOf("Y"), conv->output(0)), qPrintable(panel->valueOf("Y")));
    QVERIFY(panel->valueOf("0").isEmpty());  // no row is named by its position any more
    w.document()->selectNode(concat);
    QVERIFY(concat->inputs().size() >= 2);
    QVERIFY(startsWith(panel->valueOf("inputs[0]"), concat->input(0)));
    QVERIFY(startsWith(panel->valueOf("inputs[1]"), concat->input(1)));
    QVERIFY(startsWith(panel->valueOf("concat_result"), concat->output(0)));
  }

  // squeezenet's exporter shares biases through Identity nodes, which the view folds: following such an input
  // from the Node panel shows the values of the weight behind it, as the weight itself shows them.
  void foldedIdentityAliasShowsTheWeightsValues() {
    Window win;
    MainWindow& w = win.w;
    QVERIFY(test::openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    Document* doc = w.document();
    const auto& folding = doc->currentLevel().layout->folding();
    const ir::Node* identity = nullptr;
    for (const auto& n : doc->model()->graph().nodes())
      if (n->opType == "Identity" && n->input(0)->initializer() && folding.folded.count(n.get())) {
        identity = n.get();
        break;
      }
    QVERIFY2(identity, "squeezenet has folded Identity aliases of weights");
    const ir::Value* alias = identity->output(0);
    const ir::Value* weight = identity->input(0);
    QVERIFY(!alias->initializer());
    const ir::Node* consumer = alias->uses().front().node;

    // What the Tensor panel shows for the weight itself.
    doc->selectValue(weight);
    const PropertyTreeModel* tensor = w.tensorPanel()->model();
    const QString first = tensor->valueOf("first values"), mean = tensor->valueOf("mean"),
                  shape = tensor->valueOf("shape");
    QVERIFY(!first.isEmpty() && !mean.isEmpty());

    doc->selectNode(consumer);
    const QModelIndex link = linkTo(w.nodePanel()->model(), PropertyTreeModel::LinkValueRole, alias);
    QVERIFY(link.isValid());
    emit w.nodePanel()->view()->activated(link);
    QCOMPARE(doc->selectedValue(), alias);
    QCOMPARE(doc->focusNode(), consumer);  // the alias is not drawn: its consumer stays selected
    QCOMPARE(tensor->valueOf("name"), QString::fromStdString(alias->name()));
    QVERIFY2(tensor->valueOf("kind").contains(QString::fromStdString(weight->name())),
             qPrintable(tensor->valueOf("kind")));
    QCOMPARE(tensor->valueOf("first values"), first);
    QCOMPARE(tensor->valueOf("mean"), mean);
    QCOMPARE(tensor->valueOf("shape"), shape);
  }

  // Arrow keys along edges (down to a consumer, up to a producer, sideways to a sibling branch), Enter opens a body
  // (a menu for If's two), Backspace goes back, Esc clears the selection from a panel and from Find's field.
  void keysMoveAlongEdgesAndOpenBodies() {
    Window win;
    MainWindow& w = win.w;
    QVERIFY(test::openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    QVERIFY(QTest::qWaitForWindowActive(&w));
    Document* doc = w.document();
    const ir::Graph& main = doc->model()->graph();
    const ir::Node* cast = nodeNamed(main, "/Cast");
    const ir::Node* greater = nodeNamed(main, "/Greater");
    const ir::Node* ifNode = nodeNamed(main, "/If");
    const ir::Node* loop = nodeNamed(main, "/Loop");
    QVERIFY(cast && greater && ifNode && loop);
    GraphView* view = w.view();
    view->setFocus();
    doc->selectNode(cast);
    key(view, Qt::Key_Down);
    QCOMPARE(doc->focusNode(), ifNode);
    key(view, Qt::Key_Up);
    QCOMPARE(doc->focusNode(), cast);
    key(view, Qt::Key_Up);
    QCOMPARE(doc->focusNode(), greater);

    // Enter on If: a menu of its two branches; on Loop: its body, with its first node selected.
    doc->selectNode(ifNode);
    key(view, Qt::Key_Return);
    QMenu* menu = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
      if (auto* m = qobject_cast<QMenu*>(top); m && m->objectName() == QStringLiteral("bodyMenu") && m->isVisible())
        menu = m;
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), 2);
    menu->actions().last()->trigger();
    menu->close();
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/If: else_branch"));
    QVERIFY(doc->focusNode() && doc->focusNode()->graph() == bodyOf(ifNode, "else_branch"));
    view->setFocus();
    key(view, Qt::Key_Backspace);
    QCOMPARE(doc->levelCount(), 1);
    QCOMPARE(doc->focusNode(), ifNode);
    doc->selectNode(loop);
    key(view, Qt::Key_Enter);
    QCOMPARE(doc->currentLevel().title, QStringLiteral("/Loop: body"));
    QVERIFY(doc->focusNode() && doc->focusNode()->graph() == bodyOf(loop, "body"));
    key(view, Qt::Key_Backspace);
    QCOMPARE(doc->focusNode(), loop);

    // Esc with the focus in the Node panel, then in Find's field.
    w.nodePanel()->view()->setFocus();
    key(w.nodePanel()->view(), Qt::Key_Escape);
    QVERIFY(!doc->focusNode());
    doc->selectNode(cast);
    auto* findField = w.findPanel()->findChild<QLineEdit*>();
    QVERIFY(findField);
    findField->setFocus();
    key(findField, Qt::Key_Escape);
    QVERIFY(!doc->focusNode());

    // The keys are listed in Help > Keyboard Shortcuts.
    ShortcutsDialog dialog(&w);
    QStringList keys;
    for (int r = 0; r < dialog.viewKeysTable()->rowCount(); ++r) keys << dialog.viewKeysTable()->item(r, 1)->text();
    for (const char* k : {"Enter", "Backspace", "Esc"}) QVERIFY2(keys.join(' ').contains(k), k);
    QVERIFY(keys.join(' ').contains("Up"));
  }

  // Sideways: the two expand convolutions of a squeezenet fire module read the same squeeze output.
  void leftAndRightStepToASiblingBranch() {
    Window win;
    MainWindow& w = win.w;
    QVERIFY(test::openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    Document* doc = w.document();
    const ir::Node *a = nullptr, *b = nullptr;
    for (const auto& n : doc->model()->graph().nodes()) {
      if (n->opType != "Relu") continue;
      const auto& uses = n->output(0)->uses();
      if (uses.size() == 2 && uses[0].node->opType == "Conv" && uses[1].node->opType == "Conv") {
        a = uses[0].node;
        b = uses[1].node;
        break;
      }
    }
    QVERIFY(a && b);
    doc->selectNode(a);
    NodeItem *itemA = w.scene()->itemForNode(a), *itemB = w.scene()->itemForNode(b);
    QVERIFY(itemA && itemB && itemA != itemB);
    const bool bIsRight = itemB->box().center().x() > itemA->box().center().x();
    w.view()->setFocus();
    key(w.view(), bIsRight ? Qt::Key_Right : Qt::Key_Left);
    QCOMPARE(doc->focusNode(), b);
    key(w.view(), bIsRight ? Qt::Key_Left : Qt::Key_Right);
    QCOMPARE(doc->focusNode(), a);
  }

  // Collapsed blocks take the keys: a node hidden in one puts the keys on its block, Down moves to the next block
  // (nothing selected in the document then), Enter expands it and the keys go to what is first inside.
  void enterExpandsTheBlockUnderTheKeys() {
    Window win;
    MainWindow& w = win.w;
    QVERIFY(test::openAndWait(w, test::corpusModel("transformer_encoder_op17.onnx")));
    Document* doc = w.document();
    const ir::Node* first = nullptr;
    for (const auto& n : doc->model()->graph().nodes())
      if (n->opType == "MatMul" && QString::fromStdString(n->name).contains("layers.0")) {
        first = n.get();
        break;
      }
    QVERIFY(first);
    doc->collapseAll();
    doc->selectNode(first);  // expands the blocks on its way
    doc->collapseAll();
    auto* hiding = qgraphicsitem_cast<BlockItem*>(w.scene()->keyboardItem());
    QVERIFY2(hiding, "a node hidden in a collapsed block puts the keys on the block");
    const auto& layout = *doc->currentLevel().layout;
    QCOMPARE(hiding->block(), layout.hidingBlock(first));
    w.view()->setFocus();
    const int hidingBlock = hiding->block();
    key(w.view(), Qt::Key_Return);  // rebuilds the scene: `hiding` is gone
    QVERIFY(layout.isExpanded(hidingBlock));
    QCOMPARE(doc->focusNode(), first);  // still the node the user chose
    // Step until the keys land on a collapsed block, then open it.
    BlockItem* block = nullptr;
    for (int i = 0; i < 40 && !block; ++i) {
      key(w.view(), Qt::Key_Down);
      block = qgraphicsitem_cast<BlockItem*>(w.scene()->keyboardItem());
    }
    QVERIFY2(block, "walking down reaches a collapsed block");
    QVERIFY(!block->isExpanded());
    const int b = block->block();
    QVERIFY(!doc->focusNode() || layout.hidingBlock(doc->focusNode()) == b);
    key(w.view(), Qt::Key_Return);
    QVERIFY(layout.isExpanded(b));
    BlockItem* frame = w.scene()->itemForBlock(b);
    QVERIFY(frame && frame->isExpanded());
    QGraphicsItem* inside = w.scene()->keyboardItem();
    QVERIFY(inside);
    QVERIFY(frame->box().contains(inside->sceneBoundingRect().center()));
    // Esc in the view drops a block the keys are on, too.
    key(w.view(), Qt::Key_Escape);
    QVERIFY(!w.scene()->keyboardItem());
  }
};

QTEST_MAIN(UiGraphNavigation)
#include "test_ui_graph_navigation.moc"
