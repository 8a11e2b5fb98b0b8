// The general way down: an op that the target opset lacks (or cannot express as the node stands) but whose
// schema at the source version defines a function body is replaced by that body, each body node converted
// to the target in turn (recursively: a body node may itself expand). The body is instantiated for this
// node (a context-dependent body sees its attributes and input types) as a small standalone model, converted
// there, and spliced in only when every body node converted, so a refusal leaves the graph untouched.
#include "convert/onnx_onnx/function_body.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "schema/onnx_schema.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"

namespace fb::convert::onnx_onnx {
namespace {

void exportAttribute(const ir::Attribute& a, onnx::AttributeProto& p) {
  p.set_name(a.name);
  switch (a.type) {
    case ir::AttrType::Int:
      p.set_type(onnx::AttributeProto::INT);
      p.set_i(a.i);
      break;
    case ir::AttrType::Float:
      p.set_type(onnx::AttributeProto::FLOAT);
      p.set_f(a.f);
      break;
    case ir::AttrType::String:
      p.set_type(onnx::AttributeProto::STRING);
      p.set_s(a.s);
      break;
    case ir::AttrType::Ints:
      p.set_type(onnx::AttributeProto::INTS);
      for (auto v : a.ints) p.add_ints(v);
      break;
    case ir::AttrType::Floats:
      p.set_type(onnx::AttributeProto::FLOATS);
      for (auto v : a.floats) p.add_floats(v);
      break;
    case ir::AttrType::Strings:
      p.set_type(onnx::AttributeProto::STRINGS);
      for (const auto& v : a.strings) p.add_strings(v);
      break;
    case ir::AttrType::Tensor:
      p.set_type(onnx::AttributeProto::TENSOR);
      onnxfmt::exportTensor(a.tensors.at(0), *p.mutable_t());
      break;
    default:
      throw Unsupported("attribute '" + a.name + "' of a kind function bodies are not instantiated with");
  }
}

// The node's type as far as it is known: element type always, shape when known.
onnx::TypeProto knownType(const ir::Value* v, const HandlerContext& ctx) {
  onnx::TypeProto tp;
  ir::DataType t = ctx.elemType(v);
  if (t == ir::DataType::Undefined) return tp;
  std::optional<ir::Shape> shape;
  if (v->type.isTensor() && v->type.shape)
    shape = v->type.shape;
  else if (const ir::TypeInfo* inferred = ctx.inferredType(v); inferred && inferred->shape)
    shape = inferred->shape;
  onnxfmt::exportType(ir::TypeInfo::tensor(t, shape), tp);
  return tp;
}

onnx::NodeProto nodeProto(const ir::Node& n) {
  onnx::NodeProto np;
  np.set_op_type(n.opType);
  np.set_domain(n.domain);
  for (const ir::Value* v : n.inputs()) np.add_input(v ? v->name() : std::string());
  for (const ir::Value* v : n.outputs()) np.add_output(v ? v->name() : std::string());
  for (const auto& a : n.attributes) exportAttribute(a, *np.add_attribute());
  return np;
}

// The function the schema gives this node, or nullopt when it has none.
std::optional<onnx::FunctionProto> bodyFor(const ir::Node& n, const onnx::OpSchema& schema, const HandlerContext& ctx) {
  if (schema.HasFunction()) return *schema.GetFunction();
  if (!schema.HasContextDependentFunction()) return std::nullopt;
  onnx::NodeProto np = nodeProto(n);
  std::vector<onnx::TypeProto> types;
  for (const ir::Value* v : n.inputs()) types.push_back(v ? knownType(v, ctx) : onnx::TypeProto());
  onnx::FunctionBodyBuildContextImpl build(np, types);
  onnx::FunctionProto f;
  try {
    if (!schema.BuildContextDependentFunction(build, f)) return std::nullopt;
  } catch (const std::exception& e) {
    throw Unsupported(n.opType + ": its function body cannot be built for this node: " + e.what());
  }
  return f;
}

int64_t bodyOpset(const onnx::FunctionProto& f, const onnx::OpSchema& schema) {
  for (const auto& o : f.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return schema.since_version();
}

// Inside a subgraph of the body, names the subgraph does not define itself refer to the body's scope.
void renameCaptured(onnx::GraphProto& g, const std::function<std::string(const std::string&)>& outer) {
  std::set<std::string> local;
  for (const auto& v : g.input()) local.insert(v.name());
  for (const auto& t : g.initializer()) local.insert(t.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) local.insert(o);
  auto inner = [&](const std::string& s) { return s.empty() || local.count(s) ? s : outer(s); };
  for (auto& n : *g.mutable_node()) {
    for (auto& in : *n.mutable_input()) in = inner(in);
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) renameCaptured(*a.mutable_g(), inner);
      for (auto& sub : *a.mutable_graphs()) renameCaptured(sub, inner);
    }
  }
  for (auto& o : *g.mutable_output()) o.set_name(inner(o.name()));
}

// The body as a model of its own: the node's inputs and outputs keep their names (so splicing needs no
// renaming at the border); names inside the body get a prefix unique to this node.
// `schema` is null for a model-local function: an attribute its caller leaves out is left out of the body.
// `opsets` are the body's opset imports; `functions` the model-local functions its nodes may call.
std::unique_ptr<ir::Model> instantiate(const ir::Node& n, const onnx::FunctionProto& f, const onnx::OpSchema* schema,
                                       const std::vector<ir::OpsetImport>& opsets,
                                       const std::vector<ir::Function>& functions, const HandlerContext& ctx) {
  std::map<std::string, std::string> names;  // formal -> actual ("" when an optional input is left out)
  for (int i = 0; i < f.input_size(); ++i) {
    const ir::Value* v = n.input(static_cast<size_t>(i));
    names[f.input(i)] = v ? v->name() : std::string();
  }
  for (int i = 0; i < f.output_size(); ++i) {
    const ir::Value* v = n.output(static_cast<size_t>(i));
    names[f.output(i)] = v ? v->name() : ctx.graph.uniqueName(n.opType + "_unused_" + f.output(i));
  }
  const std::string prefix = ctx.graph.uniqueName((n.name.empty() ? n.opType : n.name) + "/body") + "/";
  auto rename = [&](const std::string& s) {
    if (s.empty()) return s;
    auto it = names.find(s);
    return it != names.end() ? it->second : prefix + s;
  };

  onnx::ModelProto mp;
  mp.set_ir_version(8);
  for (const auto& o : opsets) {
    auto* op = mp.add_opset_import();
    op->set_domain(o.domain);
    op->set_version(o.version);
  }
  onnx::GraphProto& g = *mp.mutable_graph();
  g.set_name("function_body");
  std::set<std::string> declared;
  for (size_t i = 0; i < n.inputs().size(); ++i) {
    const ir::Value* v = n.input(i);
    if (!v || !declared.insert(v->name()).second) continue;
    auto* vi = g.add_input();
    vi->set_name(v->name());
    *vi->mutable_type() = knownType(v, ctx);
  }
  for (const auto& body : f.node()) {
    onnx::NodeProto& np = *g.add_node();
    np = body;
    np.clear_input();
    np.clear_output();
    for (const auto& s : body.input()) np.add_input(rename(s));
    for (const auto& s : body.output()) np.add_output(rename(s));
    np.clear_attribute();
    for (const auto& a : body.attribute()) {
      if (a.ref_attr_name().empty()) {
        auto* copy = np.add_attribute();
        *copy = a;
        if (copy->has_g()) renameCaptured(*copy->mutable_g(), rename);
        for (auto& sub : *copy->mutable_graphs()) renameCaptured(sub, rename);
        continue;
      }
      // A reference to the caller's attribute: its value, or the schema's default when it leaves it out.
      std::optional<ir::Attribute> value;
      if (const ir::Attribute* own = n.attr(a.ref_attr_name()))
        value = *own;
      else if (schema)
        value = schema::schemaDefault(*schema, a.ref_attr_name());
      if (!value) continue;
      value->name = a.name();
      exportAttribute(*value, *np.add_attribute());
    }
    if (np.name().empty()) np.set_name(prefix + body.op_type() + "_" + std::to_string(g.node_size()));
  }
  for (int i = 0; i < f.output_size(); ++i) {
    if (!n.output(static_cast<size_t>(i))) continue;
    g.add_output()->set_name(names[f.output(i)]);
  }
  onnxfmt::ImportOptions io;
  io.modelPath = "function body of " + n.opType;
  auto model = onnxfmt::importModel(mp, io);
  model->functions = functions;
  return model;
}

// Converts the instantiated body to the target on its own, through the pipeline the node is converted in;
// Unsupported names the first body node that does not convert.
std::unique_ptr<ir::Model> convertBody(const ir::Model& body, const HandlerContext& ctx) {
  if (!ctx.convertBody) throw Unsupported("function body: no conversion pipeline to convert it with");
  BodyConversion r = ctx.convertBody(body, ctx.targetOpset);
  if (!r.model) throw Unsupported("function body: " + r.refusal);
  return std::move(r.model);
}

// Puts the converted body's nodes in place of `n`: border values are the node's own, everything else gets
// a name unused in the graph.
void splice(ir::Node& n, ir::Model& body, HandlerContext& ctx) {
  std::map<const ir::Value*, ir::Value*> map;
  std::map<std::string, ir::Value*> border;
  for (ir::Value* v : n.inputs())
    if (v) border[v->name()] = v;
  for (size_t i = 0; i < n.outputs().size(); ++i)
    if (ir::Value* v = n.output(i)) {
      border[v->name()] = v;
      ctx.graph.setOutput(&n, i, ctx.newValue(v->name() + "_replaced"));
    }
  ir::Graph& bg = body.graph();
  auto real = [&](ir::Value* v) -> ir::Value* {
    if (!v) return nullptr;
    if (auto it = map.find(v); it != map.end()) return it->second;
    ir::Value* r = nullptr;
    if (auto it = border.find(v->name()); it != border.end())
      r = it->second;
    else if (const ir::Tensor* t = v->initializer()) {
      ir::Tensor copy = *t;
      copy.name = ctx.graph.uniqueName(v->name());
      r = ctx.graph.addInitializer(std::move(copy));
    } else {
      r = ctx.newValue(v->name());
    }
    map[v] = r;
    return r;
  };
  for (const auto& m : bg.nodes()) {
    std::vector<ir::Value*> ins, outs;
    for (ir::Value* v : m->inputs()) ins.push_back(real(v));
    for (ir::Value* v : m->outputs()) outs.push_back(real(v));
    ir::Node* copy = ctx.insertNode(n, m->opType, ins, outs, m->domain);
    for (const auto& a : m->attributes) {
      ir::Attribute c = a;
      for (auto& sub : c.graphs) {
        for (const auto& captured : sub->capturedNames())
          if (!border.count(captured) && (!bg.findValue(captured) || real(bg.findValue(captured))->name() != captured))
            throw std::runtime_error(n.opType + ": a subgraph of its function body reads '" + captured +
                                     "', which was renamed when spliced");
        sub = sub->clone(ctx.graph.idSource());
        sub->setOwner(&ctx.graph, copy);
      }
      copy->setAttr(std::move(c));
    }
  }
  ctx.removeReplaced(n);
}

}  // namespace

