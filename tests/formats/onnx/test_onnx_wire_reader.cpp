// The wire decoder (readMappedModel: nodes, attributes and initializers decoded from the mapped bytes) and the
// ordinary reader (protobuf's parse, then importModel) give the same model: the same ModelProto when written
// back, the same source files, the same error for an invalid model. Checked on every corpus model, on ONNX's
// node tests, and on models whose bytes take every branch of the decoder (packed and unpacked lists, repeated
// singular fields, unknown fields, typed and external-location tensors, subgraph attributes).
#include <QtTest>

#include <filesystem>
#include <fstream>

#include <google/protobuf/unknown_field_set.h>

#include "formats/onnx/onnx_mapped_parse.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_reader.h"
#include "ir/model.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  bool ok = false;
  std::string text;                        // the written-back model, or the error
  std::vector<std::string> sourceFiles{};  // none for a failure
};

onnxfmt::ImportOptions optionsFor(const std::string& path) {
  onnxfmt::ImportOptions opts;
  opts.modelPath = path;
  opts.modelDir = fs::path(path).parent_path().string();
  return opts;
}

Outcome written(const ir::Model& m) {
  onnx::ModelProto back;
  onnxfmt::exportModel(m, back);
  return {true, back.SerializeAsString(), m.sourceFiles};
}

Outcome viaWire(const std::string& path, bool* tookWirePath) {
  try {
    auto m = onnxfmt::readMappedModel(path, optionsFor(path));
    *tookWirePath = m != nullptr;
    if (!m) return {false, "not taken"};
    return written(*m);
  } catch (const InputError& e) {
    *tookWirePath = true;
    return {false, e.what()};
  }
}

Outcome viaProtobuf(const std::string& path) {
  try {
    onnx::ModelProto proto;
    onnxfmt::parseOnnxProtoFile(path, proto);
    return written(*onnxfmt::importModel(proto, optionsFor(path)));
  } catch (const InputError& e) {
    return {false, e.what()};
  }
}

void save(const onnx::ModelProto& m, const std::string& path) {
  std::ofstream f(path, std::ios::binary);
  m.SerializeToOstream(&f);
}

// Both readers on one file; the wire path must be taken (not fall back). With `valid`, both must read the model.
void compareReaders(const std::string& path, bool valid) {
  bool took = false;
  Outcome wire = viaWire(path, &took);
  if (!took) {
    QFAIL(qPrintable(QString::fromStdString(path) + ": the wire decoder did not take this file"));
  }
  Outcome proto = viaProtobuf(path);
  if (valid)
    QVERIFY2(wire.ok && proto.ok, qPrintable(QString::fromStdString(path + ": " + wire.text + " / " + proto.text)));
  QVERIFY2(wire.ok == proto.ok,
           qPrintable(QString::fromStdString(path + ": wire " + (wire.ok ? "read it" : wire.text) + ", protobuf " +
                                             (proto.ok ? "read it" : proto.text))));
  QVERIFY2(wire.text == proto.text,
           qPrintable(QString::fromStdString(path + ": the two readers differ" +
                                             (wire.ok ? "" : ": " + wire.text + " / " + proto.text))));
  QCOMPARE(wire.sourceFiles, proto.sourceFiles);
  // readOnnxFile (what the app and the CLI call) gives the same.
  if (wire.ok) QCOMPARE(written(*onnxfmt::readOnnxFile(path)).text, wire.text);
}

void addUnknownBytes(google::protobuf::Message* m, int field, const std::string& bytes) {
  m->GetReflection()->MutableUnknownFields(m)->AddLengthDelimited(field, bytes);
}

void addUnknownVarint(google::protobuf::Message* m, int field, uint64_t v) {
  m->GetReflection()->MutableUnknownFields(m)->AddVarint(field, v);
}

std::string packedVarints(const std::vector<int64_t>& values) {
  std::string out;
  for (int64_t s : values) {
    auto v = static_cast<uint64_t>(s);
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      out.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
    } while (v);
  }
  return out;
}

