#include "check/inference_gate.h"

#include <onnx/checker.h>

#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/onnx/onnx_proto_export.h"
#include "util/failure_text.h"

namespace fb {
namespace {

constexpr size_t kOmitBytes = 4096;
// DepthToSpace/SpaceToDepth square their blocksize in int64: larger values overflow (to 0 for 2^32 and up).
constexpr int64_t kMaxBlocksize = int64_t{1} << 20;

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

// Window attributes that inference divides by or multiplies without checking (libonnx 1.12: a pool stride of 0 is
// a division by zero), and permutations it indexes with.
std::optional<std::string> badWindowOrPerm(const onnx::NodeProto& n) {
  if (!n.domain().empty() && n.domain() != "ai.onnx") return std::nullopt;
  for (const auto& a : n.attribute()) {
    const std::string& k = a.name();
    const bool positive = k == "strides" || k == "dilations" || k == "kernel_shape";
    if (positive || k == "pads")
      for (auto v : a.ints())
        if (v < (positive ? 1 : 0) || v > kMaxBlocksize)
          return n.op_type() + " node '" + n.name() + "' has " + k + " value " + std::to_string(v);
    if (k == "perm") {
      std::vector<bool> seen(static_cast<size_t>(a.ints_size()), false);
      for (auto v : a.ints()) {
        if (v < 0 || v >= a.ints_size() || seen[static_cast<size_t>(v)])
          return n.op_type() + " node '" + n.name() + "' has a perm that is not a permutation";
        seen[static_cast<size_t>(v)] = true;
      }
    }
  }
  return std::nullopt;
}

// The ranks a graph declares (inputs, outputs, value_info, initializers); bodies see the graphs around them.
struct DeclaredRanks {
  std::unordered_map<std::string, int> own;
  const DeclaredRanks* outer = nullptr;

  DeclaredRanks(const onnx::GraphProto& g, const DeclaredRanks* around) : outer(around) {
    auto note = [&](const onnx::ValueInfoProto& v) {
      if (v.type().has_tensor_type() && v.type().tensor_type().has_shape())
        own[v.name()] = v.type().tensor_type().shape().dim_size();
    };
    for (const auto& v : g.input()) note(v);
    for (const auto& v : g.output()) note(v);
    for (const auto& v : g.value_info()) note(v);
    for (const auto& t : g.initializer()) own[t.name()] = t.dims_size();
  }
  std::optional<int> of(const std::string& name) const {
    for (const DeclaredRanks* s = this; s; s = s->outer)
      if (auto it = s->own.find(name); it != s->own.end()) return it->second;
    return std::nullopt;
  }
};

// libonnx 1.12's ConvTranspose inference takes the kernel from W's spatial dims when `kernel_shape` is absent and
// then indexes it by X's spatial axes, and reads W's dim 1 unchecked: with W of lower rank than X, or of rank
// below 2, it reads past its vectors (a crash found by fuzz_codegen). Inference runs only where the declared ranks
// show it safe; PyTorch's and tf2onnx's exports always carry `kernel_shape`.
std::optional<std::string> convTransposeRankHazard(const onnx::NodeProto& n, const DeclaredRanks& ranks) {
  if (n.op_type() != "ConvTranspose" || !(n.domain().empty() || n.domain() == "ai.onnx") || n.input_size() < 2)
    return std::nullopt;
  const std::string where = "ConvTranspose node '" + n.name() + "'";
  const auto w = ranks.of(n.input(1));
  if (w && *w < 2) return where + " has a weight of rank " + std::to_string(*w);
  bool kernelShape = false;
  for (const auto& a : n.attribute()) kernelShape = kernelShape || a.name() == "kernel_shape";
  if (kernelShape) return std::nullopt;
  const auto x = ranks.of(n.input(0));
  if (!w || !x) return where + " has no kernel_shape and the ranks of its input and weight are not declared";
  if (*x > *w)
    return where + " has an input of rank " + std::to_string(*x) + " and a weight of rank " + std::to_string(*w);
  return std::nullopt;
}

void findHazards(const onnx::GraphProto& g, const DeclaredRanks* around, std::optional<std::string>& why) {
  const DeclaredRanks ranks(g, around);
  for (const auto& n : g.node()) {
    if (why) return;
    if ((n.op_type() == "DepthToSpace" || n.op_type() == "SpaceToDepth") && n.domain().empty())
      for (const auto& a : n.attribute())
        if (a.name() == "blocksize" && (a.i() < 1 || a.i() > kMaxBlocksize))
          why = n.op_type() + " node '" + n.name() + "' has blocksize " + std::to_string(a.i());
    if (!why) why = badWindowOrPerm(n);
    if (!why) why = convTransposeRankHazard(n, ranks);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) findHazards(a.g(), &ranks, why);
      for (const auto& sg : a.graphs()) findHazards(sg, &ranks, why);
    }
  }
}