bool expandFunctionBody(ir::Node& n, HandlerContext& ctx) {
  const onnx::OpSchema* schema = schema::schemaAt(n.domain, n.opType, ctx.sourceOpset);
  // Bodies written with ops that themselves expand nest; a cycle among schemas must not recurse forever.
  thread_local int depth = 0;
  if (!schema || depth > 8) return false;
  struct Nest {
    Nest() { ++depth; }
    ~Nest() { --depth; }
  } nest;
  auto f = bodyFor(n, *schema, ctx);
  if (!f) return false;
  return expandBody(n, ctx, *f, bodyOpset(*f, *schema), schema);
}

bool expandBody(ir::Node& n, HandlerContext& ctx, const onnx::FunctionProto& f, int64_t opset,
                const onnx::OpSchema* schema) {
  std::unique_ptr<ir::Model> body = instantiate(n, f, schema, {{"", opset}}, {}, ctx);
  std::unique_ptr<ir::Model> converted = convertBody(*body, ctx);
  ctx.note = "expanded function body (" + std::to_string(converted->graph().nodeCount()) + " nodes at opset " +
             std::to_string(ctx.targetOpset) + ")";
  if (!ctx.commit()) {
    ctx.wouldReplace = true;
    return true;
  }
  splice(n, *converted, ctx);
  return true;
}

