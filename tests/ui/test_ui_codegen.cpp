// The app's code targets (issue 9): the Convert dock's target picker offers PyTorch and OneFlow code for ONNX
// models, with the same halos and status table as an opset; Preview shows model.py in a read-only code view
// linked to the graph both ways (node -> its lines, line -> its node, into subgraphs); Save writes the generated
// folder under the same rules as an ONNX save (current settings only, explicit Yes for incomplete code, never
// over the source, never into a foreign non-empty folder).
#include <QtTest>

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTextBlock>
#include <QThreadPool>
#include <algorithm>

#include "codegen/code_generator.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "support/helpers.h"
#include "support/message_box_answer.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/code_preview.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/graph/status_overlay.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/main_window.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/widgets/code_view.h"
#include "ui/conversion/convert_panel.h"
#include "ui/widgets/log_panel.h"
#include "ui/conversion/target_picker.h"

using namespace fb;
using namespace fb::ui;
using codegen::Flavour;

namespace {

bool openAndWait(MainWindow& w, const QString& path) {
  QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
  QSignalSpy changed(w.document(), &Document::modelChanged);
  w.openFile(path);
  return test::waitForSignal(changed) && test::waitForSignal(dry);
}

// Picks a target in the Convert dock and waits for its dry run.
bool pickAndWait(MainWindow& w, std::optional<Flavour> flavour) {
  QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
  w.conversion()->panel()->targetPicker()->pick(flavour);
  return test::waitForSignal(dry);
}

bool previewAndWait(MainWindow& w) {
  QSignalSpy done(w.conversion()->controller(), &ConversionController::conversionFinished);
  QSignalSpy failed(w.conversion()->controller(), &ConversionController::conversionFailed);
  w.conversion()->panel()->previewAction()->trigger();
  QElapsedTimer t;
  t.start();
  while (done.isEmpty() && failed.isEmpty() && t.elapsed() < 120000) QTest::qWait(10);
  return !done.isEmpty();
}

struct FakeDialog {
  QStringList suggestions;
  QString answer;
  ChooseSavePath chooser() {
    return [this](QWidget*, const QString&, const QString& suggested, const QString&, QString*) {
      suggestions << suggested;
      return answer;
    };
  }
  // Save converted... of code asks for a folder.
  ChooseFolder folderChooser() {
    return [this](QWidget*, const QString&, const QString& suggested) {
      suggestions << suggested;
      return answer;
    };
  }
  void install(MainWindow& w) {
    w.setSavePathChooser(chooser());
    w.conversion()->panel()->setFolderChooser(folderChooser());
  }
};

using test::MessageBoxAnswer;

// Saves through Save converted... with `folder` as the dialog's answer; true when `saved` came. A save the user
// declines starts nothing, so those calls wait only briefly.
bool saveAndWait(MainWindow& w, FakeDialog& dialog, const QString& folder, QString* failure = nullptr,
                 int waitMs = 60000) {
  dialog.answer = folder;
  auto* controller = w.conversion()->controller();
  QSignalSpy saved(controller, &ConversionController::saved);
  QSignalSpy failed(controller, &ConversionController::saveFailed);
  w.conversion()->panel()->saveAction()->trigger();
  QElapsedTimer t;
  t.start();
  while (saved.isEmpty() && failed.isEmpty() && t.elapsed() < waitMs) QTest::qWait(10);
  if (failure && !failed.isEmpty()) *failure = failed.first().first().toString();
  return !saved.isEmpty();
}

const ir::Node* nodeInSubgraph(const ir::Graph& g) {
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs())
      if (!sub->nodes().empty()) return sub->nodes().front().get();
  return nullptr;
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class UiCodegen : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_codegen");
    forgetLastFolders();  // the suggestions below are the first-time ones
  }
  void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

  // Picking PyTorch (or OneFlow) code reruns the dry run with the code generator: every node gets a status, the
  // halos and the table show them, and the opset and passes (which do not apply) are disabled.
  void pickingACodeTargetGivesStatusesForEveryNode() {
    MainWindow w;
    auto* controller = w.conversion()->controller();
    auto* panel = w.conversion()->panel();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    QVERIFY(panel->targetPicker()->isCodeTargetAvailable(Flavour::PyTorch));
    QVERIFY(panel->opsetBox()->isEnabled());

    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QCOMPARE(controller->codeTarget(), std::optional<Flavour>(Flavour::PyTorch));
    const auto* r = controller->dryRun();
    QVERIFY(r);
    QCOMPARE(QString::fromStdString(r->direction), QStringLiteral("onnx-pytorch"));
    const ir::Model* model = w.document()->model();
    QCOMPARE(r->nodes.size(), model->graph().totalNodeCount());
    for (const auto& n : model->graph().nodes()) QVERIFY(controller->statusOf(n->id()).has_value());
    // The same verdicts as the core's dry run.
    codegen::CodegenOptions o;
    auto expected = codegen::dryRunPython(*model, o);
    QCOMPARE(r->count(convert::NodeStatus::Converted), expected.conversion.count(convert::NodeStatus::Converted));
    QCOMPARE(r->count(convert::NodeStatus::Converted), r->nodes.size());  // squeezenet converts whole
    // The table lists every node with its reason; every node on screen has a halo.
    QCOMPARE(size_t(panel->reportModel()->rowCount()), r->nodes.size());
    QVERIFY(!panel->reportModel()->index(0, ConversionReportModel::MessageColumn).data().toString().isEmpty());
    int onScreen = 0;
    for (QGraphicsItem* item : w.scene()->items())
      if (qgraphicsitem_cast<NodeItem*>(item)) ++onScreen;
    QVERIFY(onScreen > 0);
    QCOMPARE(w.conversion()->sourceOverlay()->markedCount(), onScreen);
    QVERIFY(panel->summaryLabel()->text().contains("-> PyTorch code"));
    QVERIFY(!panel->opsetBox()->isEnabled());

    QVERIFY(pickAndWait(w, Flavour::OneFlow));
    QCOMPARE(QString::fromStdString(controller->dryRun()->direction), QStringLiteral("onnx-oneflow"));
    QCOMPARE(controller->dryRun()->nodes.size(), model->graph().totalNodeCount());

    // Back to ONNX at the model's own opset: nothing to mark.
    QVERIFY(pickAndWait(w, std::nullopt));
    QCOMPARE(QString::fromStdString(controller->dryRun()->direction), QStringLiteral("onnx"));
    QCOMPARE(w.conversion()->sourceOverlay()->markedCount(), 0);
    QVERIFY(panel->opsetBox()->isEnabled());
  }

  // Preview generates model.py off the UI thread and shows it read-only, monospace and coloured; selecting a node
  // highlights its lines, and clicking a line selects its node.
  void previewShowsTheCodeLinkedToTheGraph() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* controller = w.conversion()->controller();
    CodePreview* preview = w.conversion()->codePreview();
    CodeView* view = preview->view();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QVERIFY(preview->dock()->isHidden());
    QVERIFY(previewAndWait(w));
    const auto code = controller->generatedCode();
    QVERIFY(code);
    QVERIFY(!preview->dock()->isHidden());
    const QString text = view->toPlainText();
    QVERIFY(text.contains("class "));
    QVERIFY(text.contains("def forward"));
    QCOMPARE(text, QString::fromStdString(code->modelPy));
    QVERIFY(view->isReadOnly());
    QVERIFY(QFontInfo(view->font()).fixedPitch());
    QVERIFY(view->lineNumberWidth() > 0);
    // The highlighter coloured the line with the class keyword.
    const QTextBlock classLine = view->document()->find(QStringLiteral("class ")).block();
    QVERIFY(classLine.isValid());
    QVERIFY(!classLine.layout()->formats().isEmpty());
    QVERIFY(!w.conversion()->previewDocument()->model());  // no graph preview for code

    // Node -> lines: the last Conv of the graph.
    const ir::Node* conv = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (n->opType == "Conv") conv = n.get();
    QVERIFY(conv);
    const auto& lines = code->nodeLines.at(conv->id());
    QVERIFY(!lines.empty());
    w.document()->selectNode(conv);
    // All its lines: the declarations of its weight and bias in __init__, then its statement in forward.
    QList<int> all(lines.begin(), lines.end());
    all += QList<int>(code->weightLines.at(conv->id()).begin(), code->weightLines.at(conv->id()).end());
    std::sort(all.begin(), all.end());
    QCOMPARE(view->highlightedLines(), all);
    QCOMPARE(view->extraSelections().size(), all.size());
    QCOMPARE(view->currentLine(), lines.front());  // the view goes to the statement
    QCOMPARE(w.document()->focusNode(), conv);     // showing the lines did not choose another node
    QVERIFY(view->document()->findBlockByNumber(lines.front() - 1).text().contains(QString::fromStdString(conv->name)));

    // Line -> node, by the keyboard: a line of the first Relu.
    const ir::Node* relu = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (n->opType == "Relu" && !relu) relu = n.get();
    QVERIFY(relu);
    const int reluLine = code->nodeLines.at(relu->id()).front();
    QCOMPARE(preview->nodeAtLine(reluLine), quint64(relu->id()));
    view->setTextCursor(QTextCursor(view->document()->findBlockByNumber(reluLine - 1)));
    QCOMPARE(w.document()->focusNode(), relu);
    QCOMPARE(view->highlightedLines().front(), reluLine);
    QCOMPARE(view->currentLine(), reluLine);

    // Line -> node, by a click on the line below (the next node's statement, on screen after the move above).
    int clickLine = reluLine + 1;
    while (!preview->nodeAtLine(clickLine) || preview->nodeAtLine(clickLine) == relu->id()) ++clickLine;
    const QTextCursor target(view->document()->findBlockByNumber(clickLine - 1));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->cursorRect(target).center() + QPoint(30, 0));
    QCOMPARE(view->currentLine(), clickLine);
    QVERIFY(w.document()->focusNode());
    QCOMPARE(quint64(w.document()->focusNode()->id()), preview->nodeAtLine(clickLine));
    QCOMPARE(view->currentLine(), clickLine);  // the cursor stays where the user put it
    QVERIFY(view->highlightedLines().contains(clickLine));

    // A line of the module's frame (imports) selects nothing new.
    const ir::Node* before = w.document()->focusNode();
    view->setTextCursor(QTextCursor(view->document()->firstBlock()));
    QCOMPARE(w.document()->focusNode(), before);
  }

  // Issue 26, point 9: a node's lines include the __init__ lines that declare its weights, and every highlighted
  // line is on screen; the declaration's line selects the node that uses the weight.
  void aNodesWeightDeclarationsAreHighlightedToo() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* controller = w.conversion()->controller();
    CodePreview* preview = w.conversion()->codePreview();
    CodeView* view = preview->view();
    QVERIFY(openAndWait(w, test::corpusModel("mobilenet_v2_op11.onnx")));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QVERIFY(previewAndWait(w));
    QVERIFY(controller->generatedCode());
    const QStringList text = view->toPlainText().split('\n');
    const int init = int(text.indexOf(QRegularExpression("\\s*def __init__\\(.*"))) + 1;
    const int forward = int(text.indexOf(QRegularExpression("\\s*def forward\\(.*"))) + 1;
    QVERIFY(init > 0 && forward > init);
    int checked = 0;
    for (const auto& n : w.document()->model()->graph().nodes()) {
      if (n->opType != "Conv" && n->opType != "Gemm") continue;
      w.document()->selectNode(n.get());
      const QList<int> shown = view->highlightedLines();
      QList<int> inInit;
      for (int line : shown)
        if (line > init && line < forward) inInit << line;
      // The weight (and bias) the statement reads as self.<name> are declared on the highlighted __init__ lines.
      const int statement = view->currentLine();
      QVERIFY(statement > forward);
      QVERIFY(shown.contains(statement));
      // Flat (`self.conv1_weight`) or in the module tree (`self.layer1[0].conv1.weight`).
      QRegularExpression member("self\\.([\\w.\\[\\]]*\\w)");
      auto it = member.globalMatch(text.value(statement - 1));
      int members = 0;
      while (it.hasNext()) {
        const QString name = it.next().captured(1);
        ++members;
        bool declared = false;
        for (int line : inInit)
          declared |= text.value(line - 1).trimmed().startsWith("self." + name + " =") ||
                      text.value(line - 1).contains("'" + name + "'");
        QVERIFY2(declared, qPrintable(QStringLiteral("%1: self.%2 not among the highlighted __init__ lines")
                                          .arg(QString::fromStdString(n->name), name)));
      }
      QVERIFY(members >= 1);
      QCOMPARE(inInit.size(), members);
      ++checked;
    }
    QVERIFY(checked > 40);
    // A declaration's line selects the node that uses the weight.
    const ir::Node* firstConv = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (n->opType == "Conv" && !firstConv) firstConv = n.get();
    const int declaration = controller->generatedCode()->weightLines.at(firstConv->id()).front();
    view->setTextCursor(QTextCursor(view->document()->findBlockByNumber(declaration - 1)));
    QCOMPARE(w.document()->focusNode(), firstConv);
  }

  // A line written for a node inside a Loop/If body opens that body and selects the node there.
  void choosingALineOpensTheSubgraph() {
    MainWindow w;
    auto* controller = w.conversion()->controller();
    CodePreview* preview = w.conversion()->codePreview();
    QVERIFY(openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    QVERIFY(pickAndWait(w, Flavour::OneFlow));
    QCOMPARE(controller->dryRun()->nodes.size(), w.document()->model()->graph().totalNodeCount());
    QVERIFY(previewAndWait(w));
    const ir::Node* inner = nodeInSubgraph(w.document()->model()->graph());
    QVERIFY(inner);
    const auto it = controller->generatedCode()->nodeLines.find(inner->id());
    QVERIFY(it != controller->generatedCode()->nodeLines.end());
    const int line = it->second.front();
    QCOMPARE(w.document()->levelCount(), 1);
    preview->view()->setTextCursor(QTextCursor(preview->view()->document()->findBlockByNumber(line - 1)));
    QCOMPARE(w.document()->levelCount(), 2);
    QCOMPARE(w.document()->currentLevel().graph, inner->graph());
    QCOMPARE(w.document()->focusNode(), inner);
    // And back: a node of the main graph from inside the body.
    const ir::Node* outer = w.document()->model()->graph().nodes().back().get();
    const int outerLine = controller->generatedCode()->nodeLines.at(outer->id()).front();
    preview->view()->setTextCursor(QTextCursor(preview->view()->document()->findBlockByNumber(outerLine - 1)));
    QCOMPARE(w.document()->levelCount(), 1);
    QCOMPARE(w.document()->focusNode(), outer);
  }

  // Save converted... writes model.py, run.py and weights.pt into a new folder, refuses a foreign non-empty folder
  // and the source's folder with the reason shown, and asks before replacing a generated folder.
  void savingWritesTheGeneratedFolder() {
    const QString dir = test::scratchDir("ui_codegen_save");
    MainWindow w;
    FakeDialog dialog;
    dialog.install(w);
    auto* controller = w.conversion()->controller();
    auto* panel = w.conversion()->panel();
    const QString source = test::corpusModel("super_resolution_op11.onnx");
    const QByteArray sourceBytes = readAll(source);
    QVERIFY(openAndWait(w, source));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QVERIFY(!panel->saveAction()->isEnabled());
    QVERIFY(previewAndWait(w));
    QVERIFY(panel->saveAction()->isEnabled());

    const QString out = dir + "/super_resolution_pytorch";
    QVERIFY(saveAndWait(w, dialog, out));
    QVERIFY(dialog.suggestions.last().endsWith("/super_resolution_op11_pytorch"));
    QVERIFY(QFileInfo(out + "/model.py").isFile());
    QVERIFY(QFileInfo(out + "/run.py").isFile());
    QVERIFY(QFileInfo(out + "/weights.pt").size() > 0);
    QCOMPARE(readAll(out + "/model.py"), QByteArray::fromStdString(controller->generatedCode()->modelPy));
    QCOMPARE(readAll(source), sourceBytes);
    QVERIFY(w.logPanel()->toPlainText().contains("Saved " + out));

    // A folder with other files is refused, with the message shown, and left as it was.
    const QString foreign = dir + "/notes";
    QVERIFY(QDir().mkpath(foreign));
    QFile note(foreign + "/notes.txt");
    QVERIFY(note.open(QIODevice::WriteOnly));
    note.write("mine");
    note.close();
    QString why;
    QVERIFY(!saveAndWait(w, dialog, foreign, &why));
    QVERIFY2(why.contains("not empty"), qPrintable(why));
    QTest::qWait(20);
    auto* box = panel->findChild<QMessageBox*>("saveFailedMessage");
    QVERIFY(box);
    QVERIFY(box->text().contains("not empty"));
    QCOMPARE(QDir(foreign).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList{"notes.txt"});

    // Replacing a generated folder asks first; No keeps it.
    QFile::remove(out + "/run.py");
    QFile::copy(out + "/model.py", out + "/run.py");
    MessageBoxAnswer no;
    no.arm("replaceQuestion", QMessageBox::No);
    QVERIFY(!saveAndWait(w, dialog, out, nullptr, 300));
    QVERIFY(no.answered);
    QCOMPARE(readAll(out + "/run.py"), readAll(out + "/model.py"));
    MessageBoxAnswer yes;
    yes.arm("replaceQuestion", QMessageBox::Yes);
    QVERIFY(saveAndWait(w, dialog, out));
    QVERIFY(readAll(out + "/run.py") != readAll(out + "/model.py"));

    // Changing the target drops the code: nothing to save, the view is empty.
    QVERIFY(pickAndWait(w, Flavour::OneFlow));
    QVERIFY(!controller->generatedCode());
    QVERIFY(!panel->saveAction()->isEnabled());
    QVERIFY(w.conversion()->codePreview()->view()->toPlainText().isEmpty());
    // OneFlow code writes its weights as a folder.
    QVERIFY(previewAndWait(w));
    QVERIFY(saveAndWait(w, dialog, dir + "/super_resolution_oneflow"));
    QVERIFY(QFileInfo(dir + "/super_resolution_oneflow/weights").isDir());
    QVERIFY(readAll(dir + "/super_resolution_oneflow/model.py").contains("import oneflow"));
  }

  // Never over the source: a folder that holds the model is refused even when it looks like generated code.
  void theSourceFolderIsRefused() {
    const QString dir = test::scratchDir("ui_codegen_source");
    const QString copy = dir + "/model.onnx";
    QVERIFY(QFile::copy(test::corpusModel("super_resolution_op11.onnx"), copy));
    for (const char* name : {"/model.py", "/run.py"}) {
      QFile f(dir + name);
      QVERIFY(f.open(QIODevice::WriteOnly));
    }
    MainWindow w;
    FakeDialog dialog;
    dialog.install(w);
    QVERIFY(openAndWait(w, copy));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QVERIFY(previewAndWait(w));
    MessageBoxAnswer yes;  // replace the "generated" folder? yes: the controller must still refuse
    yes.arm("replaceQuestion", QMessageBox::Yes);
    QString why;
    QVERIFY(!saveAndWait(w, dialog, dir, &why));
    QVERIFY2(why.contains("holds the source"), qPrintable(why));
    QVERIFY(QFileInfo(copy).isFile());
  }

  // A folder with a model.py and a run.py but without FlowBridge's marker may be the user's own project: it is not
  // offered for replacing, and the save is refused with the reason; a folder FlowBridge saved is offered.
  void onlyAFolderWithTheMarkerIsReplaced() {
    const QString dir = test::scratchDir("ui_codegen_marker");
    const QString project = dir + "/project";
    QVERIFY(QDir().mkpath(project));
    for (const char* name : {"/model.py", "/run.py"}) {
      QFile f(project + name);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("mine");
    }
    MainWindow w;
    FakeDialog dialog;
    dialog.install(w);
    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QVERIFY(previewAndWait(w));
    MessageBoxAnswer yes;
    yes.arm("replaceQuestion", QMessageBox::Yes);
    QString why;
    QVERIFY(!saveAndWait(w, dialog, project, &why));
    QVERIFY(!yes.answered);  // never asked
    QVERIFY2(why.contains("did not generate") && why.contains(codegen::kGeneratedFolderMarker), qPrintable(why));
    QCOMPARE(QDir(project).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList({"model.py", "run.py"}));
    QCOMPARE(readAll(project + "/model.py"), QByteArray("mine"));
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"project"});

    const QString saved = dir + "/saved";
    QVERIFY(saveAndWait(w, dialog, saved));
    QVERIFY(QFileInfo(saved + "/" + codegen::kGeneratedFolderMarker).isFile());
    MessageBoxAnswer again;
    again.arm("replaceQuestion", QMessageBox::Yes);
    QVERIFY(saveAndWait(w, dialog, saved));
    QVERIFY(again.answered);
    QVERIFY2(again.text.contains(codegen::kGeneratedFolderMarker), qPrintable(again.text));
  }

  // A node without a handler is unsupported with its reason and a red halo; its code is a raise line, and the
  // folder is written only after an explicit Yes.
  void incompleteCodeNeedsConfirmation() {
    const QString dir = test::scratchDir("ui_codegen_incomplete");
    auto m = loadModel(test::corpusModel("super_resolution_op11.onnx").toStdString());
    uint64_t changed = 0;
    for (const auto& n : m->graph().nodes())
      if (n->opType == "Relu") {
        n->opType = "MaxRoiPool";  // an ONNX op with no code handler
        changed = n->id();
        break;
      }
    QVERIFY(changed);
    const QString path = dir + "/super_resolution_hardmax.onnx";
    onnxfmt::writeOnnxFile(*m, path.toStdString());

    MainWindow w;
    FakeDialog dialog;
    dialog.install(w);
    auto* controller = w.conversion()->controller();
    QVERIFY(openAndWait(w, path));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    const ir::Node* hardmax = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (n->opType == "MaxRoiPool") hardmax = n.get();
    QVERIFY(hardmax);
    QCOMPARE(controller->statusOf(hardmax->id()), std::optional(convert::NodeStatus::Unsupported));
    const auto* report = w.conversion()->panel()->reportModel();
    QCOMPARE(report->report(0).nodeId, hardmax->id());  // the most urgent row first
    QVERIFY(report->index(0, ConversionReportModel::MessageColumn).data().toString().contains("MaxRoiPool"));
    QVERIFY(previewAndWait(w));
    QVERIFY(controller->generatedCode()->modelPy.find("raise NotImplementedError") != std::string::npos);
    QVERIFY(w.conversion()->panel()->summaryLabel()->text().contains("incomplete"));

    const QString out = dir + "/out";
    MessageBoxAnswer no;
    no.arm("saveIncompleteQuestion", QMessageBox::No);
    QVERIFY(!saveAndWait(w, dialog, out, nullptr, 300));
    QVERIFY(no.answered);
    QVERIFY(no.text.contains("NotImplementedError"));
    QVERIFY(!QFileInfo::exists(out));
    MessageBoxAnswer yes;
    yes.arm("saveIncompleteQuestion", QMessageBox::Yes);
    QVERIFY(saveAndWait(w, dialog, out));
    QVERIFY(readAll(out + "/model.py").contains("raise NotImplementedError"));
    QVERIFY(w.logPanel()->toPlainText().contains("INCOMPLETE"));
  }

  // Cancel drops a generation under way: nothing is shown and nothing can be saved.
  void cancelDropsTheGeneratedCode() {
    MainWindow w;
    auto* controller = w.conversion()->controller();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    QVERIFY(pickAndWait(w, Flavour::PyTorch));
    QSignalSpy failed(controller, &ConversionController::conversionFailed);
    w.conversion()->panel()->previewAction()->trigger();
    QVERIFY(controller->isConverting());
    controller->cancel();
    QCOMPARE(failed.size(), 1);
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
    QVERIFY(!controller->generatedCode());
    QVERIFY(!w.conversion()->panel()->saveAction()->isEnabled());
    QVERIFY(w.conversion()->codePreview()->view()->toPlainText().isEmpty());
  }
};

QTEST_MAIN(UiCodegen)
#include "test_ui_codegen.moc"
