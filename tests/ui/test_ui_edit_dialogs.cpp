// The edit dialogs (ui/edit/dialogs/) on corpus models: each filled programmatically, its edits applied with
// fb::edit::applyEdit to a model read from the corpus, and the result checked (attribute value and type, tensor
// bytes from a .npy the test writes, the inserted node between the right values, the header changed). A wrong
// input shows core's checkEdit reason and disables OK; model strings with control characters or a great length are
// shown escaped and elided.
#include <QtTest>

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QLineEdit>
#include <QListWidget>
#include <QTableWidget>
#include <cstring>

#include "edit/apply_edits.h"
#include "edit/edit_script.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "support/helpers.h"
#include "ui/edit/dialogs/attribute_editor_dialog.h"
#include "ui/edit/dialogs/attribute_value_editor.h"
#include "ui/edit/dialogs/initializer_editor_dialog.h"
#include "ui/edit/dialogs/insert_node_dialog.h"
#include "ui/edit/dialogs/model_info_dialog.h"
#include "ui/edit/dialogs/op_type_dialog.h"

using namespace fb;
using namespace fb::ui;

namespace {

std::unique_ptr<ir::Model> load(const char* file) { return loadModel(test::corpusModel(file).toStdString()); }

ir::Node* firstOf(const ir::Model& m, const std::string& op) {
  for (const auto& n : m.graph().nodes())
    if (n->opType == op) return n.get();
  return nullptr;
}

ir::Node* named(const ir::Model& m, const std::string& name) {
  for (const auto& n : m.graph().nodes())
    if (n->name == name) return n.get();
  return nullptr;
}

// A version-1.0 .npy file: magic, header dict padded to a multiple of 64, then the raw little-endian bytes.
void writeNpy(const QString& path, const char* descr, const QString& shape, const QByteArray& raw) {
  QByteArray header = QStringLiteral("{'descr': '%1', 'fortran_order': False, 'shape': %2, }")
                          .arg(QString::fromLatin1(descr), shape)
                          .toLatin1();
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  QByteArray out("\x93NUMPY\x01\x00", 8);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header + raw;
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  QCOMPARE(f.write(out), qint64(out.size()));
}

QByteArray floatBytes(std::initializer_list<float> values) {
  QByteArray b;
  for (float v : values) b.append(reinterpret_cast<const char*>(&v), sizeof v);
  return b;
}

// The dialog's single edit, applied to `m`.
void applyOnly(ir::Model& m, const std::vector<edit::Edit>& edits) {
  QCOMPARE(edits.size(), size_t(1));
  edit::applyEdit(m, edits.front());
}

// What the user sees: the OK button's state and the reason line.
bool okEnabled(const QDialog& d) {
  const auto* box = d.findChild<QDialogButtonBox*>();
  return box && box->button(QDialogButtonBox::Ok)->isEnabled();
}
QString reasonShown(const QDialog& d) {
  const auto* label = d.findChild<QLabel*>(QStringLiteral("editReason"));
  return label ? label->text() : QStringLiteral("(no reason line)");
}

// Runs `act` on the modal dialog of type D once it shows (polled, as the app's exec() starts it).
template <class D, class F>
void whenShown(F act, int tries = 0) {
  if (auto* d = qobject_cast<D*>(QApplication::activeModalWidget())) {
    act(d);
    return;
  }
  if (tries < 500) QTimer::singleShot(10, [act, tries] { whenShown<D>(act, tries + 1); });
}

bool hasControlCharacters(const QString& s) {
  for (QChar c : s)
    if (c.unicode() < 0x20 || c.unicode() == 0x7f || (c.unicode() >= 0x80 && c.unicode() < 0xa0)) return true;
  return false;
}

}  // namespace

class TestUiEditDialogs : public QObject {
  Q_OBJECT

