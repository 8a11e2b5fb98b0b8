// A OneFlow graph in the inspector: it opens like any model, and the Convert dock converts it through the
// OneFlow handlers (direction "oneflow"), not the ONNX retargeting ones.
#include <QtTest>

#include "oneflow_fixture.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/document.h"

using namespace fb;
using namespace fb::ui;

class OneflowUiConversion : public QObject {
  Q_OBJECT
 private slots:
  void resnet18OpensAndConverts() {
    Document doc;
    ConversionController controller(&doc);
    QSignalSpy changed(&doc, &Document::modelChanged);
    QSignalSpy dry(&controller, &ConversionController::dryRunFinished);
    doc.open(test::oneflow::fixture("resnet18"));
    QVERIFY(changed.wait(60000));
    QVERIFY(doc.model());
    QVERIFY(doc.model()->opsetVersion("oneflow") != 0);
    QVERIFY(doc.model()->graph().nodeCount() > 50);
    QVERIFY(dry.wait(30000));
    const auto* r = controller.dryRun();
    QVERIFY(r && r->error.empty());
    QCOMPARE(r->direction, std::string("oneflow"));
    // Every OneFlow op becomes ONNX: converted, none unsupported or failed at opset 17.
    QCOMPARE(r->count(convert::NodeStatus::Unsupported), size_t(0));
    QCOMPARE(r->count(convert::NodeStatus::Failed), size_t(0));
    QVERIFY(r->count(convert::NodeStatus::Converted) > 50);
    QSignalSpy done(&controller, &ConversionController::conversionFinished);
    controller.convert();
    QVERIFY(done.wait(60000));
    auto out = controller.convertedModel();
    QVERIFY(out);
    QCOMPARE(out->opsetVersion("oneflow"), int64_t(0));
    for (const auto& n : out->graph().nodes()) QVERIFY2(n->isDefaultDomain(), n->qualifiedOp().c_str());
  }
};

QTEST_MAIN(OneflowUiConversion)
#include "test_ui_oneflow_conversion.moc"