// Model-local functions that call themselves, directly or through others: inference would recurse forever.
std::optional<std::string> recursiveFunction(const onnx::ModelProto& p) {
  std::unordered_map<std::string, const onnx::FunctionProto*> byName;
  for (const auto& f : p.functions()) byName[f.domain() + "::" + f.name()] = &f;
  std::unordered_map<std::string, int> state;  // 1 on the stack, 2 done
  std::function<bool(const std::string&)> cyclic = [&](const std::string& key) {
    auto& s = state[key];
    if (s == 1) return true;
    if (s == 2) return false;
    s = 1;
    for (const auto& n : byName.at(key)->node()) {
      const std::string callee = n.domain() + "::" + n.op_type();
      if (byName.count(callee) && cyclic(callee)) return true;
    }
    state[key] = 2;
    return false;
  };
  for (const auto& [key, f] : byName)
    if (cyclic(key)) return "model-local function '" + f->name() + "' calls itself";
  return std::nullopt;
}

}  // namespace

onnx::ModelProto exportForInference(const ir::Model& m) {
  onnx::ModelProto p;
  exportForInference(m, p);
  return p;
}

void exportForInference(const ir::Model& m, onnx::ModelProto& p) {
  std::unordered_set<const ir::Tensor*> mainInitializers;
  for (const auto& t : m.graph().initializers()) mainInitializers.insert(t.get());
  std::set<std::string> omitted;
  onnxfmt::exportModel(m, p, [&](const ir::Tensor& t, ir::ExternalRef& ref) {
    if (!mainInitializers.count(&t) || t.dtype == ir::DataType::String || t.expectedBytes() < kOmitBytes) return false;
    ref.entries = {{"location", "flowbridge-omitted"}, {"offset", "0"}, {"length", std::to_string(t.expectedBytes())}};
    omitted.insert(t.name);
    return true;
  });
  if (omitted.empty()) return;
  auto* g = p.mutable_graph();
  std::unordered_set<std::string> inputs;
  for (const auto& in : g->input()) inputs.insert(in.name());
  google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
  for (auto& t : *g->mutable_initializer()) {
    if (!omitted.count(t.name())) {
      *kept.Add() = std::move(t);
      continue;
    }
    if (inputs.count(t.name())) continue;
    auto* vi = g->add_input();
    vi->set_name(t.name());
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(t.data_type());
    auto* shape = tt->mutable_shape();
    for (auto d : t.dims()) shape->add_dim()->set_dim_value(d);
  }
  g->mutable_initializer()->Swap(&kept);
}

namespace {

// The checker on `p` with untyped main-graph outputs left out: the checker wants a shape on every main-graph
// output; inference does not need one, and exporters often leave outputs untyped. The outputs are put back.
void checkWithoutUntypedOutputs(onnx::ModelProto& p) {
  auto* outs = p.mutable_graph()->mutable_output();
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> all;
  all.Swap(outs);
  for (const auto& o : all) {
    const auto& t = o.type();
    if (t.has_tensor_type() && t.tensor_type().has_shape() && t.tensor_type().has_elem_type()) *outs->Add() = o;
  }
  try {
    onnx::checker::check_model(p);
  } catch (...) {
    outs->Swap(&all);
    throw;
  }
  outs->Swap(&all);
}

std::optional<std::string> hazardsBesidesChecker(const onnx::ModelProto& p) {
  std::optional<std::string> why;
  findHazards(p.graph(), nullptr, why);
  for (const auto& f : p.functions())
    for (const auto& n : f.node())
      if (!why) {
        onnx::GraphProto g;
        *g.add_node() = n;
        findHazards(g, nullptr, why);
      }
  if (why) return why;
  return recursiveFunction(p);
}

}  // namespace

std::optional<std::string> inferenceHazard(const onnx::ModelProto& p) {
  onnx::ModelProto copy = p;
  return inferenceHazard(copy);
}

std::optional<std::string> inferenceHazard(onnx::ModelProto& p) {
  try {
    checkWithoutUntypedOutputs(p);
  } catch (const std::exception& e) {
    if (isOutOfMemory(e)) throw;
    return "the model fails the ONNX checker: " + firstLine(e.what());
  }
  return hazardsBesidesChecker(p);
}

std::optional<std::string> inferenceHazardAfterCheck(const onnx::ModelProto& p) { return hazardsBesidesChecker(p); }

}  // namespace fb