 private slots:
  // Conv on super_resolution: the node's attributes and the schema's others (auto_pad with its default) listed;
  // an int, an ints and a string attribute set; ints text for an int attribute refused with core's reason.
  void attributeEditorSetsTypedValues() {
    auto shown = load("super_resolution_op11.onnx");
    const ir::Node* conv = named(*shown, "/conv1/Conv");
    QVERIFY(conv);
    AttributeEditorDialog d(*shown, *conv, "group");
    QStringList names;
    for (int r = 0; r < d.table()->rowCount(); ++r) names << d.table()->item(r, 0)->text();
    for (const char* a : {"dilations", "group", "kernel_shape", "pads", "strides", "auto_pad"})
      QVERIFY2(names.contains(a), qPrintable(names.join(',')));
    const int autoPadRow = int(names.indexOf("auto_pad"));
    QVERIFY2(d.table()->item(autoPadRow, 2)->text().contains("NOTSET"),
             qPrintable(d.table()->item(autoPadRow, 2)->text()));
    QCOMPARE(d.table()->item(autoPadRow, 1)->text(), QStringLiteral("string"));
    QVERIFY(!d.docLabel()->text().isEmpty());  // group's documentation from the schema

    d.setValueText("1,2");
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("is int"), qPrintable(d.reason()));
    QVERIFY(!okEnabled(d));
    QCOMPARE(reasonShown(d), d.reason());
    d.setValueText("2");
    QVERIFY(!okEnabled(d));  // until the pause after typing has checked the new text
    QTRY_VERIFY(okEnabled(d));
    QVERIFY(reasonShown(d).isEmpty());
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    auto m = load("super_resolution_op11.onnx");
    applyOnly(*m, d.edits());
    const ir::Attribute* group = named(*m, "/conv1/Conv")->attr("group");
    QVERIFY(group && group->type == ir::AttrType::Int);
    QCOMPARE(group->i, int64_t(2));

    d.chooseAttribute("strides");
    QCOMPARE(d.valueEditor()->text(), QStringLiteral("1,1"));  // the value as it is, ready to edit
    d.setValueText("2,2");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    applyOnly(*m, d.edits());
    const ir::Attribute* strides = named(*m, "/conv1/Conv")->attr("strides");
    QVERIFY(strides && strides->type == ir::AttrType::Ints);
    QCOMPARE(strides->ints, (std::vector<int64_t>{2, 2}));

    d.chooseAttribute("auto_pad");                                // not on the node: typed by the schema
    QCOMPARE(d.valueEditor()->text(), QStringLiteral("NOTSET"));  // the schema's default, ready to edit
    d.setValueText("SAME_UPPER");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    applyOnly(*m, d.edits());
    const ir::Attribute* autoPad = named(*m, "/conv1/Conv")->attr("auto_pad");
    QVERIFY(autoPad && autoPad->type == ir::AttrType::String);
    QCOMPARE(autoPad->s.str(), std::string("SAME_UPPER"));

