// A model that uses every field ONNX has (all attribute kinds, typed tensor storage for every dtype, sparse
// initializers, container types, functions, training info, custom domains, subgraphs) survives read -> write.
#include <QtTest>

#include <fstream>

#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "support/helpers.h"
#include "support/proto_builders.h"

using namespace fb;

namespace {

onnx::ValueInfoProto* tensorVi(onnx::ValueInfoProto* vi, const std::string& name, int elem,
                               std::vector<std::string> dims) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* sh = tt->mutable_shape();
  for (const auto& d : dims) {
    auto* dim = sh->add_dim();
    if (d == "?") continue;
    if (std::isdigit(static_cast<unsigned char>(d[0])))
      dim->set_dim_value(std::stoll(d));
    else
      dim->set_dim_param(d);
  }
  return vi;
}

void addTypedTensors(onnx::GraphProto* g) {
  using T = onnx::TensorProto;
  auto add = [&](const std::string& name, int dt) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(dt);
    t->add_dims(3);
    return t;
  };
  auto* f = add("t_float", T::FLOAT);
  for (float v : {1.5f, -2.f, 3.25f}) f->add_float_data(v);
  auto* h = add("t_half", T::FLOAT16);
  for (int v : {0x3c00, 0xc000, 0x7bff}) h->add_int32_data(v);
  auto* bf = add("t_bf16", T::BFLOAT16);
  for (int v : {0x3f80, 0xbf80, 0x4000}) bf->add_int32_data(v);
  auto* i8 = add("t_int8", T::INT8);
  for (int v : {-128, 0, 127}) i8->add_int32_data(v);
  auto* u8 = add("t_uint8", T::UINT8);
  for (int v : {0, 200, 255}) u8->add_int32_data(v);
  auto* i16 = add("t_int16", T::INT16);
  for (int v : {-30000, 1, 30000}) i16->add_int32_data(v);
  auto* u16 = add("t_uint16", T::UINT16);
  for (int v : {0, 1, 65535}) u16->add_int32_data(v);
  auto* b = add("t_bool", T::BOOL);
  for (int v : {1, 0, 1}) b->add_int32_data(v);
  auto* i32 = add("t_int32", T::INT32);
  for (int v : {-7, 0, 2147483647}) i32->add_int32_data(v);
  auto* i64 = add("t_int64", T::INT64);
  for (int64_t v : {-9000000000LL, 0LL, 9000000000LL}) i64->add_int64_data(v);
  auto* d = add("t_double", T::DOUBLE);
  for (double v : {1e-300, -2.5, 3e300}) d->add_double_data(v);
  auto* u32 = add("t_uint32", T::UINT32);
  for (uint64_t v : {0ull, 1ull, 4294967295ull}) u32->add_uint64_data(v);
  auto* u64 = add("t_uint64", T::UINT64);
  for (uint64_t v : {0ull, 1ull, 18446744073709551615ull}) u64->add_uint64_data(v);
  auto* s = add("t_string", T::STRING);
  for (const char* v : {"a", "", "long string"}) s->add_string_data(v);
  auto* c64 = add("t_complex64", T::COMPLEX64);
  for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) c64->add_float_data(v);
  auto* raw = add("t_raw", T::FLOAT);
  float rv[3] = {7.f, 8.f, 9.f};
  raw->set_raw_data(rv, sizeof rv);
  raw->set_doc_string("raw storage");
}