onnx::ValueInfoProto* floatVi(onnx::ValueInfoProto* vi, const std::string& name, std::vector<int64_t> dims) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
  return vi;
}

onnx::TensorProto* rawTensor(onnx::GraphProto* g, const std::string& name, std::vector<int64_t> dims) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (auto d : dims) t->add_dims(d), n *= d;
  std::string bytes(static_cast<size_t>(n) * 4, '\0');
  for (int64_t k = 0; k < n; ++k) {
    float v = 0.25f * static_cast<float>(k);
    std::memcpy(bytes.data() + k * 4, &v, 4);
  }
  t->set_raw_data(bytes);
  return t;
}

// A valid model whose bytes take every branch of the decoder.
onnx::ModelProto oddBytesModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("wire-test");
  m.add_opset_import()->set_version(13);
  addUnknownBytes(&m, 22, "model-level field from a newer onnx");
  auto* g = m.mutable_graph();
  g->set_name("odd");
  g->set_doc_string("graph doc");
  addUnknownBytes(g, 16, "graph metadata_props");
  floatVi(g->add_input(), "x", {1, 4});
  floatVi(g->add_output(), "y", {1, 4});
  floatVi(g->add_value_info(), "h", {1, 4});
  auto* small = rawTensor(g, "small", {4});   // inline raw data: copied
  auto* big = rawTensor(g, "big", {4, 300});  // large raw data: stays in the map
  big->set_doc_string("weights");
  big->set_data_location(onnx::TensorProto::DEFAULT);              // written out explicitly
  auto* unknownTensor = rawTensor(g, "unknown_tensor", {4, 300});  // protobuf's parse, data in the map
  addUnknownBytes(unknownTensor, 16, "tensor metadata_props");
  auto* typed = g->add_initializer();  // typed storage
  typed->set_name("typed");
  typed->set_data_type(onnx::TensorProto::FLOAT);
  typed->add_dims(4);
  for (float v : {1.f, 2.f, 3.f, 4.f}) typed->add_float_data(v);
  auto* packedDims = rawTensor(g, "packed_dims", {2, 2});  // dims packed (protobuf writes them one by one)
  packedDims->clear_dims();
  addUnknownBytes(packedDims, 1, packedVarints({2, 2}));
  (void)small;

  auto* add = g->add_node();
  add->set_op_type("Add");
  add->add_input("x");
  add->add_input("small");
  add->add_output("a");
  add->set_name("first name");
  addUnknownBytes(add, 3, "/scope/add");  // name twice: the last one wins
  add->set_doc_string("node doc");

  auto* conv = g->add_node();
  conv->set_op_type("Gemm");
  conv->set_domain("");
  conv->add_input("a");
  conv->add_input("big");
  conv->add_output("h");
  conv->set_name("/scope/gemm");
  auto* alpha = conv->add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(0.5f);
  auto* trans = conv->add_attribute();
  trans->set_name("transB");
  trans->set_type(onnx::AttributeProto::INT);
  trans->set_i(-1);  // ten-byte varint
  trans->set_doc_string("attribute doc");

  auto* custom = g->add_node();
  custom->set_op_type("Custom");
  custom->set_domain("com.example");
  custom->add_input("h");
  custom->add_input("");
  custom->add_input("typed");
  custom->add_input("unknown_tensor");
  custom->add_input("packed_dims");
  custom->add_output("c");
  custom->add_output("");
  auto* ints = custom->add_attribute();
  ints->set_name("ints_mixed");
  ints->set_type(onnx::AttributeProto::INTS);
  ints->add_ints(1);
  ints->add_ints(-2);
  addUnknownBytes(ints, 8, packedVarints({3, 400000, -5}));  // the rest packed
  auto* floats = custom->add_attribute();
  floats->set_name("floats_mixed");
  floats->set_type(onnx::AttributeProto::FLOATS);
  floats->add_floats(1.5f);
  float packed[2] = {2.5f, -3.5f};
  addUnknownBytes(floats, 7, std::string(reinterpret_cast<const char*>(packed), sizeof packed));
  auto* strings = custom->add_attribute();
  strings->set_name("strings");
  strings->set_type(onnx::AttributeProto::STRINGS);
  strings->add_strings("one");
  strings->add_strings(std::string("t\0o", 3));
  auto* s = custom->add_attribute();
  s->set_name("s");
  s->set_type(onnx::AttributeProto::STRING);
  s->set_s("a string long enough to live on the heap");
  auto* ref = custom->add_attribute();
  ref->set_name("from_caller");
  ref->set_type(onnx::AttributeProto::FLOAT);
  ref->set_ref_attr_name("outer");
  auto* futureAttr = custom->add_attribute();  // a field from a newer onnx: protobuf's parse for this one
  futureAttr->set_name("future");
  futureAttr->set_type(onnx::AttributeProto::INT);
  futureAttr->set_i(7);
  addUnknownVarint(futureAttr, 30, 9);
  auto* strangeType = custom->add_attribute();  // a type value onnx 1.12 does not know
  strangeType->set_name("strange_type");
  addUnknownVarint(strangeType, 20, 99);
  auto* t = custom->add_attribute();
  t->set_name("value");
  t->set_type(onnx::AttributeProto::TENSOR);
  t->mutable_t()->set_data_type(onnx::TensorProto::INT64);
  t->mutable_t()->add_int64_data(3);

  auto* iff = g->add_node();  // a subgraph attribute, reading an outer value
  iff->set_op_type("If");
  iff->add_input("cond");
  iff->add_output("y");
  addUnknownBytes(iff, 9, "node metadata_props");
  auto* cond = g->add_initializer();
  cond->set_name("cond");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = iff->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* body = a->mutable_g();
    body->set_name(branch);
    auto* n = body->add_node();
    n->set_op_type("Identity");
    n->add_input("c");
    n->add_output(std::string(branch) + "_out");
    floatVi(body->add_output(), std::string(branch) + "_out", {1, 4});
  }
  auto* qa = g->add_quantization_annotation();
  qa->set_tensor_name("h");
  auto* e = qa->add_quant_parameter_tensor_names();
  e->set_key("SCALE_TENSOR");
  e->set_value("small");
  auto* fn = m.add_functions();
  fn->set_name("F");
  fn->set_domain("com.example");
  fn->add_input("p");
  fn->add_output("q");
  auto* fnode = fn->add_node();
  fnode->set_op_type("Relu");
  fnode->add_input("p");
  fnode->add_output("q");
  auto* md = m.add_metadata_props();
  md->set_key("k");
  md->set_value("v");
  return m;
}

}  // namespace

