// Hand-built models whose weights are float8 (all five), float4e2m1, int4/uint4 and int2/uint2, packed in
// raw_data: they open, their decoded values and statistics (what the Tensor panel shows) match a reference
// decoding computed here from the bit patterns, `inspect` names size and packing, and they convert (down to 17
// with the weights widened, up to 26 kept), with ONNX Runtime agreeing where its CPU build has the Cast.
#include <QtTest>

#include <cmath>
#include <fstream>

#include <onnx/onnx_pb.h>

#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "inspect/model_summary.h"
#include "inspect/tensor_values.h"
#include "ir/graph.h"
#include "ir/packed_types.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

// --- reference decoding, written from the format descriptions (onnx docs technical/float8.md etc.) -----------
double minifloat(uint32_t code, int expBits, int manBits, int bias) {
  const uint32_t man = code & ((1u << manBits) - 1), exp = (code >> manBits) & ((1u << expBits) - 1);
  const double sign = (code >> (expBits + manBits)) & 1 ? -1.0 : 1.0;
  if (exp == 0) return sign * std::ldexp(double(man), 1 - bias - manBits);
  return sign * std::ldexp(1.0 + double(man) / (1 << manBits), int(exp) - bias);
}
double reference(int type, uint32_t c) {
  const double nan = std::nan("");
  switch (type) {
    case 17:
      return (c & 0x7f) == 0x7f ? nan : minifloat(c, 4, 3, 7);  // E4M3FN
    case 18:
      return c == 0x80 ? nan : minifloat(c & 0x7f, 4, 3, 8) * (c & 0x80 ? -1 : 1);  // E4M3FNUZ
    case 19:                                                                        // E5M2
      if ((c & 0x7c) == 0x7c) return (c & 3) ? nan : ((c & 0x80) ? -INFINITY : INFINITY);
      return minifloat(c, 5, 2, 15);
    case 20:
      return c == 0x80 ? nan : minifloat(c & 0x7f, 5, 2, 16) * (c & 0x80 ? -1 : 1);  // E5M2FNUZ
    case 21:
      return double(c & 15);  // UINT4
    case 22:
      return double(int(c & 15) - ((c & 8) ? 16 : 0));  // INT4
    case 23:
      return minifloat(c & 15, 2, 1, 1);  // FLOAT4E2M1
    case 24:
      return c == 0xff ? nan : std::ldexp(1.0, int(c) - 127);  // FLOAT8E8M0
    case 25:
      return double(c & 3);  // UINT2
    case 26:
      return double(int(c & 3) - ((c & 2) ? 4 : 0));  // INT2
  }
  return nan;
}
int bitsOf(int type) { return type == 21 || type == 22 || type == 23 ? 4 : type == 25 || type == 26 ? 2 : 8; }

// Element codes for each type: every interesting pattern (zero, subnormal, max, negative, NaN where there is one).
std::vector<uint32_t> codes(int type) {
  switch (bitsOf(type)) {
    case 4:
      return {0, 1, 2, 7, 8, 9, 15, 5, 3};  // odd count: the last byte's high nibble is padding
    case 2:
      return {0, 1, 2, 3, 3, 2};  // 6 elements in 2 bytes
    default:
      return {0x00, 0x01, 0x08, 0x38, 0x7e, 0x7f, 0x80, 0xb8, 0xfe, 0x40, 0x23};
  }
}

std::string pack(int type, const std::vector<uint32_t>& c) {
  const int bits = bitsOf(type), per = 8 / bits;
  std::string out((c.size() + per - 1) / per, '\0');
  for (size_t k = 0; k < c.size(); ++k)
    out[k / per] = char(uint8_t(out[k / per]) | ((c[k] & ((1u << bits) - 1)) << (bits * (k % per))));
  return out;
}

int opsetFor(int type) { return type <= 20 ? 19 : type <= 22 ? 21 : type == 23 ? 23 : type == 24 ? 24 : 25; }
int irFor(int opset) { return opset == 19 ? 9 : opset == 21 ? 10 : opset == 23 ? 11 : opset == 24 ? 12 : 13; }

// y = Cast(w, to=float), w the narrow initializer.
void writeModel(const std::string& path, int type, const std::vector<uint32_t>& c) {
  onnx::ModelProto m;
  m.set_ir_version(irFor(opsetFor(type)));
  m.add_opset_import()->set_version(opsetFor(type));
  auto* g = m.mutable_graph();
  g->set_name("narrow");
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(type);
  w->add_dims(int64_t(c.size()));
  w->set_raw_data(pack(type, c));
  auto* n = g->add_node();
  n->set_op_type("Cast");
  n->add_input("w");
  n->add_output("y");
  auto* to = n->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::FLOAT);
  auto* out = g->add_output();
  out->set_name("y");
  auto* tt = out->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(int64_t(c.size()));
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
}

bool sameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

QString& dirStorage() {
  static QString d;
  return d;
}

}  // namespace

