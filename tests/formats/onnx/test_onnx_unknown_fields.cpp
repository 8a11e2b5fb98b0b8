// Fields that onnx 1.12's onnx.proto does not know (metadata_props on nodes/graphs/tensors/value infos,
// NodeProto.overload, device configurations, FunctionProto.overload/value_info, ...) survive a read -> write
// round trip byte for byte. The model is written by hand as wire bytes (tags + varints), so the fields are
// exactly those of the newer proto, and read both ways FlowBridge reads: the mapped path (large raw_data left
// in the file) and the inline path (protobuf parses everything).
#include <QtTest>

#include <google/protobuf/unknown_field_set.h>

#include <fstream>

#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "support/helpers.h"

using namespace fb;

namespace {

// --- a minimal protobuf wire encoder ---------------------------------------------------------------------
std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += char((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += char(v);
  return out;
}
std::string tag(uint32_t field, uint32_t wire) { return varint((uint64_t(field) << 3) | wire); }
std::string vInt(uint32_t field, uint64_t v) { return tag(field, 0) + varint(v); }
std::string len(uint32_t field, const std::string& payload) { return tag(field, 2) + varint(payload.size()) + payload; }
std::string fixed32(uint32_t field, uint32_t v) {
  std::string out = tag(field, 5);
  for (int k = 0; k < 4; ++k) out += char((v >> (8 * k)) & 0xff);
  return out;
}
std::string fixed64(uint32_t field, uint64_t v) {
  std::string out = tag(field, 1);
  for (int k = 0; k < 8; ++k) out += char((v >> (8 * k)) & 0xff);
  return out;
}
std::string entry(const std::string& k, const std::string& v) {
  return len(1, k) + len(2, v);
}  // StringStringEntryProto
std::string floatBits(float f) {
  std::string out(4, '\0');
  std::memcpy(out.data(), &f, 4);
  return out;
}
std::string tensorType(int elem, int64_t dim) {  // TypeProto{tensor_type{elem_type, shape{dim{dim_value}}}}
  return len(1, vInt(1, elem) + len(2, len(1, vInt(1, uint64_t(dim)))));
}

// Unknown fields per message, as they are written into the model below (the newer onnx.proto's numbers).
struct Expected {
  std::string model, graph, node, attribute, initializerSmall, initializerLarge, input, output, function, functionNode;
};

constexpr int kLarge = 2048;  // floats: 8 KB of raw_data, above the reader's zero-copy threshold

std::string buildModel(Expected& e) {
  // NodeProto: overload = 8, metadata_props = 9, device_configurations = 10 (NodeDeviceConfigurationProto with
  // configuration_id = 1, sharding_spec = 2 {tensor_name = 1, device = 2}, pipeline_stage = 3).
  e.node = len(8, "fast") + len(9, entry("source", "layer1.add")) +
           len(10, len(1, "mesh") + len(2, len(1, "y") + vInt(2, 0) + vInt(2, 1)) + vInt(3, 2));
  // AttributeProto: a field number no version uses yet, plus a fixed32 and a fixed64 (other wire types).
  e.attribute = vInt(30, 7) + fixed32(31, 0xdeadbeef) + fixed64(32, 0x0123456789abcdefULL);
  std::string attribute = len(1, "alpha") + fixed32(2, 0x3e4ccccd) + vInt(20, 1) + e.attribute;
  std::string leaky = len(1, "x") + len(2, "t") + len(3, "leaky") + len(4, "LeakyRelu") + len(5, attribute);
  std::string add = len(1, "t") + len(1, "w_large") + len(2, "u") + len(3, "add") + len(4, "Add") + e.node;
  std::string mul = len(1, "u") + len(1, "w_small") + len(2, "y") + len(3, "mul") + len(4, "Mul");
  // TensorProto.metadata_props = 16.
  e.initializerLarge = len(16, entry("quantized_by", "nobody"));
  e.initializerSmall = len(16, entry("k", "v")) + len(16, entry("k2", "v2"));
  std::string large(kLarge * 4, '\0');
  for (int k = 0; k < kLarge; ++k) std::memcpy(large.data() + 4 * k, floatBits(0.001f * k).data(), 4);
  std::string wLarge = vInt(1, kLarge) + vInt(2, 1) + len(8, "w_large") + len(9, large) + e.initializerLarge;
  std::string wSmall = vInt(1, 1) + vInt(2, 1) + len(8, "w_small") + e.initializerSmall + len(9, floatBits(2.0f));
  // ValueInfoProto.metadata_props = 4.
  e.input = len(4, entry("role", "image"));
  e.output = len(4, entry("role", "logits")) + vInt(5, 1);
  std::string input = len(1, "x") + len(2, tensorType(1, kLarge)) + e.input;
  std::string output = len(1, "y") + len(2, tensorType(1, kLarge)) + e.output;
  // GraphProto.metadata_props = 16.
  e.graph = len(16, entry("graph_note", "hand-written"));
  std::string graph = len(1, leaky) + len(1, add) + len(1, mul) + len(2, "g") + len(5, wSmall) + len(5, wLarge) +
                      e.graph + len(11, input) + len(12, output);
  // FunctionProto: attribute_proto = 11, value_info = 12, overload = 13, metadata_props = 14; its node has an
  // overload too.
  e.functionNode = len(8, "v2");
  e.function = len(11, len(1, "beta") + fixed32(2, 0x3f800000) + vInt(20, 1)) + len(12, len(1, "a")) + len(13, "v2") +
               len(14, entry("author", "test"));
  std::string fnNode = len(1, "a") + len(2, "b") + len(4, "Identity") + e.functionNode;
  std::string function = len(1, "MyFn") + len(4, "a") + len(5, "b") + len(7, fnNode) + len(9, vInt(2, 21)) +
                         len(10, "custom") + e.function;
  // ModelProto.configuration = 26 (DeviceConfigurationProto: name = 1, num_devices = 2, device = 3).
  e.model = len(26, len(1, "mesh") + vInt(2, 2) + len(3, "cpu:0") + len(3, "cpu:1"));
  return vInt(1, 10) + len(2, "hand") + len(7, graph) + len(8, vInt(2, 21)) + len(8, len(1, "custom") + vInt(2, 1)) +
         len(25, function) + e.model;
}

std::string unknownOf(const google::protobuf::Message& m) {
  std::string out;
  m.GetReflection()->GetUnknownFields(m).SerializeToString(&out);
  return out;
}

const onnx::TensorProto* initializer(const onnx::GraphProto& g, const std::string& name) {
  for (const auto& t : g.initializer())
    if (t.name() == name) return &t;
  return nullptr;
}

void compareUnknown(const onnx::ModelProto& out, const Expected& e) {
  QCOMPARE(unknownOf(out), e.model);
  const auto& g = out.graph();
  QCOMPARE(unknownOf(g), e.graph);
  QCOMPARE(g.node_size(), 3);
  for (const auto& n : g.node()) {
    if (n.op_type() == "Add")
      QCOMPARE(unknownOf(n), e.node);
    else
      QCOMPARE(unknownOf(n), std::string());
    if (n.op_type() == "LeakyRelu") {
      QCOMPARE(n.attribute_size(), 1);
      QCOMPARE(unknownOf(n.attribute(0)), e.attribute);
      QCOMPARE(n.attribute(0).f(), 0.2f);
    }
  }
  QVERIFY(initializer(g, "w_small") && initializer(g, "w_large"));
  QCOMPARE(unknownOf(*initializer(g, "w_small")), e.initializerSmall);
  QCOMPARE(unknownOf(*initializer(g, "w_large")), e.initializerLarge);
  QCOMPARE(initializer(g, "w_large")->raw_data().size(), size_t(kLarge * 4));
  QCOMPARE(unknownOf(g.input(0)), e.input);
  QCOMPARE(unknownOf(g.output(0)), e.output);
  QCOMPARE(out.functions_size(), 1);
  QCOMPARE(unknownOf(out.functions(0)), e.function);
  QCOMPARE(out.functions(0).node_size(), 1);
  QCOMPARE(unknownOf(out.functions(0).node(0)), e.functionNode);
}

}  // namespace

class TestOnnxUnknownFields : public QObject {
  Q_OBJECT