onnx::ModelProto everyFieldModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("fidelity-test");
  m.set_producer_version("1.0");
  m.set_domain("org.flowbridge.test");
  m.set_model_version(42);
  m.set_doc_string("every field");
  auto* op = m.add_opset_import();
  op->set_version(16);
  auto* op2 = m.add_opset_import();
  op2->set_domain("com.example");
  op2->set_version(3);
  auto* md = m.add_metadata_props();
  md->set_key("author");
  md->set_value("tests");
  auto* g = m.mutable_graph();
  g->set_name("main");
  g->set_doc_string("main graph");
  tensorVi(g->add_input(), "x", onnx::TensorProto::FLOAT, {"batch", "4", "?"});
  auto* cond = tensorVi(g->add_input(), "cond", onnx::TensorProto::BOOL, {});
  cond->set_doc_string("a scalar");
  addTypedTensors(g);
  // Sparse initializer.
  auto* sp = g->add_sparse_initializer();
  sp->add_dims(4);
  sp->add_dims(4);
  auto* spv = sp->mutable_values();
  spv->set_name("sparse_w");
  spv->set_data_type(onnx::TensorProto::FLOAT);
  spv->add_dims(2);
  spv->add_float_data(1.f);
  spv->add_float_data(2.f);
  auto* spi = sp->mutable_indices();
  spi->set_data_type(onnx::TensorProto::INT64);
  spi->add_dims(2);
  spi->add_int64_data(0);
  spi->add_int64_data(5);
  // A node with every attribute kind.
  auto* n = g->add_node();
  n->set_name("custom0");
  n->set_op_type("Everything");
  n->set_domain("com.example");
  n->set_doc_string("custom op");
  n->add_input("x");
  n->add_input("");
  n->add_input("sparse_w");
  n->add_output("y");
  n->add_output("");
  n->add_output("y2");
  using A = onnx::AttributeProto;
  auto attr = [&](const char* name, A::AttributeType t) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(t);
    return a;
  };
  attr("f", A::FLOAT)->set_f(0.25f);
  attr("i", A::INT)->set_i(-3);
  attr("s", A::STRING)->set_s(std::string("bytes\0x", 7));
  auto* at = attr("t", A::TENSOR)->mutable_t();
  at->set_data_type(onnx::TensorProto::INT64);
  at->add_int64_data(5);
  auto* fs = attr("floats", A::FLOATS);
  fs->add_floats(1.f);
  fs->add_floats(2.f);
  auto* is = attr("ints", A::INTS);
  is->add_ints(1);
  is->add_ints(-1);
  auto* ss = attr("strings", A::STRINGS);
  ss->add_strings("a");
  ss->add_strings("b");
  auto* ts = attr("tensors", A::TENSORS);
  ts->add_tensors()->set_data_type(onnx::TensorProto::FLOAT);
  ts->mutable_tensors(0)->add_float_data(1.f);
  auto* spa = attr("sparse", A::SPARSE_TENSOR)->mutable_sparse_tensor();
  spa->add_dims(3);
  spa->mutable_values()->set_data_type(onnx::TensorProto::FLOAT);
  spa->mutable_values()->add_dims(1);
  spa->mutable_values()->add_float_data(4.f);
  spa->mutable_indices()->set_data_type(onnx::TensorProto::INT64);
  spa->mutable_indices()->add_dims(1);
  spa->mutable_indices()->add_int64_data(2);
  auto* tp = attr("tp", A::TYPE_PROTO)->mutable_tp();
  tp->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  auto* tps = attr("tps", A::TYPE_PROTOS);
  auto* mp = tps->add_type_protos()->mutable_map_type();
  mp->set_key_type(onnx::TensorProto::INT64);
  mp->mutable_value_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::DOUBLE);
  tps->add_type_protos()->mutable_optional_type()->mutable_elem_type()->mutable_sparse_tensor_type()->set_elem_type(1);
  auto* gr = attr("body", A::GRAPH)->mutable_g();
  gr->set_name("body");
  auto* inner = gr->add_node();
  inner->set_op_type("Identity");
  inner->add_input("x");  // captured from the enclosing graph
  inner->add_output("inner_out");
  tensorVi(gr->add_output(), "inner_out", onnx::TensorProto::FLOAT, {"batch", "4", "?"});
  auto* grs = attr("branches", A::GRAPHS);
  grs->add_graphs()->set_name("empty_branch");
  auto* ref = n->add_attribute();
  ref->set_name("alpha");
  ref->set_type(A::FLOAT);
  ref->set_ref_attr_name("outer_alpha");
  ref->set_doc_string("refers to a function attribute");
  // A call to a model-local function.
  auto* call = g->add_node();
  call->set_op_type("MyFunc");
  call->set_domain("com.example");
  call->add_input("y");
  call->add_output("z");
  tensorVi(g->add_output(), "z", onnx::TensorProto::FLOAT, {"batch", "4", "?"});
  auto* seq = g->add_output();
  seq->set_name("y2");
  seq->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  seq->mutable_type()->set_denotation("SEQ");
  tensorVi(g->add_value_info(), "y", onnx::TensorProto::FLOAT, {"batch", "4", "7"});
  auto* qa = g->add_quantization_annotation();
  qa->set_tensor_name("y");
  auto* qp = qa->add_quant_parameter_tensor_names();
  qp->set_key("SCALE_TENSOR");
  qp->set_value("t_float");
  auto* fn = m.add_functions();
  fn->set_name("MyFunc");
  fn->set_domain("com.example");
  fn->add_input("a");
  fn->add_output("b");
  fn->add_attribute("outer_alpha");
  fn->set_doc_string("a local function");
  auto* fop = fn->add_opset_import();
  fop->set_version(16);
  auto* fnode = fn->add_node();
  fnode->set_op_type("Relu");
  fnode->add_input("a");
  fnode->add_output("b");
  auto* ti = m.add_training_info();
  ti->mutable_algorithm()->set_name("train");
  auto* ub = ti->add_update_binding();
  ub->set_key("w");
  ub->set_value("w_new");
  return m;
}

}  // namespace

class OnnxFidelity : public QObject {
  Q_OBJECT
 private slots:
  void everyFieldSurvivesImportExport() {
    onnx::ModelProto original = everyFieldModel();
    onnx::ModelProto copy = original;
    onnxfmt::ImportOptions opts;
    opts.modelPath = "in-memory";
    auto model = onnxfmt::importModel(copy, opts);
    onnx::ModelProto back;
    onnxfmt::exportModel(*model, back);
    std::string report;
    QVERIFY2(test::equivalentModels(original, back, &report), report.c_str());
  }

