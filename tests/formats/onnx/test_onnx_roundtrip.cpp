// Read -> write without changes gives a ModelProto equal to the original, field by field.
#include <QtTest>

#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "support/helpers.h"
#include "support/proto_builders.h"
#include "util/error.h"

using namespace fb;

class OnnxRoundTrip : public QObject {
  Q_OBJECT
 private slots:
  void corpusModel_data();
  void corpusModel();
};

void OnnxRoundTrip::corpusModel_data() {
  QTest::addColumn<QString>("file");
  for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
}

void OnnxRoundTrip::corpusModel() {
  QFETCH(QString, file);
  const std::string in = test::corpusModel(file).toStdString();
  const std::string out = (test::scratchDir("roundtrip") + "/" + file).toStdString();
  try {
    auto model = onnxfmt::readOnnxFile(in);
    onnxfmt::writeOnnxFile(*model, out, {});
    onnx::ModelProto a, b;
    onnxfmt::parseOnnxProtoFile(in, a);
    onnxfmt::parseOnnxProtoFile(out, b);
    std::string report;
    const bool equal = test::equivalentModels(a, b, &report);
    if (!equal) qWarning("%s", report.substr(0, 4000).c_str());
    QVERIFY2(equal, "the written model differs from the original");
    QVERIFY(a.graph().node_size() > 0);
  } catch (const std::exception& e) {
    QFAIL(e.what());
  }
}

QTEST_GUILESS_MAIN(OnnxRoundTrip)
#include "test_onnx_roundtrip.moc"
