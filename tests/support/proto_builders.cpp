#include "support/proto_builders.h"

#include <fstream>

#include <google/protobuf/util/message_differencer.h>
#include <stdexcept>

namespace fb::test {
namespace {

onnx::ModelProto skeleton() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("flowbridge-tests");
  m.add_opset_import()->set_version(13);
  auto* in = m.mutable_graph()->add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(4);
  return m;
}

void addOutput(onnx::GraphProto* g, const std::string& name) {
  auto* o = g->add_output();
  o->set_name(name);
  auto* tt = o->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(4);
}

void relu(onnx::GraphProto* g, const std::string& name, const std::string& in, const std::string& out) {
  auto* n = g->add_node();
  n->set_name(name);
  n->set_op_type("Relu");
  n->add_input(in);
  n->add_output(out);
}

}  // namespace

onnx::ModelProto reluChain(int length, const std::vector<int>& storedOrder) {
  onnx::ModelProto m = skeleton();
  std::vector<int> order = storedOrder;
  if (order.empty())
    for (int i = 0; i < length; ++i) order.push_back(i);
  for (int i : order) {
    std::string in = i == 0 ? "x" : "v" + std::to_string(i - 1);
    std::string out = i == length - 1 ? "y" : "v" + std::to_string(i);
    relu(m.mutable_graph(), "relu" + std::to_string(i), in, out);
  }
  addOutput(m.mutable_graph(), "y");
  return m;
}

onnx::ModelProto cyclicModel() {
  onnx::ModelProto m = skeleton();
  auto* g = m.mutable_graph();
  auto* add = g->add_node();
  add->set_name("join");
  add->set_op_type("Add");
  add->add_input("x");
  add->add_input("b");
  add->add_output("a");
  relu(g, "loop_back", "a", "b");
  addOutput(g, "b");
  return m;
}

onnx::ModelProto undefinedInputModel() {
  onnx::ModelProto m = skeleton();
  auto* g = m.mutable_graph();
  auto* add = g->add_node();
  add->set_name("adder");
  add->set_op_type("Add");
  add->add_input("x");
  add->add_input("ghost");
  add->add_output("y");
  addOutput(g, "y");
  return m;
}

onnx::ModelProto externalDataModel(const std::string& location, int64_t elements, int64_t offset) {
  onnx::ModelProto m = skeleton();
  auto* g = m.mutable_graph();
  auto* t = g->add_initializer();
  t->set_name("w");
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(elements);
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto entry = [&](const char* k, const std::string& v) {
    auto* e = t->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  entry("location", location);
  entry("offset", std::to_string(offset));
  entry("length", std::to_string(elements * 4));
  auto* n = g->add_node();
  n->set_op_type("Add");
  n->add_input("x");
  n->add_input("w");
  n->add_output("y");
  addOutput(g, "y");
  return m;
}

void saveProto(const onnx::ModelProto& m, const std::string& path) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!m.SerializeToOstream(&f)) throw std::runtime_error("cannot write " + path);
}

}  // namespace fb::test

namespace fb::test {
namespace {
std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
std::string lengthTag(uint32_t field, uint64_t length) { return varint((uint64_t(field) << 3) | 2) + varint(length); }
}  // namespace

uint64_t writeOversizedSingleFileModel(const std::string& path, int tensors, int64_t elements) {
  onnx::ModelProto head;
  head.set_ir_version(8);
  head.set_producer_name("flowbridge-tests");
  head.add_opset_import()->set_version(13);
  onnx::GraphProto graph;
  graph.set_name("oversized");
  auto* in = graph.add_input();
  in->set_name("x");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(elements);
  std::string acc = "x";
  for (int k = 0; k < tensors; ++k) {
    auto* n = graph.add_node();
    n->set_op_type("Add");
    n->add_input(acc);
    n->add_input("w" + std::to_string(k));
    acc = "s" + std::to_string(k);
    n->add_output(acc);
  }
  auto* out = graph.add_output();
  out->CopyFrom(*in);
  out->set_name(acc);
  const uint64_t raw = static_cast<uint64_t>(elements) * 4;
  std::vector<std::string> headers;
  uint64_t graphLen = graph.ByteSizeLong();
  for (int k = 0; k < tensors; ++k) {
    onnx::TensorProto t;
    t.set_name("w" + std::to_string(k));
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(elements);
    std::string h = t.SerializeAsString() + lengthTag(9, raw);
    headers.push_back(h);
    graphLen += lengthTag(5, h.size() + raw).size() + h.size() + raw;
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  std::string prefix = head.SerializeAsString() + lengthTag(7, graphLen) + graph.SerializeAsString();
  f.write(prefix.data(), static_cast<std::streamsize>(prefix.size()));
  std::vector<float> chunk(1 << 20);
  for (int k = 0; k < tensors; ++k) {
    std::string tag = lengthTag(5, headers[k].size() + raw) + headers[k];
    f.write(tag.data(), static_cast<std::streamsize>(tag.size()));
    for (int64_t i0 = 0; i0 < elements; i0 += static_cast<int64_t>(chunk.size())) {
      int64_t n = std::min<int64_t>(static_cast<int64_t>(chunk.size()), elements - i0);
      for (int64_t i = 0; i < n; ++i) chunk[i] = static_cast<float>((i0 + i) % 9973 + k);
      f.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(n * 4));
    }
  }
  f.close();
  if (!f) throw std::runtime_error("cannot write " + path);
  return prefix.size() + graphLen - graph.ByteSizeLong();
}
}  // namespace fb::test

namespace fb::test {
bool equivalentModels(const onnx::ModelProto& a, const onnx::ModelProto& b, std::string* report) {
  google::protobuf::util::MessageDifferencer diff;
  diff.set_message_field_comparison(google::protobuf::util::MessageDifferencer::EQUIVALENT);
  diff.ReportDifferencesToString(report);
  return diff.Compare(a, b);
}
}  // namespace fb::test