const ir::Function* localFunction(const ir::Model& m, const ir::Node& n) {
  for (const auto& f : m.functions)
    if (f.name == n.opType && f.domain == n.domain && f.body) return &f;
  return nullptr;
}

bool expandLocalFunction(ir::Node& n, HandlerContext& ctx) {
  const ir::Function* fn = localFunction(ctx.model, n);
  if (!fn) return false;
  // A function calling itself (directly or not) is invalid: refuse at the first repeated call, not recurse.
  thread_local std::vector<std::string> expanding;
  const std::string called = n.qualifiedOp();
  if (std::find(expanding.begin(), expanding.end(), called) != expanding.end())
    throw Unsupported("model-local function " + called + " calls itself");
  struct Nest {
    explicit Nest(const std::string& name) { expanding.push_back(name); }
    ~Nest() { expanding.pop_back(); }
  } nest(called);
  onnx::FunctionProto f;
  onnxfmt::exportFunction(*fn, f);
  if (n.inputs().size() > static_cast<size_t>(f.input_size()) ||
      n.outputs().size() > static_cast<size_t>(f.output_size()))
    throw Unsupported("the call passes more inputs or outputs than model-local function " + n.qualifiedOp() +
                      " declares");
  // The body's own opset imports: its default-domain nodes are converted from the version it was written
  // for, which need not be the model's.
  std::vector<ir::OpsetImport> opsets = fn->opsets;
  bool hasDefault = false;
  for (auto& o : opsets) {
    if (o.domain == "ai.onnx") o.domain.clear();
    hasDefault |= o.domain.empty();
  }
  if (!hasDefault) opsets.push_back({"", ctx.model.opsetVersion("")});
  for (const auto& o : ctx.model.opsets)  // domains of nested calls the function's imports leave out
    if (!o.domain.empty() && o.domain != "ai.onnx" &&
        std::none_of(opsets.begin(), opsets.end(), [&](const ir::OpsetImport& x) { return x.domain == o.domain; }))
      opsets.push_back(o);
  std::unique_ptr<ir::Model> body = instantiate(n, f, nullptr, opsets, ctx.model.functions, ctx);
  std::unique_ptr<ir::Model> converted = convertBody(*body, ctx);
  ctx.note = "expanded function body of model-local function " + n.qualifiedOp() + " (" +
             std::to_string(converted->graph().nodeCount()) + " nodes at opset " + std::to_string(ctx.targetOpset) +
             ")";
  if (!ctx.commit()) return true;
  splice(n, *converted, ctx);
  return true;
}