class OnnxWireReader : public QObject {
  Q_OBJECT
 private slots:
  void corpusModelsReadTheSame() {
    int n = 0;
    for (const QString& f : test::corpusModels()) {
      compareReaders(test::corpusModel(f).toStdString(), true);
      if (QTest::currentTestFailed()) return;
      ++n;
    }
    QVERIFY(n >= 10);
  }

  void nodeTestsReadTheSame() {
    const fs::path root = "/usr/share/libonnx-testdata/data/node";
    if (!fs::exists(root)) QSKIP("libonnx-testdata is not installed");
    int n = 0;
    for (const auto& dir : fs::directory_iterator(root)) {
      const fs::path model = dir.path() / "model.onnx";
      if (!fs::exists(model)) continue;
      compareReaders(model.string(), true);
      if (QTest::currentTestFailed()) return;
      ++n;
    }
    QVERIFY(n > 500);
  }

  void oddBytesReadTheSame() {
    const std::string path = (test::scratchDir("wire_odd") + "/odd.onnx").toStdString();
    save(oddBytesModel(), path);
    compareReaders(path, true);
    // The decoder really took the odd parts apart: spot checks on what it built.
    auto m = onnxfmt::readOnnxFile(path);
    const ir::Graph& g = m->graph();
    const ir::Node* custom = g.findValue("c")->producer();
    QCOMPARE(custom->attrInts("ints_mixed"), (std::vector<int64_t>{1, -2, 3, 400000, -5}));
    QCOMPARE(custom->attr("floats_mixed")->floats, (std::vector<float>{1.5f, 2.5f, -3.5f}));
    QCOMPARE(custom->attr("strings")->strings[1], std::string("t\0o", 3));
    QCOMPARE(custom->attr("from_caller")->refAttrName, std::string("outer"));
    QVERIFY(!custom->attr("future")->unknownFields.empty());
    QCOMPARE(g.findValue("a")->producer()->name, std::string("/scope/add"));
    QCOMPARE(g.findValue("h")->producer()->attrInt("transB", 0), int64_t(-1));
    QCOMPARE(g.findValue("big")->initializer()->values<float>()[5], 1.25f);
    QCOMPARE(g.findValue("packed_dims")->initializer()->dims, (std::vector<int64_t>{2, 2}));
    QCOMPARE(g.findValue("typed")->initializer()->storage, ir::Tensor::Storage::Typed);
    QVERIFY(!g.findValue("y")->producer()->unknownFields.empty());
    QVERIFY(!g.unknownFields.empty());
  }

