// The app on a hand-built opset-21 model with an int4 and a float8e4m3fn weight (packed in raw_data): the Tensor
// panel shows the type, its packing, the stored bytes, the decoded values and their statistics (NaN counted
// apart), and the Node panel gives Cast's since-version from FlowBridge's own table (21, which libonnx lacks).
#include <QtTest>

#include <fstream>

#include <onnx/onnx_pb.h>

#include "support/wait_for_ui.h"
#include "ir/graph.h"
#include "support/helpers.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/tensor_panel.h"

using namespace fb;

namespace {

using fb::test::openAndWait;

void addCast(onnx::GraphProto* g, const std::string& in, const std::string& out, int64_t n) {
  auto* node = g->add_node();
  node->set_name("cast_" + in);
  node->set_op_type("Cast");
  node->add_input(in);
  node->add_output(out);
  auto* to = node->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::FLOAT);
  auto* o = g->add_output();
  o->set_name(out);
  o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  o->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(n);
}

void addWeight(onnx::GraphProto* g, const std::string& name, int type, int64_t n, const std::string& raw) {
  auto* w = g->add_initializer();
  w->set_name(name);
  w->set_data_type(type);
  w->add_dims(n);
  w->set_raw_data(raw);
}

QString writeModel(const QString& dir) {
  onnx::ModelProto m;
  m.set_ir_version(10);
  m.add_opset_import()->set_version(21);
  auto* g = m.mutable_graph();
  g->set_name("narrow");
  // int4 codes 0, 1, 7, 8, 15 = 0, 1, 7, -8, -1; element 0 in the low nibble, the last high nibble is padding.
  addWeight(g, "w4", 22, 5, std::string("\x10\x87\x0f", 3));
  // float8e4m3fn 0x38 = 1, 0x40 = 2, 0xb8 = -1, 0x7f = NaN.
  addWeight(g, "w8", 17, 4, std::string("\x38\x40\xb8\x7f", 4));
  addCast(g, "w4", "y4", 5);
  addCast(g, "w8", "y8", 4);
  const QString path = dir + "/narrow_21.onnx";
  std::ofstream(path.toStdString(), std::ios::binary) << m.SerializeAsString();
  return path;
}

}  // namespace

class TestUiNarrowTensors : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_narrow_tensors");
  }

  void tensorPanelDecodes() {
    const QString path = writeModel(test::scratchDir("ui_narrow_tensors"));
    ui::MainWindow w;
    w.show();
    QVERIFY2(openAndWait(w, path), qPrintable(w.lastError()));
    const ir::Graph& g = w.document()->model()->graph();

    w.document()->selectValue(g.findValue("w4"));
    auto* t = w.tensorPanel()->model();
    QCOMPARE(t->valueOf("dtype"), QStringLiteral("int4"));
    QCOMPARE(t->valueOf("storage"), QStringLiteral("4-bit, 2 per byte, element 0 in the low nibble"));
    QCOMPARE(t->valueOf("bytes"), QStringLiteral("3"));
    QCOMPARE(t->valueOf("elements"), QStringLiteral("5"));
    QCOMPARE(t->valueOf("first values"), QStringLiteral("0, 1, 7, -8, -1"));
    QCOMPARE(t->valueOf("min"), QStringLiteral("-8"));
    QCOMPARE(t->valueOf("max"), QStringLiteral("7"));
    QCOMPARE(t->valueOf("mean"), QStringLiteral("-0.2"));

    w.document()->selectValue(g.findValue("w8"));
    QCOMPARE(t->valueOf("dtype"), QStringLiteral("float8e4m3fn"));
    QCOMPARE(t->valueOf("storage"), QStringLiteral("8-bit, 1 byte each"));
    QCOMPARE(t->valueOf("first values"), QStringLiteral("1, 2, -1, nan"));
    QCOMPARE(t->valueOf("NaN"), QStringLiteral("1"));
    QCOMPARE(t->valueOf("min"), QStringLiteral("-1"));
    QCOMPARE(t->valueOf("max"), QStringLiteral("2"));
    QCOMPARE(t->valueOf("mean"), QStringLiteral("0.666667"));

    // Cast at opset 21 is Cast-21 (FlowBridge's table), not libonnx's Cast-13.
    const ir::Node* cast = g.nodes().front().get();
    w.document()->selectNode(cast);
    QVERIFY2(w.nodePanel()->model()->valueOf("since version").startsWith("21"),
             qPrintable(w.nodePanel()->model()->valueOf("since version")));
  }
};

QTEST_MAIN(TestUiNarrowTensors)
#include "test_ui_narrow_tensors.moc"