namespace {
void collectCalls(const ir::Graph& g, std::set<std::pair<std::string, std::string>>& out) {
  for (const auto& n : g.nodes()) {
    out.insert({n->domain, n->opType});
    for (const ir::Graph* sub : n->subgraphs()) collectCalls(*sub, out);
  }
}
}  // namespace

void dropUncalledFunctions(ir::Model& m) {
  if (m.functions.empty()) return;
  std::set<std::pair<std::string, std::string>> called;
  collectCalls(m.graph(), called);
  // Functions still called keep the ones their bodies call.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& f : m.functions)
      if (called.count({f.domain, f.name}) && f.body) {
        size_t before = called.size();
        collectCalls(*f.body, called);
        grew |= called.size() != before;
      }
  }
  std::set<std::string> droppedDomains;
  std::vector<ir::Function> kept;
  for (auto& f : m.functions) {
    if (called.count({f.domain, f.name}))
      kept.push_back(std::move(f));
    else
      droppedDomains.insert(f.domain);
  }
  m.functions = std::move(kept);
  std::set<std::string> usedDomains;
  for (const auto& c : called) usedDomains.insert(c.first);
  for (const auto& f : m.functions) usedDomains.insert(f.domain);
  std::vector<ir::OpsetImport> opsets;
  for (const auto& o : m.opsets)
    if (!droppedDomains.count(o.domain) || usedDomains.count(o.domain)) opsets.push_back(o);
  m.opsets = std::move(opsets);
}

}  // namespace fb::convert::onnx_onnx