  void everyFieldSurvivesFiles() {
    QString dir = test::scratchDir("fidelity");
    std::string in = (dir + "/every.onnx").toStdString(), out = (dir + "/every_out.onnx").toStdString();
    onnx::ModelProto original = everyFieldModel();
    {
      std::ofstream f(in, std::ios::binary);
      QVERIFY(original.SerializeToOstream(&f));
    }
    auto model = onnxfmt::readOnnxFile(in);
    onnxfmt::writeOnnxFile(*model, out);
    onnx::ModelProto back;
    onnxfmt::parseOnnxProtoFile(out, back);
    std::string report;
    QVERIFY2(test::equivalentModels(original, back, &report), report.c_str());
  }

  void typedValuesDecodeToLittleEndianBytes() {
    onnx::ModelProto p = everyFieldModel();
    onnxfmt::ImportOptions opts;
    opts.modelPath = "in-memory";
    auto model = onnxfmt::importModel(p, opts);
    auto find = [&](const std::string& name) -> const ir::Tensor& {
      return *model->graph().findValue(name)->initializer();
    };
    QCOMPARE(find("t_float").values<float>(), (std::vector<float>{1.5f, -2.f, 3.25f}));
    QCOMPARE(find("t_half").asDouble(), (std::vector<double>{1.0, -2.0, 65504.0}));
    QCOMPARE(find("t_bf16").asDouble(), (std::vector<double>{1.0, -1.0, 2.0}));
    QCOMPARE(find("t_int8").asInt64(), (std::vector<int64_t>{-128, 0, 127}));
    QCOMPARE(find("t_uint16").asInt64(), (std::vector<int64_t>{0, 1, 65535}));
    QCOMPARE(find("t_int64").asInt64(), (std::vector<int64_t>{-9000000000LL, 0, 9000000000LL}));
    QCOMPARE(find("t_uint32").asInt64(), (std::vector<int64_t>{0, 1, 4294967295LL}));
    QCOMPARE(find("t_string").strings, (std::vector<std::string>{"a", "", "long string"}));
    QCOMPARE(find("t_complex64").bytes().size(), size_t(24));
    QCOMPARE(find("t_float").storage, ir::Tensor::Storage::Typed);
    QCOMPARE(find("t_raw").storage, ir::Tensor::Storage::Raw);
  }

  void useDefLinksAndScopes() {
    onnx::ModelProto p = everyFieldModel();
    onnxfmt::ImportOptions opts;
    opts.modelPath = "in-memory";
    auto model = onnxfmt::importModel(p, opts);
    ir::Graph& g = model->graph();
    ir::Value* x = g.findValue("x");
    QVERIFY(x->isGraphInput());
    QCOMPARE(x->uses().size(), size_t(1));
    ir::Node* custom = x->uses()[0].node;
    QCOMPARE(custom->qualifiedOp(), std::string("com.example::Everything"));
    QVERIFY(custom->input(1) == nullptr);   // omitted optional input
    QVERIFY(custom->output(1) == nullptr);  // omitted optional output
    ir::Value* y = g.findValue("y");
    QCOMPARE(y->producer(), custom);
    QCOMPARE(y->uses().size(), size_t(1));
    QCOMPARE(y->uses()[0].node->opType, std::string("MyFunc"));
    // The body reads x from the enclosing graph.
    ir::Graph* body = custom->attr("body")->graphs[0].get();
    QCOMPARE(body->parent(), &g);
    QVERIFY(body->findValue("x")->isOuterScope());
    QCOMPARE(body->capturedNames(), std::vector<std::string>{"x"});
    QCOMPARE(model->functions.size(), size_t(1));
    QCOMPARE(model->trainingInfo.size(), size_t(1));
    QCOMPARE(g.sparseInitializers().size(), size_t(1));
    QVERIFY(g.findValue("sparse_w")->isSparseInitializer());
  }

  void cloneIsDeepAndEqual() {
    onnx::ModelProto p = everyFieldModel();
    onnx::ModelProto original = p;
    onnxfmt::ImportOptions opts;
    opts.modelPath = "in-memory";
    auto model = onnxfmt::importModel(p, opts);
    auto copy = model->clone();
    // Editing the copy leaves the original alone.
    copy->graph().findValue("x")->uses()[0].node->opType = "Changed";
    copy->functions[0].body->nodes().front()->opType = "Sigmoid";
    onnx::ModelProto a, b;
    onnxfmt::exportModel(*model, a);
    onnxfmt::exportModel(*copy, b);
    std::string report;
    QVERIFY2(test::equivalentModels(original, a, &report), report.c_str());
    QVERIFY(!test::equivalentModels(original, b, &report));
    QCOMPARE(b.graph().node(0).op_type(), std::string("Changed"));
    QCOMPARE(b.functions(0).node(0).op_type(), std::string("Sigmoid"));
  }
};

QTEST_GUILESS_MAIN(OnnxFidelity)
#include "test_onnx_fidelity.moc"