    // A name the schema does not have.
    d.chooseAttribute("no_such_attribute");
    d.setValueText("1");
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("has no attribute"), qPrintable(d.reason()));
  }

  // LayerNormalization's epsilon (float) and removing an attribute; a tensor attribute from a .npy file (its bytes
  // compared), and a missing .npy refused.
  void attributeEditorFloatTensorAndRemove() {
    auto shown = load("transformer_encoder_op17.onnx");
    const ir::Node* norm = firstOf(*shown, "LayerNormalization");
    QVERIFY(norm);
    AttributeEditorDialog d(*shown, *norm, "epsilon");
    d.setValueText("abc");
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("is float"), qPrintable(d.reason()));
    d.setValueText("0.001");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    auto m = load("transformer_encoder_op17.onnx");
    applyOnly(*m, d.edits());
    const ir::Attribute* eps = named(*m, norm->name)->attr("epsilon");
    QVERIFY(eps && eps->type == ir::AttrType::Float);
    QCOMPARE(eps->f, 0.001f);

    d.chooseAttribute("axis");
    d.setRemove(true);
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    QCOMPARE(d.edits().front().verb, std::string("remove-attr"));
    QVERIFY(named(*m, norm->name)->attr("axis"));  // torch writes it
    applyOnly(*m, d.edits());
    QVERIFY(!named(*m, norm->name)->attr("axis"));
    AttributeEditorDialog gone(*m, *named(*m, norm->name), "axis");  // now only the schema's, with its default
    gone.setRemove(true);
    gone.revalidate();
    QVERIFY(!gone.canAccept());

    const ir::Node* constant = firstOf(*shown, "Constant");
    QVERIFY(constant && constant->attr("value"));
    const QString npy = test::scratchDir("attribute_tensor") + "/value.npy";
    writeNpy(npy, "<f4", "(3,)", floatBytes({1.5f, -2.f, 4.f}));
    AttributeEditorDialog t(*shown, *constant, "value");
    QCOMPARE(t.valueEditor()->type(), ir::AttrType::Tensor);
    t.setValueText(npy + ".missing");
    t.revalidate();
    QVERIFY(!t.canAccept());
    QVERIFY2(t.reason().contains("value.npy.missing"), qPrintable(t.reason()));
    t.setValueText(npy);
    t.revalidate();
    QVERIFY2(t.canAccept(), qPrintable(t.reason()));
    applyOnly(*m, t.edits());
    const ir::Attribute* value = named(*m, constant->name)->attr("value");
    QVERIFY(value && value->type == ir::AttrType::Tensor);
    const ir::Tensor& tensor = value->tensors.vec().front();
    QCOMPARE(tensor.dtype, ir::DataType::Float);
    QCOMPARE(tensor.dims, (std::vector<int64_t>{3}));
    const auto bytes = tensor.bytes();
    QCOMPARE(QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())),
             floatBytes({1.5f, -2.f, 4.f}));
  }

  // An If's branches are graphs, which edits do not set: the editor is off and OK with it; removing one is an edit.
  void graphAttributesAreNotSet() {
    auto m = load("control_flow_op13.onnx");
    const ir::Node* branch = named(*m, "/If");
    QVERIFY(branch);
    AttributeEditorDialog d(*m, *branch, "then_branch");
    QCOMPARE(d.valueEditor()->type(), ir::AttrType::Graph);
    QVERIFY(!d.valueEditor()->lineEdit()->isEnabled());
    d.revalidate();
    QVERIFY(!d.canAccept());
    d.setRemove(true);
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    QCOMPARE(d.edits().front().verb, std::string("remove-attr"));
  }

  // A weight filled, cast, made a scalar and replaced from a .npy; a number that is not one and a missing file
  // refused.
  void initializerEditorChangesWeights() {
    auto shown = load("super_resolution_op11.onnx");
    InitializerEditorDialog d(*shown, "conv1.bias");
    QVERIFY(d.header()->text().contains("float"));
    d.setChange(InitializerEditorDialog::Change::Fill);
    d.setNumber("zero");
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("not a number"), qPrintable(d.reason()));
    d.setNumber("0.25");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    auto m = load("super_resolution_op11.onnx");
    const std::vector<int64_t> dims = m->graph().findValue("conv1.bias")->initializer()->dims;
    applyOnly(*m, d.edits());
    {
      const ir::Tensor& t = *m->graph().findValue("conv1.bias")->initializer();
      QCOMPARE(t.dims, dims);
      const auto b = t.bytes();
      QCOMPARE(b.size(), size_t(t.numElements()) * 4);
      for (size_t k = 0; k < b.size(); k += 4) {
        float v;
        std::memcpy(&v, b.data() + k, 4);
        QCOMPARE(v, 0.25f);
      }
    }
    d.setCastType("float16");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    applyOnly(*m, d.edits());
    QCOMPARE(m->graph().findValue("conv1.bias")->initializer()->dtype, ir::DataType::Float16);

    InitializerEditorDialog s(*m, "conv2.bias");
    s.setChange(InitializerEditorDialog::Change::Scalar);
    s.setNumber("3");
    s.revalidate();
    QVERIFY2(s.canAccept(), qPrintable(s.reason()));
    applyOnly(*m, s.edits());
    QVERIFY(m->graph().findValue("conv2.bias")->initializer()->dims.empty());

    const QString npy = test::scratchDir("initializer_npy") + "/bias.npy";
    writeNpy(npy, "<f4", "(2,)", floatBytes({7.f, 8.f}));
    InitializerEditorDialog r(*m, "conv3.bias");
    r.setChange(InitializerEditorDialog::Change::FromNpy);
    r.setNpyPath(npy + ".missing");
    r.revalidate();
    QVERIFY(!r.canAccept());
    QVERIFY2(r.reason().contains("bias.npy.missing"), qPrintable(r.reason()));
    r.setNpyPath(npy);
    r.revalidate();
    QVERIFY2(r.canAccept(), qPrintable(r.reason()));
    applyOnly(*m, r.edits());
    const ir::Tensor& t = *m->graph().findValue("conv3.bias")->initializer();
    QCOMPARE(t.dims, (std::vector<int64_t>{2}));
    const auto b = t.bytes();
    QCOMPARE(QByteArray(reinterpret_cast<const char*>(b.data()), qsizetype(b.size())), floatBytes({7.f, 8.f}));
  }

  // Relu becomes Sigmoid through the searchable list; an op the opset does not have is refused, by core up to
  // opset 17 and by the dialog's own list above it (where BitwiseAnd, new in 18, is offered).
  void opTypeDialogChangesTheOp() {
    auto shown = load("super_resolution_op11.onnx");
    const ir::Node* relu = named(*shown, "/relu/Relu");
    QVERIFY(relu);
    OpTypeDialog d(*shown, *relu);
    d.setFilter("sigm");
    QStringList listed;
    for (int r = 0; r < d.opList()->count(); ++r) listed << d.opList()->item(r)->text();
    QCOMPARE(listed, (QStringList{"HardSigmoid", "Sigmoid"}));
    d.setOpType("NoSuchOp");
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("has no op"), qPrintable(d.reason()));
    d.opList()->setCurrentRow(1);
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    auto m = load("super_resolution_op11.onnx");
    applyOnly(*m, d.edits());
    QCOMPARE(named(*m, "/relu/Relu")->opType, std::string("Sigmoid"));

    d.setFilter("Bitwise");
    QCOMPARE(d.opList()->count(), 0);  // opset 11 has none
    m->setOpsetVersion("", 20);
    OpTypeDialog newer(*m, *named(*m, "/relu_1/Relu"));
    newer.setFilter("Bitwise");
    QVERIFY(newer.opList()->count() >= 4);
    newer.setOpType("NoSuchOp");
    newer.revalidate();
    QVERIFY(!newer.canAccept());
    QVERIFY2(newer.reason().contains("opset 20 has no op"), qPrintable(newer.reason()));
    newer.setOpType("Mish");
    newer.revalidate();
    QVERIFY2(newer.canAccept(), qPrintable(newer.reason()));
  }

  // A Cast on the first conv's output (its one reader now reads the Cast); LeakyRelu with its schema's alpha on a
  // fire module's squeeze output that two convs read, one of them left reading the old value.
  void insertNodeDialogInsertsOnTheEdge() {
    auto shown = load("super_resolution_op11.onnx");
    const std::string value = named(*shown, "/conv1/Conv")->outputs()[0]->name();
    InsertNodeDialog d(*shown, value);
    QCOMPARE(d.readerList()->count(), 1);
    d.setCastTarget("float16");
    d.setOutputName("conv1_half");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    auto m = load("super_resolution_op11.onnx");
    applyOnly(*m, d.edits());
    const ir::Node* cast = firstOf(*m, "Cast");
    QVERIFY(cast);
    QCOMPARE(cast->inputs()[0]->name(), value);
    QCOMPARE(cast->outputs()[0]->name(), std::string("conv1_half"));
    QCOMPARE(cast->attr("to")->i, int64_t(ir::DataType::Float16));
    QCOMPARE(named(*m, "/relu/Relu")->inputs()[0]->name(), std::string("conv1_half"));
    InsertNodeDialog again(*m, value);
    again.setKind(InsertNodeDialog::Kind::Identity);
    again.setOutputName("conv1_half");
    again.revalidate();
    QVERIFY(!again.canAccept());
    QVERIFY2(again.reason().contains("already"), qPrintable(again.reason()));

    auto sq = load("squeezenet1_0_op11.onnx");
    const ir::Value* squeezed = nullptr;
    for (const auto& n : sq->graph().nodes())
      if (n->opType == "Relu" && n->outputs()[0]->uses().size() == 2) {
        squeezed = n->outputs()[0];
        break;
      }
    QVERIFY(squeezed);
    InsertNodeDialog o(*sq, squeezed->name());
    QCOMPARE(o.readerList()->count(), 2);
    o.setFilter("leaky");
    QCOMPARE(o.opList()->count(), 1);
    o.opList()->setCurrentRow(0);
    QVERIFY(o.attributeEditor("alpha"));
    QCOMPARE(o.attributeEditor("alpha")->type(), ir::AttrType::Float);
    o.attributeEditor("alpha")->setText("x");
    o.revalidate();
    QVERIFY(!o.canAccept());
    QVERIFY2(o.reason().contains("is float"), qPrintable(o.reason()));
    o.attributeEditor("alpha")->setText("0.2");
    o.setReaderChecked(1, false);
    o.setNodeName("leaky_inserted");
    o.revalidate();
    QVERIFY2(o.canAccept(), qPrintable(o.reason()));
    auto m2 = load("squeezenet1_0_op11.onnx");
    const ir::Value* before = m2->graph().findValue(squeezed->name());
    std::vector<std::string> readers;
    for (const auto& u : before->uses()) readers.push_back(u.node->name);
    applyOnly(*m2, o.edits());
    const ir::Node* leaky = named(*m2, "leaky_inserted");
    QVERIFY(leaky && leaky->opType == "LeakyRelu");
    QCOMPARE(leaky->attr("alpha")->f, 0.2f);
    QCOMPARE(leaky->inputs()[0]->name(), squeezed->name());
    QCOMPARE(named(*m2, readers[0])->inputs()[0], leaky->outputs()[0]);
    QCOMPARE(named(*m2, readers[1])->inputs()[0]->name(), squeezed->name());
    o.setReaderChecked(0, false);
    o.revalidate();
    QVERIFY(!o.canAccept());  // no reader left
  }

  // Above opset 17 the attributes come from FlowBridge's own facts: Cast-19's saturate is offered (typed int by its
  // default), set, and applied; ReduceMean-18's axes (an input since 18) is neither offered nor accepted.
  void opsetAbove17UsesOwnFacts() {
    auto m = load("super_resolution_op11.onnx");
    m->setOpsetVersion("", 20);
    const std::string value = named(*m, "/conv1/Conv")->outputs()[0]->name();
    InsertNodeDialog d(*m, value);
    d.setOtherOp("Cast");
    QVERIFY(d.attributeEditor("to"));
    QVERIFY(d.attributeEditor("saturate"));
    QCOMPARE(d.attributeEditor("saturate")->type(), ir::AttrType::Int);
    QVERIFY(!d.attributeEditor("round_mode"));  // Cast-24's
    d.attributeEditor("to")->setText(QString::number(int(ir::DataType::Float16)));
    d.attributeEditor("saturate")->setText("0");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    applyOnly(*m, d.edits());
    const ir::Node* cast = firstOf(*m, "Cast");
    QVERIFY(cast && cast->attr("saturate"));
    QCOMPARE(cast->attr("saturate")->type, ir::AttrType::Int);
    QCOMPARE(cast->attr("saturate")->i, int64_t(0));

    d.setOtherOp("ReduceMean");
    QVERIFY(d.attributeEditor("keepdims"));
    QVERIFY(!d.attributeEditor("axes"));
    const ir::Node* relu = named(*m, "/relu/Relu");
    QVERIFY(!edit::checkEdit(*m, edit::Edit{"set-op", {{"node", relu->name}, {"op", "ReduceMean"}}}));
    edit::applyEdit(*m, edit::Edit{"set-op", {{"node", relu->name}, {"op", "ReduceMean"}}});
    AttributeEditorDialog a(*m, *named(*m, "/relu/Relu"), "axes");
    a.setValueText("1");
    a.revalidate();
    QVERIFY(!a.canAccept());
    QVERIFY2(a.reason().contains("has no attribute"), qPrintable(a.reason()));
  }

  // Producer, opset, IR version and metadata changed in one action; an IR version core refuses and a key given twice
  // disable OK.
  void modelInfoDialogSetsTheHeader() {
    auto shown = load("super_resolution_op11.onnx");
    ModelInfoDialog d(*shown);
    d.revalidate();
    QVERIFY(!d.canAccept());  // nothing changed yet
    QCOMPARE(d.opsetTable()->rowCount(), 1);
    QCOMPARE(d.opsetTable()->item(0, 0)->text(), QStringLiteral("ai.onnx"));
    d.setProducer("fixer", "2.0");
    d.setOpset("ai.onnx", 13);
    d.setIrVersion(7);
    d.setMetadata("purpose", "edited");
    d.revalidate();
    QVERIFY2(d.canAccept(), qPrintable(d.reason()));
    auto m = load("super_resolution_op11.onnx");
    const auto edits = d.edits();
    QCOMPARE(edits.size(), size_t(4));
    edit::applyEdits(*m, edits);
    QCOMPARE(m->producerName, std::string("fixer"));
    QCOMPARE(m->producerVersion, std::string("2.0"));
    QCOMPARE(m->opsetVersion(""), int64_t(13));
    QCOMPARE(m->irVersion, int64_t(7));
    QCOMPARE(m->metadata.size(), size_t(1));
    QCOMPARE(m->metadata[0], (std::pair<std::string, std::string>("purpose", "edited")));

    d.setIrVersion(50);
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("IR version"), qPrintable(d.reason()));
    d.setIrVersion(7);
    d.metadataTable()->insertRow(1);
    d.metadataTable()->setItem(1, 0, new QTableWidgetItem("purpose"));
    d.metadataTable()->setItem(1, 1, new QTableWidgetItem("again"));
    d.revalidate();
    QVERIFY(!d.canAccept());
    QVERIFY2(d.reason().contains("twice"), qPrintable(d.reason()));

    // The edited model's metadata removed again.
    ModelInfoDialog r(*m);
    r.removeMetadata("purpose");
    r.revalidate();
    QVERIFY2(r.canAccept(), qPrintable(r.reason()));
    edit::applyEdits(*m, r.edits());
    QVERIFY(m->metadata.empty());
  }

  // The modal entry points the app calls: OK gives the form's edits, Cancel none.
  void askReturnsTheEditsOnOk() {
    auto m = load("super_resolution_op11.onnx");
    const ir::Node* conv = named(*m, "/conv2/Conv");
    whenShown<AttributeEditorDialog>([](AttributeEditorDialog* d) {
      d->setValueText("3");
      d->revalidate();  // what the pause after typing does
      d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    });
    const auto e = AttributeEditorDialog::ask(nullptr, *m, *conv, "group");
    QVERIFY(e);
    QCOMPARE(edit::formatEdit(*e), std::string("set-attr node=/conv2/Conv name=group value=3"));
    whenShown<ModelInfoDialog>([](ModelInfoDialog* d) {
      d->setProducer("x", "");
      d->reject();
    });
    QVERIFY(!ModelInfoDialog::ask(nullptr, *m));
  }

  // Names with control characters and a great length are shown escaped and elided (headers, reader lists,
  // reasons, metadata cells), while the edits still name the real node.
  void modelStringsAreShownEscapedAndElided() {
    auto m = load("squeezenet1_0_op11.onnx");
    ir::Node* conv = firstOf(*m, "Conv");
    const std::string hostile = "evil\x1b[2J\nname\u202e" + std::string(5000, 'x');
    conv->name = hostile;
    m->metadata.emplace_back("key\r\n", "value\x1b]0;title\x07");

    AttributeEditorDialog a(*m, *conv, "group");
    const QString header = a.header()->text();
    QVERIFY(!hasControlCharacters(header));
    QVERIFY2(header.contains("\\x1b") && header.contains("\\n"), qPrintable(header));
    QVERIFY(!header.contains(QChar(0x202e)));
    QVERIFY2(header.size() < 300, qPrintable(QString::number(header.size())));
    a.setValueText("1,2");
    a.revalidate();
    QVERIFY(!a.canAccept());
    QVERIFY(!hasControlCharacters(a.reason()));
    QVERIFY(a.reason().size() <= 240);
    a.setValueText("1");
    a.revalidate();
    QVERIFY2(a.canAccept(), qPrintable(a.reason()));
    QCOMPARE(a.edits().front().get("node"), hostile);  // the real name, not the shown one

    InsertNodeDialog i(*m, conv->inputs()[0]->name());
    for (int r = 0; r < i.readerList()->count(); ++r) {
      QVERIFY(!hasControlCharacters(i.readerList()->item(r)->text()));
      QVERIFY(i.readerList()->item(r)->text().size() < 200);
    }
    OpTypeDialog o(*m, *conv);
    QVERIFY(!hasControlCharacters(o.header()->text()));

    ModelInfoDialog info(*m);
    QCOMPARE(info.metadataTable()->rowCount(), 1);
    QVERIFY(!hasControlCharacters(info.metadataTable()->item(0, 0)->text()));
    QVERIFY(!hasControlCharacters(info.metadataTable()->item(0, 1)->text()));
    info.setProducer("p", "");
    info.revalidate();
    QVERIFY2(info.canAccept(), qPrintable(info.reason()));
    QCOMPARE(info.edits().size(), size_t(1));  // the escaped metadata cells are no change
  }
};

QTEST_MAIN(TestUiEditDialogs)
#include "test_ui_edit_dialogs.moc"