 private slots:
  // The hand-written bytes really are unknown to onnx 1.12 (otherwise the test would prove nothing).
  void bytesAreUnknownToOnnx112() {
    Expected e;
    onnx::ModelProto m;
    QVERIFY(m.ParseFromString(buildModel(e)));
    QCOMPARE(unknownOf(m), e.model);
    QCOMPARE(unknownOf(m.graph().node(1)), e.node);
    QCOMPARE(unknownOf(m.functions(0)), e.function);
  }

  // Mapped path: readOnnxFile leaves the large raw_data in the file and parses the rest piecewise.
  void mappedReadWrite() {
    Expected e;
    const QString dir = test::scratchDir("unknown_fields_mapped");
    const std::string in = (dir + "/in.onnx").toStdString(), out = (dir + "/out.onnx").toStdString();
    std::ofstream(in, std::ios::binary) << buildModel(e);
    auto model = onnxfmt::readOnnxFile(in);
    const ir::Tensor* large = nullptr;
    for (const auto& t : model->graph().initializers())
      if (t->name == "w_large") large = t.get();
    QVERIFY(large);
    QCOMPARE(large->asDouble().at(kLarge - 1), double(0.001f * (kLarge - 1)));
    onnxfmt::writeOnnxFile(*model, out, {});
    onnx::ModelProto written;
    onnxfmt::parseOnnxProtoFile(out, written);
    compareUnknown(written, e);
    // A clone (what conversion works on) keeps them too.
    auto copy = model->clone();
    const std::string out2 = (dir + "/clone.onnx").toStdString();
    onnxfmt::writeOnnxFile(*copy, out2, {});
    onnx::ModelProto written2;
    onnxfmt::parseOnnxProtoFile(out2, written2);
    compareUnknown(written2, e);
  }

