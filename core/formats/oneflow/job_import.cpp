#include "formats/oneflow/job_import.h"

#include <algorithm>

#include "formats/oneflow/oneflow_attributes.h"
#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/weight_folder.h"
#include "ir/topo_sort.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "util/error.h"
#include "util/failure_text.h"

namespace fb::oneflow {
namespace {

ir::TypeInfo typeOf(const std::vector<int64_t>& dims, int oneflowType) {
  ir::Shape s;
  for (auto d : dims) s.push_back(d < 0 ? ir::Dim::named("unk_" + std::to_string(-d)) : ir::Dim::of(d));
  return ir::TypeInfo::tensor(toIrDataType(oneflowType).value_or(ir::DataType::Undefined), std::move(s));
}

// nn.Graph names ops "<module path>-<op type>_<n>" ("model.layer1.0.conv1-conv2d_3"). The node name puts the
// module path in front as '/' scopes, as ONNX exporters do ("/model/layer1/0/conv1/model.layer1.0.conv1-conv2d_3"),
// so that viewers group nodes by module; the last component stays OneFlow's op name.
std::string scopedName(const std::string& opName) {
  const auto dash = opName.find('-');
  if (dash == std::string::npos || dash == 0) return opName;
  std::string scoped;
  size_t start = 0;
  const std::string path = opName.substr(0, dash);
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    if (dot > start) scoped += "/" + path.substr(start, dot - start);
    start = dot + 1;
  }
  return scoped + "/" + opName;
}

class Importer {
 public:
  Importer(const JobSource& src, const WeightFolder* weights) : src_(src), weights_(weights) {}

  std::unique_ptr<ir::Model> run() {
    auto model = std::make_unique<ir::Model>();
    model->producerName = "OneFlow";
    model->sourcePath = src_.path;
    model->sourceFormat = src_.format;
    model->opsets = {{"oneflow", 1}};
    for (const auto& [k, v] : src_.metadata) model->metadata.emplace_back(k, v);
    g_ = &model->graph();
    g_->name = src_.graphName;

    for (const auto* op : src_.ops) importOp(*op);
    if (skippedSystemOps_ > 0)
      model->metadata.emplace_back("oneflow.skipped_system_ops", std::to_string(skippedSystemOps_));

    for (auto* v : g_->values())
      if (v->isUndefined() && !v->uses().empty())
        throw InputError(src_.path, "op '" + v->uses().front().node->name + "' reads '" + v->name() +
                                        "', which no op of the graph produces");
    auto topo = ir::topologicalSort(*g_);
    if (!topo.ok) throw InputError(src_.path, "the graph has a cycle through op '" + topo.cycleNodes.front() + "'");
    for (auto* v : g_->values()) applyBlobDesc(v);
    model->sourceFiles.push_back(src_.path);
    if (weights_)
      model->sourceFiles.insert(model->sourceFiles.end(), weights_->filesRead().begin(), weights_->filesRead().end());
    return model;
  }

 private:
  void applyBlobDesc(ir::Value* v) {
    if (v->type.isTensor() && v->type.shape) return;
    auto it = src_.blobs.find(v->name());
    if (it != src_.blobs.end()) v->type = typeOf(it->second.dims, it->second.dataType);
  }

  // The value `lbn` as the output of op `opName`; each value has exactly one producer.
  ir::Value* newOutput(const std::string& lbn, const std::string& opName) {
    auto* v = g_->getOrCreateValue(lbn);
    if (v->producer() || v->isGraphInput() || v->initializer())
      throw InputError(src_.path, "'" + lbn + "' is produced twice (again by op '" + opName + "')");
    return v;
  }

  void importOp(const ::oneflow::OperatorConf& op) {
    using O = ::oneflow::OperatorConf;
    const std::string lbnOut = op.name() + "/";
    switch (op.op_type_case()) {
      case O::kUserConf:
        importUserOp(op);
        break;
      case O::kInputConf: {
        auto* v = newOutput(lbnOut + op.input_conf().out(), op.name());
        const auto& bc = op.input_conf().blob_conf();
        if (bc.has_shape()) v->type = typeOf({bc.shape().dim().begin(), bc.shape().dim().end()}, bc.data_type());
        g_->addInput(v);
        break;
      }
      case O::kVariableConf: {
        const auto& vc = op.variable_conf();
        std::vector<int64_t> dims(vc.shape().dim().begin(), vc.shape().dim().end());
        const std::string name = lbnOut + vc.out();
        if (!weights_)
          throw InputError(src_.path, "variable '" + op.name() + "' needs a weight folder (weights/ beside the graph)");
        newOutput(name, op.name());
        g_->addInitializer(weights_->load(op.name(), name, dims, vc.data_type()));
        break;
      }
      case O::kOutputConf:
        marker(op, "output", op.output_conf().in(), lbnOut + op.output_conf().out());
        break;
      case O::kReturnConf:
        marker(op, "return", op.return_conf().in(), lbnOut + op.return_conf().out());
        break;
      case O::kIdentityConf: {
        auto* in = g_->getOrCreateValue(op.identity_conf().in());
        auto* n = g_->addNode("identity", {in}, {newOutput(lbnOut + op.identity_conf().out(), op.name())}, "oneflow");
        n->name = scopedName(op.name());
        break;
      }
      case O::kDistributeConcatConf:
        distribute(op, "distribute_concat", op.distribute_concat_conf());
        break;
      case O::kDistributeSplitConf:
        distribute(op, "distribute_split", op.distribute_split_conf());
        break;
      case O::kDistributeCloneConf:
        distribute(op, "distribute_clone", op.distribute_clone_conf());
        break;
      case O::kDistributeAddConf:
        distribute(op, "distribute_add", op.distribute_add_conf());
        break;
      case O::OP_TYPE_NOT_SET:
        // tick, boxing and critical-section ops added by the compiler carry no tensor data for inference.
        ++skippedSystemOps_;
        break;
    }
  }

