#include "eval/runtime/schema_function.h"

#include <onnx/defs/schema.h>

#include <algorithm>

#include "eval/runtime/run_error.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"
#include "schema/onnx_schema.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/op_facts.h"

namespace fb::eval {

namespace {

// What a context-dependent builder may ask of an input: its element type and shape (null type for an omitted one).
onnx::TypeProto typeOf(const Value* v) {
  onnx::TypeProto t;
  if (!v || v->isNone()) return t;
  auto fill = [](const Tensor& x, onnx::TypeProto_Tensor* out) {
    out->set_elem_type(static_cast<int32_t>(x.dtype()));
    auto* shape = out->mutable_shape();
    for (int64_t d : x.dims()) shape->add_dim()->set_dim_value(d);
  };
  if (v->isTensor()) {
    fill(v->tensor(), t.mutable_tensor_type());
  } else {
    auto* elem = t.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type();
    elem->set_elem_type(static_cast<int32_t>(v->sequenceElementType()));
  }
  return t;
}

std::string signatureOf(const std::vector<const Value*>& inputs, int64_t opset) {
  std::string s = std::to_string(opset);
  for (const Value* v : inputs) {
    s += ',';
    if (!v || v->isNone()) continue;
    if (v->isSequence()) s += 's' + std::to_string(static_cast<int>(v->sequenceElementType()));
    if (v->isTensor()) s += std::to_string(static_cast<int>(v->tensor().dtype()));
  }
  return s;
}

// Attribute references in the body (ref_attr_name) take the caller's attribute, else the schema's default; a
// reference to neither is dropped, as ONNX expands functions.
void bindAttributes(ir::Graph& body, const ir::Node& caller, const onnx::OpSchema& schema) {
  for (const auto& node : body.nodes()) {
    std::vector<std::string> drop;
    for (ir::Attribute& a : node->attributes) {
      if (a.refAttrName.empty()) {
        if (a.type == ir::AttrType::Graph || a.type == ir::AttrType::Graphs)
          for (auto& g : a.graphs) bindAttributes(*g, caller, schema);
        continue;
      }
      const std::string ref(a.refAttrName);
      std::optional<ir::Attribute> given;
      if (const ir::Attribute* own = caller.attr(ref))
        given = *own;
      else
        given = schema::schemaDefault(schema, ref);
      if (!given) {
        drop.push_back(a.name);
        continue;
      }
      std::string name = a.name;
      a = *given;
      a.name = std::move(name);
    }
    for (const auto& d : drop) node->removeAttr(d);
  }
}

// The FunctionProto through FlowBridge's own ONNX import, as a model-local function of an otherwise empty model.
std::shared_ptr<ir::Graph> importBody(const onnx::FunctionProto& fp, int64_t bodyOpset) {
  onnx::ModelProto mp;
  mp.set_ir_version(8);
  bool hasDefault = false;
  for (const auto& o : fp.opset_import()) {
    *mp.add_opset_import() = o;
    hasDefault = hasDefault || o.domain().empty() || o.domain() == "ai.onnx";
  }
  if (!hasDefault) mp.add_opset_import()->set_version(bodyOpset);
  mp.mutable_graph()->set_name(fp.name() + "_schema_function");
  auto* f = mp.add_functions();
  *f = fp;
  f->set_domain("flowbridge.schema_function");  // the model's own domain for it, not the op's
  onnxfmt::ImportOptions opts;
  opts.modelPath = "libonnx's function body of " + fp.name();
  std::unique_ptr<ir::Model> m = onnxfmt::importModel(mp, opts);
  if (m->functions.empty() || !m->functions[0].body)
    unsupported("libonnx's function body of " + fp.name() + " is empty");
  return m->functions[0].body;
}

int64_t bodyOpsetOf(const onnx::FunctionProto& fp, const onnx::OpSchema& schema) {
  for (const auto& o : fp.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return schema.since_version();
}

}  // namespace

std::shared_ptr<const SchemaFunction> buildSchemaFunction(const ir::Node& node, const std::vector<const Value*>& inputs,
                                                          int64_t opset) {
  if (!node.isDefaultDomain()) return nullptr;
  // libonnx's schemas stop at 17: an op that changed after that means something libonnx does not describe.
  if (opset > schema::kLibonnxMaxOpset && schema::opsets_18_26::schemaFact(node.opType, opset)) return nullptr;
  const onnx::OpSchema* s = schema::schemaAt("", node.opType, std::min(opset, schema::kLibonnxMaxOpset));
  if (!s) return nullptr;
  onnx::FunctionProto fp;
  if (s->HasFunction() && s->GetFunction()) {
    fp = *s->GetFunction();
  } else if (s->HasContextDependentFunction()) {
    onnx::NodeProto np;
    onnxfmt::exportNodeProto(node, np);
    std::vector<onnx::TypeProto> types;
    types.reserve(inputs.size());
    for (const Value* v : inputs) types.push_back(typeOf(v));
    try {
      onnx::FunctionBodyBuildContextImpl context(np, types);
      if (!s->BuildContextDependentFunction(context, fp)) return nullptr;
    } catch (const std::exception& e) {
      unsupported("libonnx could not build the function body of " + node.opType + ": " + e.what());
    }
  } else {
    return nullptr;
  }
  std::shared_ptr<ir::Graph> body;
  try {
    body = importBody(fp, s->since_version());
  } catch (const RunError&) {
    throw;
  } catch (const std::exception& e) {
    unsupported("the function body of " + node.opType + " does not import: " + e.what());
  }
  bindAttributes(*body, node, *s);
  auto f = std::make_shared<SchemaFunction>();
  f->body = std::move(body);
  f->opset = bodyOpsetOf(fp, *s);
  return f;
}

const SchemaFunction* SchemaFunctions::find(const ir::Node& node, const std::vector<const Value*>& inputs,
                                            int64_t opset) {
  const std::string signature = signatureOf(inputs, opset);
  auto it = byNode_.find(&node);
  if (it != byNode_.end() && it->second.signature == signature) return it->second.function.get();
  // Bodies are shared across runs by everything that decides what they are (see the class comment).
  static std::mutex lock;
  static std::map<std::string, std::shared_ptr<const SchemaFunction>> built;
  onnx::NodeProto attributes;
  onnxfmt::exportNodeProto(node, attributes);
  // Which inputs and outputs are there may shape a context-dependent body; their names do not.
  for (auto& name : *attributes.mutable_input()) name = name.empty() ? "" : "i";
  for (auto& name : *attributes.mutable_output()) name = name.empty() ? "" : "o";
  attributes.clear_name();
  attributes.clear_doc_string();
  const std::string key = signature + '\n' + attributes.SerializeAsString();
  std::shared_ptr<const SchemaFunction> f;
  {
    std::lock_guard<std::mutex> hold(lock);
    auto known = built.find(key);
    if (known != built.end()) f = known->second;
  }
  if (!f) {
    f = buildSchemaFunction(node, inputs, opset);
    std::lock_guard<std::mutex> hold(lock);
    f = built.emplace(key, f).first->second;
  }
  byNode_[&node] = {signature, f};
  return f.get();
}

}  // namespace fb::eval