  // Inline path: protobuf parses the whole file (what the reader falls back to), then the importer.
  void inlineReadWrite() {
    Expected e;
    const QString dir = test::scratchDir("unknown_fields_inline");
    const std::string in = (dir + "/in.onnx").toStdString(), out = (dir + "/out.onnx").toStdString();
    std::ofstream(in, std::ios::binary) << buildModel(e);
    onnx::ModelProto proto;
    onnxfmt::parseOnnxProtoFile(in, proto);
    onnxfmt::ImportOptions opts;
    opts.modelPath = in;
    opts.modelDir = dir.toStdString();
    auto model = onnxfmt::importModel(proto, opts);
    onnxfmt::writeOnnxFile(*model, out, {});
    onnx::ModelProto written;
    onnxfmt::parseOnnxProtoFile(out, written);
    compareUnknown(written, e);
  }

  // With the weights moved to a side file the tensor's own unknown fields still stay on the TensorProto.
  void sideFileWrite() {
    Expected e;
    const QString dir = test::scratchDir("unknown_fields_side");
    const std::string in = (dir + "/in.onnx").toStdString(), out = (dir + "/out.onnx").toStdString();
    std::ofstream(in, std::ios::binary) << buildModel(e);
    auto model = onnxfmt::readOnnxFile(in);
    onnxfmt::WriteOptions w;
    w.externalData = onnxfmt::WriteOptions::ExternalData::SideFile;
    onnxfmt::writeOnnxFile(*model, out, w);
    onnx::ModelProto written;
    onnxfmt::parseOnnxProtoFile(out, written);
    const auto* t = initializer(written.graph(), "w_large");
    QVERIFY(t);
    QCOMPARE(t->data_location(), onnx::TensorProto::EXTERNAL);
    QCOMPARE(unknownOf(*t), e.initializerLarge);
    QCOMPARE(unknownOf(written.graph().node(1)), e.node);
  }
};

QTEST_GUILESS_MAIN(TestOnnxUnknownFields)
#include "test_onnx_unknown_fields.moc"