  void marker(const ::oneflow::OperatorConf& op, const char* type, const std::string& in, const std::string& out) {
    auto* inV = g_->getOrCreateValue(in);
    auto* outV = newOutput(out, op.name());
    auto* n = g_->addNode(type, {inV}, {outV}, "oneflow");
    n->name = scopedName(op.name());
    if (op.has_output_conf() && op.output_conf().blob_conf().has_shape()) {
      const auto& bc = op.output_conf().blob_conf();
      outV->type = typeOf({bc.shape().dim().begin(), bc.shape().dim().end()}, bc.data_type());
    }
    g_->addOutput(outV);
  }

  void distribute(const ::oneflow::OperatorConf& op, const char* type, const ::oneflow::DistributeOpConf& c) {
    std::vector<ir::Value*> ins, outs;
    for (const auto& i : c.in()) ins.push_back(g_->getOrCreateValue(i));
    for (const auto& o : c.out()) {
      outs.push_back(newOutput(op.name() + "/" + o, op.name()));
      if (std::count(outs.begin(), outs.end(), outs.back()) > 1)
        throw InputError(src_.path, "op '" + op.name() + "' lists output '" + o + "' twice");
    }
    auto* n = g_->addNode(type, ins, outs, "oneflow");
    n->name = scopedName(op.name());
    if (c.has_axis() && std::string_view(type) != "distribute_clone")
      n->setAttr(ir::Attribute::makeInt("axis", c.axis()));
  }

  template <typename Map>
  static std::vector<std::string> argOrder(const google::protobuf::RepeatedPtrField<std::string>& order, const Map& m) {
    std::vector<std::string> names(order.begin(), order.end());
    if (names.empty()) {  // jobs older than v0.5 have no order: use the sorted arg names
      for (const auto& [k, v] : m) names.push_back(k);
      std::sort(names.begin(), names.end());
    }
    return names;
  }

  void importUserOp(const ::oneflow::OperatorConf& op) {
    const auto& u = op.user_conf();
    std::vector<ir::Value*> ins, outs;
    ir::Attribute inArgs, outArgs;
    inArgs.name = kInputArgsAttr;
    inArgs.type = ir::AttrType::Strings;
    outArgs.name = kOutputArgsAttr;
    outArgs.type = ir::AttrType::Strings;
    for (const auto& arg : argOrder(u.input_order(), u.input())) {
      auto it = u.input().find(arg);
      if (it == u.input().end())
        throw InputError(src_.path,
                         "op '" + op.name() + "' lists input '" + arg + "' in input_order but has no such input");
      for (const auto& lbn : it->second.s()) {
        ins.push_back(g_->getOrCreateValue(lbn));
        inArgs.strings.push_back(arg);
      }
    }
    for (const auto& arg : argOrder(u.output_order(), u.output())) {
      auto it = u.output().find(arg);
      if (it == u.output().end())
        throw InputError(src_.path,
                         "op '" + op.name() + "' lists output '" + arg + "' in output_order but has no such output");
      for (const auto& lbn : it->second.s()) {
        auto* v = newOutput(lbn, op.name());
        if (std::find(outs.begin(), outs.end(), v) != outs.end())
          throw InputError(src_.path, "op '" + op.name() + "' lists output '" + lbn + "' twice");
        outs.push_back(v);
        outArgs.strings.push_back(arg);
      }
    }
    auto* n = g_->addNode(u.op_type_name(), ins, outs, "oneflow");
    n->name = scopedName(op.name());
    std::vector<std::string> attrNames;
    for (const auto& [k, v] : u.attr()) attrNames.push_back(k);
    std::sort(attrNames.begin(), attrNames.end());
    try {
      for (const auto& k : attrNames) n->attributes.push_back(toIrAttribute(k, u.attr().at(k)));
    } catch (const std::exception& e) {
      throw InputError(src_.path, "op '" + op.name() + "': " + failureText(e, "reading the op"));
    }
    n->attributes.push_back(std::move(inArgs));
    n->attributes.push_back(std::move(outArgs));
  }

  const JobSource& src_;
  const WeightFolder* weights_;
  ir::Graph* g_ = nullptr;
  int skippedSystemOps_ = 0;
};

}  // namespace

std::unique_ptr<ir::Model> importJob(const JobSource& source, const WeightFolder* weights) {
  return Importer(source, weights).run();
}

}  // namespace fb::oneflow