class TestNarrowWeightValues : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { dirStorage() = test::scratchDir("narrow_weights"); }

  void decodesAndConverts_data() {
    QTest::addColumn<int>("type");
    for (int t = 17; t <= 26; ++t) QTest::newRow(ir::dataTypeName(static_cast<ir::DataType>(t)).data()) << t;
  }
  void decodesAndConverts() {
    QFETCH(int, type);
    const auto dtype = static_cast<ir::DataType>(type);
    const auto c = codes(type);
    const QString base = dirStorage() + "/" + QString::fromUtf8(ir::dataTypeName(dtype).data());
    const std::string path = (base + ".onnx").toStdString();
    writeModel(path, type, c);
    auto model = loadModel(path);
    const ir::Tensor* w = model->graph().initializers().front().get();
    QCOMPARE(w->dtype, dtype);
    QCOMPARE(w->expectedBytes(), pack(type, c).size());

    // Decoded values, element by element, against the reference decoding of the same bits.
    const auto values = w->asDouble();
    QCOMPARE(values.size(), c.size());
    std::vector<double> want;
    for (uint32_t code : c) want.push_back(reference(type, code));
    for (size_t k = 0; k < c.size(); ++k)
      QVERIFY2(sameValue(values[k], want[k]),
               qPrintable(
                   QString("element %1 (code 0x%2): %3, want %4").arg(k).arg(c[k], 0, 16).arg(values[k]).arg(want[k])));

    // The statistics the Tensor panel shows.
    const ValueStats st = valueStats(*w);
    size_t nan = 0, inf = 0, finite = 0;
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (double v : want) {
      if (std::isnan(v))
        ++nan;
      else if (std::isinf(v))
        ++inf;
      else
        ++finite, lo = std::min(lo, v), hi = std::max(hi, v), sum += v;
    }
    QCOMPARE(st.count, c.size());
    QCOMPARE(st.nan, nan);
    QCOMPARE(st.inf, inf);
    QCOMPARE(st.finite, finite);
    QCOMPARE(st.min, lo);
    QCOMPARE(st.max, hi);
    QVERIFY(std::abs(st.mean - sum / double(finite)) < 1e-12 * std::max(1.0, std::abs(st.mean)));
    const std::string storage = storageDescription(dtype);
    QVERIFY2(storage.rfind(std::to_string(bitsOf(type)) + "-bit", 0) == 0, storage.c_str());
    if (bitsOf(type) == 4) QVERIFY(storage.find("low nibble") != std::string::npos);

    // `inspect` names the type with its size and packing.
    auto summary = summarize(*model);
    const auto& wt = summary.weightTypes.at(std::string(ir::dataTypeName(dtype)));
    QCOMPARE(wt.elements, uint64_t(c.size()));
    QCOMPARE(wt.bytes, uint64_t(pack(type, c).size()));
    QCOMPARE(wt.storage, storage);
    auto cli = test::runCli({"inspect", QString::fromStdString(path), "--json"});
    QCOMPARE(cli.exitCode, 0);
    auto json = QJsonDocument::fromJson(cli.out).object().value("weight_types").toObject();
    QCOMPARE(json.value(QString::fromUtf8(ir::dataTypeName(dtype).data())).toObject().value("bytes").toInt(),
             int(pack(type, c).size()));

    // Down to 17: the weight becomes float/int8/uint8 with the same values. Up to 26: kept as it is.
    convert::ConvertOptions o;
    o.targetOpset = 17;
    auto down = convert::convertModel(*model, o);
    QString why = QString::fromStdString(down.error);
    for (const auto& n : down.nodes) why += QString::fromStdString(" " + n.opType + ": " + n.message);
    QVERIFY2(down.complete() && down.model, qPrintable(why));
    const ir::Tensor* wide = nullptr;
    for (const auto& t : down.model->graph().initializers()) wide = t.get();
    if (wide) {  // constant folding may have turned Cast(w) into the output's initializer
      QVERIFY(!ir::isNarrowType(wide->dtype));
      const auto widened = wide->asDouble();
      QCOMPARE(widened.size(), c.size());
      for (size_t k = 0; k < c.size(); ++k) QVERIFY(sameValue(widened[k], want[k]));
    }
    o.targetOpset = 26;
    auto up = convert::convertModel(*model, o);
    QVERIFY2(up.complete() && up.model, qPrintable(QString::fromStdString(up.error)));
    QCOMPARE(up.model->graph().initializers().front()->dtype, dtype);
    QCOMPARE(up.model->irVersion, int64_t(13));

    // ONNX Runtime reads the source as this test decodes it, and the opset-17 model computes the same.
    if (type == 21 || type == 22) {  // the float8 codes include NaN, which the oracle does not compare
      QVERIFY(test::oracleInstalled());
      const QString to17 = base + "_to17.onnx";
      onnxfmt::writeOnnxFile(*down.model, to17.toStdString());
      auto run = test::runOracle(base + ".onnx", {to17});
      QVERIFY2(run.ok(), qPrintable(run.failures()));
    }
  }
};

QTEST_GUILESS_MAIN(TestNarrowWeightValues)
#include "test_inspect_narrow_weight_values.moc"