  void invalidModelsFailTheSame_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("output defined twice") << 0;
    QTest::newRow("raw data of the wrong size") << 1;
    QTest::newRow("undefined input") << 2;
    QTest::newRow("negative dim") << 3;
    QTest::newRow("tensor attribute without a tensor") << 4;
    QTest::newRow("output listed twice") << 5;
    QTest::newRow("initializer and node output") << 6;
    QTest::newRow("unknown data type") << 7;
  }

  void invalidModelsFailTheSame() {
    QFETCH(int, which);
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    floatVi(g->add_input(), "x", {4});
    floatVi(g->add_output(), "y", {4});
    auto* w = rawTensor(g, "w", {4});
    auto* n = g->add_node();
    n->set_op_type("Add");
    n->set_name("/add");
    n->add_input("x");
    n->add_input("w");
    n->add_output("y");
    switch (which) {
      case 0: {
        auto* again = g->add_node();
        again->set_op_type("Relu");
        again->add_input("x");
        again->add_output("y");
        break;
      }
      case 1:
        w->mutable_raw_data()->pop_back();
        break;
      case 2:
        n->set_input(1, "nowhere");
        break;
      case 3:
        w->set_dims(0, -4);
        break;
      case 4: {
        auto* a = n->add_attribute();
        a->set_name("t");
        a->set_type(onnx::AttributeProto::TENSOR);
        break;
      }
      case 5:
        n->add_output("y");
        break;
      case 6:
        n->set_output(0, "w");
        break;
      case 7:
        w->set_data_type(99);
        break;
    }
    const std::string path = (test::scratchDir("wire_invalid") + "/bad.onnx").toStdString();
    save(m, path);
    compareReaders(path, false);
    bool took = false;
    QVERIFY(!viaWire(path, &took).ok);
  }

  void damagedBytesFallBackToProtobufsMessage() {
    const std::string path = (test::scratchDir("wire_damaged") + "/damaged.onnx").toStdString();
    std::string bytes = oddBytesModel().SerializeAsString();
    // Cut inside the graph: the graph field's length now runs past the end of the file.
    bytes.resize(bytes.size() - 40);
    std::ofstream(path, std::ios::binary) << bytes;
    bool took = true;
    viaWire(path, &took);
    QVERIFY(!took);
    QVERIFY_THROWS_EXCEPTION(InputError, onnxfmt::readOnnxFile(path));
  }
};

QTEST_GUILESS_MAIN(OnnxWireReader)
#include "test_onnx_wire_reader.moc"
