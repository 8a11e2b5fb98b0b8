#include "schema/shape_facts.h"

#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "check/inference_gate.h"
#include "schema/opsets_18_26/inference_view.h"
#include "schema/opsets_18_26/op_facts.h"
#include "schema/static_shapes.h"
#include "schema/opsets_18_26/static_shapes.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"

namespace fb::schema {
namespace {

using Ints = std::vector<int64_t>;

bool isIntegerType(ir::DataType t) {
  return t == ir::DataType::Int64 || t == ir::DataType::Int32 || t == ir::DataType::Int16 || t == ir::DataType::Int8 ||
         t == ir::DataType::UInt8 || t == ir::DataType::UInt16 || t == ir::DataType::UInt32 ||
         t == ir::DataType::UInt64;
}

// Element-wise integer arithmetic with numpy broadcasting of a single element; ONNX integer Div truncates.
std::optional<Ints> elementwise(const std::string& op, const Ints& a, const Ints& b) {
  if (a.size() != b.size() && a.size() != 1 && b.size() != 1) return std::nullopt;
  size_t n = std::max(a.size(), b.size());
  Ints out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = a[a.size() == 1 ? 0 : i], y = b[b.size() == 1 ? 0 : i];
    // Values come from the file: an overflow means the value is not a shape, not something to compute.
    if (op == "Add") {
      if (__builtin_add_overflow(x, y, &out[i])) return std::nullopt;
    } else if (op == "Sub") {
      if (__builtin_sub_overflow(x, y, &out[i])) return std::nullopt;
    } else if (op == "Mul") {
      if (__builtin_mul_overflow(x, y, &out[i])) return std::nullopt;
    } else if (op == "Div") {
      if (y == 0 || (y == -1 && x == INT64_MIN)) return std::nullopt;
      out[i] = x / y;
    } else
      return std::nullopt;
  }
  return out;
}

using TypeMap = std::unordered_map<std::string, ir::TypeInfo>;
using ValueMap = std::unordered_map<std::string, Ints>;

std::string childKey(const std::string& parent, const std::string& ownerOutput, const std::string& attr, size_t index) {
  return parent + "/" + ownerOutput + ":" + attr + "#" + std::to_string(index);
}

std::string firstOutputName(const ir::Node& n) {
  for (const ir::Value* v : n.outputs())
    if (v && !v->name().empty()) return v->name();
  return {};
}

std::string firstOutputName(const onnx::NodeProto& n) {
  for (const auto& o : n.output())
    if (!o.empty()) return o;
  return {};
}

// The facts one graph sees: its own, and through values it reads from enclosing graphs, theirs.
struct Scope {
  TypeMap& types;
  ValueMap& values;
  const Scope* outer = nullptr;
  std::string key;
  int64_t opset = 0;  // the model's default-domain opset (above 17: FlowBridge's own rules for 18+ ops)

  const ir::TypeInfo* type(const ir::Value* v) const {
    for (const Scope* s = v->isOuterScope() ? outer : this; s; s = s->outer) {
      if (auto it = s->types.find(v->name()); it != s->types.end()) return &it->second;
      if (!v->isOuterScope()) break;
    }
    return nullptr;
  }
  const Ints* contents(const ir::Value* v) const {
    for (const Scope* s = v->isOuterScope() ? outer : this; s; s = s->outer) {
      if (auto it = s->values.find(v->name()); it != s->values.end()) return &it->second;
      if (!v->isOuterScope()) break;
    }
    return nullptr;
  }
};

Scope scopeOf(ShapeFacts& f, const std::string& key, const Scope* outer, int64_t opset = 0) {
  if (key.empty()) return Scope{f.types, f.shapeValues, nullptr, key, opset};
  auto& b = f.bodies[key];
  return Scope{b.types, b.shapeValues, outer, key, outer ? outer->opset : opset};
}

// One forward sweep over a graph (and, at their owners, the bodies inside it) computing the small integer
// values that follow from static shapes: the arithmetic libonnx 1.12's data propagation leaves out (Div,
// Mul on shapes, Slice of shapes...), and libonnx does not propagate into bodies at all.
size_t evaluateShapeArithmetic(const ir::Graph& g, ShapeFacts& f, const Scope& scope) {
  size_t added = 0;
  auto known = [&](const ir::Value* v) -> const Ints* { return v ? scope.contents(v) : nullptr; };
  // Any input may be missing: a node read from a file can have fewer inputs than its op needs.
  auto elemType = [&](const ir::Value* v) {
    if (!v) return ir::DataType::Undefined;
    if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined) return v->type.elemType;
    const ir::TypeInfo* t = scope.type(v);
    return t ? t->elemType : ir::DataType::Undefined;
  };
  auto staticDims = [&](const ir::Value* v) -> std::optional<Ints> {
    if (!v) return std::nullopt;
    if (auto d = v->type.staticDims()) return d;
    const ir::TypeInfo* t = scope.type(v);
    return t ? t->staticDims() : std::nullopt;
  };
  for (const auto& t : g.initializers())
    if (isIntegerType(t->dtype) && t->numElements() <= 64 && !scope.values.count(t->name)) {
      scope.values[t->name] = t->asInt64();
      ++added;
    }
  const DimsOf dimsOf = [&](const ir::Value* v) -> std::optional<Dims> { return v ? staticDims(v) : std::nullopt; };
  const ValuesOf valuesOf = [&](const ir::Value* v) { return known(v); };
  for (const auto& np : g.nodes()) {
    const ir::Node& n = *np;
    // A body sees the values defined before its owner; evaluating it here sees them at their fullest.
    for (const auto& a : n.attributes)
      for (size_t i = 0; i < a.graphs.size(); ++i)
        if (a.graphs[i]) {
          Scope inner = scopeOf(f, childKey(scope.key, firstOutputName(n), a.name, i), &scope);
          added += evaluateShapeArithmetic(*a.graphs[i], f, inner);
        }
    const ir::Value* out = n.output(0);
    // Op versions after 17 (libonnx 1.12 has no schema for them): every output, by FlowBridge's own rules.
    if (scope.opset > kLibonnxMaxOpset && n.isDefaultDomain() && opsets_18_26::schemaFact(n.opType, scope.opset)) {
      auto shapes = opsets_18_26::staticOutputShapes(n, scope.opset, dimsOf, valuesOf);
      for (size_t i = 0; i < shapes.size() && i < n.outputs().size(); ++i) {
        const ir::Value* o = n.output(i);
        if (!o || !shapes[i] || staticDims(o)) continue;
        ir::Shape shape;
        for (auto d : *shapes[i]) shape.push_back(ir::Dim::of(d));
        scope.types[o->name()] = ir::TypeInfo::tensor(opsets_18_26::outputElemType(n, i, elemType), std::move(shape));
      }
      if (!shapes.empty()) out = nullptr;  // done; no opset-17 rule applies to this version
    }
    // Shapes libonnx left open, so that the Shape -> Gather chains further down the same sweep resolve.
    if (out && !staticDims(out))
      if (auto dims = staticOutputShape(n, dimsOf, valuesOf)) {
        ir::DataType t = n.opType == "Cast" ? static_cast<ir::DataType>(n.attrInt("to", 0)) : elemType(n.input(0));
        if (n.opType == "Equal" || n.opType == "Less" || n.opType == "Greater" || n.opType == "And" ||
            n.opType == "Or" || n.opType == "Not")
          t = ir::DataType::Bool;
        ir::Shape shape;
        for (auto d : *dims) shape.push_back(ir::Dim::of(d));
        scope.types[out->name()] = ir::TypeInfo::tensor(t, std::move(shape));
      }
    out = n.output(0);
    if (!out || n.outputs().size() != 1 || known(out) || !n.isDefaultDomain()) continue;
    std::optional<Ints> v;
    const std::string& op = n.opType;
    if (op == "Constant") {
      if (const auto* a = n.attr("value");
          a && !a->tensors.empty() && isIntegerType(a->tensors[0].dtype) && a->tensors[0].numElements() <= 64)
        v = a->tensors[0].asInt64();
    } else if (op == "Shape") {
      if (auto d = staticDims(n.input(0))) {
        int64_t r = static_cast<int64_t>(d->size());
        int64_t s = n.attrInt("start", 0), e = n.attrInt("end", r);
        s = std::clamp<int64_t>(s < 0 ? s + r : s, 0, r);
        e = std::clamp<int64_t>(e < 0 ? e + r : e, 0, r);
        if (s <= e) v = Ints(d->begin() + s, d->begin() + e);
      }
    } else if (!isIntegerType(elemType(out))) {
      continue;
    } else if (op == "Identity" || op == "Unsqueeze" || op == "Squeeze" || op == "Cast" || op == "Reshape") {
      if (const Ints* a = known(n.input(0))) v = *a;  // flat contents are unchanged
    } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
      const Ints* a = known(n.input(0));
      const Ints* b = known(n.input(1));
      if (a && b) v = elementwise(op, *a, *b);
    } else if (op == "Gather") {
      const Ints* data = known(n.input(0));
      const Ints* idx = known(n.input(1));
      // Gather from the Shape of a tensor whose other dims are symbolic: the picked dims may be static.
      const ir::Node* shapeOf = n.input(0) ? n.input(0)->producer() : nullptr;
      if (!data && idx && shapeOf && shapeOf->opType == "Shape" && shapeOf->input(0) && !shapeOf->hasAttr("start") &&
          !shapeOf->hasAttr("end")) {
        const ir::TypeInfo* ti = scope.type(shapeOf->input(0));
        if (!ti) ti = &shapeOf->input(0)->type;
        if (ti->shape) {
          Ints r;
          int64_t size = static_cast<int64_t>(ti->shape->size());
          for (int64_t i : *idx) {
            if (i < 0) i += size;
            if (i < 0 || i >= size || !(*ti->shape)[static_cast<size_t>(i)].isValue()) {
              r.clear();
              break;
            }
            r.push_back((*ti->shape)[static_cast<size_t>(i)].value);
          }
          if (r.size() == idx->size() && n.attrInt("axis", 0) == 0) v = r;
        }
      }
      if (data && idx && n.attrInt("axis", 0) == 0) {
        Ints r;
        int64_t size = static_cast<int64_t>(data->size());
        for (int64_t i : *idx) {
          if (i < 0) i += size;
          if (i < 0 || i >= size) {
            r.clear();
            break;
          }
          r.push_back((*data)[static_cast<size_t>(i)]);
        }
        if (r.size() == idx->size()) v = r;
      }
    } else if (op == "Concat") {
      Ints r;
      bool all = true;
      for (const ir::Value* in : n.inputs()) {
        const Ints* a = known(in);
        if (!a) {
          all = false;
          break;
        }
        r.insert(r.end(), a->begin(), a->end());
      }
      if (all) v = r;
    }
    if (v) {
      scope.values[out->name()] = std::move(*v);
      ++added;
    }
  }
  return added;
}

size_t evaluateShapeArithmetic(const ir::Model& m, ShapeFacts& f) {
  Scope main = scopeOf(f, "", nullptr, m.opsetVersion(""));
  return evaluateShapeArithmetic(m.graph(), f, main);
}

size_t knownValueCount(const ShapeFacts& f) {
  size_t n = f.shapeValues.size();
  for (const auto& [key, b] : f.bodies) n += b.shapeValues.size();
  return n;
}

// Inside bodies, values already worked out become Constant nodes, so that libonnx's inference of the body
// sees Reshape targets and the like (bodies get no data propagation from libonnx 1.12).
void foldKnownInBodies(onnx::GraphProto& g, const std::string& key, const ShapeFacts& f) {
  auto it = key.empty() ? f.bodies.end() : f.bodies.find(key);
  for (auto& node : *g.mutable_node()) {
    if (it != f.bodies.end() && node.output_size() == 1 && node.op_type() != "Constant") {
      auto known = it->second.shapeValues.find(node.output(0));
      auto type = it->second.types.find(node.output(0));
      // Only int64 values with a known rank (the Constant must have the same type and shape).
      if (known != it->second.shapeValues.end() && type != it->second.types.end() &&
          type->second.elemType == ir::DataType::Int64 && type->second.shape && type->second.shape->size() <= 1 &&
          (type->second.shape->empty() ? known->second.size() == 1 : true)) {
        onnx::NodeProto c;
        c.set_op_type("Constant");
        c.set_name(node.name());
        c.add_output(node.output(0));
        auto* a = c.add_attribute();
        a->set_name("value");
        a->set_type(onnx::AttributeProto::TENSOR);
        auto* t = a->mutable_t();
        t->set_data_type(onnx::TensorProto::INT64);
        if (!type->second.shape->empty()) t->add_dims(static_cast<int64_t>(known->second.size()));
        for (auto x : known->second) t->add_int64_data(x);
        node = std::move(c);
        continue;
      }
    }
    const std::string owner = firstOutputName(node);
    for (auto& a : *node.mutable_attribute()) {
      if (a.has_g()) foldKnownInBodies(*a.mutable_g(), childKey(key, owner, a.name(), 0), f);
      for (int i = 0; i < a.graphs_size(); ++i)
        foldKnownInBodies(*a.mutable_graphs(i), childKey(key, owner, a.name(), static_cast<size_t>(i)), f);
    }
  }
}

// The types of the values each body declares or libonnx inferred (inputs, value_info, outputs).
void takeBodyTypes(const onnx::GraphProto& g, const std::string& key, ShapeFacts& f) {
  for (const auto& node : g.node()) {
    const std::string owner = firstOutputName(node);
    for (const auto& a : node.attribute()) {
      std::vector<const onnx::GraphProto*> graphs;
      if (a.has_g()) graphs.push_back(&a.g());
      for (const auto& sub : a.graphs()) graphs.push_back(&sub);
      for (size_t i = 0; i < graphs.size(); ++i) {
        const std::string k = childKey(key, owner, a.name(), i);
        auto& types = f.bodies[k].types;
        auto keep = [&](const onnx::ValueInfoProto& vi) {
          if (vi.has_type()) types[vi.name()] = onnxfmt::importType(vi.type());
        };
        for (const auto& vi : graphs[i]->input()) keep(vi);
        for (const auto& vi : graphs[i]->value_info()) keep(vi);
        for (const auto& vi : graphs[i]->output()) keep(vi);
        takeBodyTypes(*graphs[i], k, f);
      }
    }
  }
}

void inferOnce(const ir::Model& m, ShapeFacts& f, int64_t symbolicDim) {
  {
    // Weights never feed shapes; leaving big ones out keeps this as cheap on large models as on small ones.
    onnx::ModelProto p = exportForInference(m);
    const bool after17 = m.opsetVersion("") > kLibonnxMaxOpset;
    if (after17) opsets_18_26::makeOpset17View(p);
    if (!f.inferenceChecked) {
      f.inferenceChecked = true;
      f.inferenceBlocked = inferenceHazard(p);
      if (f.inferenceBlocked) f.warnings.push_back("shape inference skipped: " + *f.inferenceBlocked);
    }
    if (f.inferenceBlocked) {
      // Fallback: the types the model declares, and FlowBridge's own shape arithmetic on them.
      auto take = [&](const onnx::ValueInfoProto& vi) {
        if (vi.has_type()) f.types[vi.name()] = onnxfmt::importType(vi.type());
      };
      for (const auto& vi : p.graph().input()) take(vi);
      for (const auto& vi : p.graph().value_info()) take(vi);
      for (const auto& vi : p.graph().output()) take(vi);
      takeBodyTypes(p.graph(), "", f);
      return;
    }
    foldKnownInBodies(*p.mutable_graph(), "", f);
    p.mutable_graph()->clear_value_info();
    if (after17) opsets_18_26::declareOpaqueOutputs(p, f);
    if (symbolicDim > 0)
      for (auto& in : *p.mutable_graph()->mutable_input())
        if (in.type().has_tensor_type() && in.type().tensor_type().has_shape())
          for (auto& d : *in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
            if (!d.has_dim_value()) d.set_dim_value(symbolicDim);
    // Values already worked out go in as initializers, so that inference sees Reshape targets and the like.
    if (!f.shapeValues.empty()) {
      auto* g = p.mutable_graph();
      std::unordered_map<std::string, bool> isInit;
      for (const auto& t : g->initializer()) isInit[t.name()] = true;
      google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
      for (auto& node : *g->mutable_node()) {
        bool folded = node.output_size() == 1 && f.shapeValues.count(node.output(0)) && !isInit.count(node.output(0));
        if (!folded) {
          *kept.Add() = std::move(node);
          continue;
        }
        auto* t = g->add_initializer();
        t->set_name(node.output(0));
        t->set_data_type(onnx::TensorProto::INT64);
        const auto& vals = f.shapeValues.at(node.output(0));
        auto ti = f.types.find(node.output(0));
        bool scalar = ti != f.types.end() && ti->second.shape && ti->second.shape->empty();
        if (!scalar) t->add_dims(static_cast<int64_t>(vals.size()));
        for (auto x : vals) t->add_int64_data(x);
        if (ti != f.types.end() && ti->second.elemType != ir::DataType::Int64) {
          // Keep the declared element type (Shape chains are int64; anything else is left to inference).
          g->mutable_initializer()->RemoveLast();
          *kept.Add() = std::move(node);
        }
      }
      g->mutable_node()->Swap(&kept);
    }
    std::unordered_map<std::string, onnx::TensorShapeProto> generated;
    onnx::ShapeInferenceOptions opts(/*check_type=*/false, /*error_mode=*/0, /*enable_data_propagation=*/true);
    onnx::shape_inference::InferShapes(p, onnx::OpSchemaRegistry::Instance(), opts, &generated);
    auto take = [&](const onnx::ValueInfoProto& vi) {
      if (vi.has_type()) f.types[vi.name()] = onnxfmt::importType(vi.type());
    };
    for (const auto& vi : p.graph().input()) take(vi);
    for (const auto& vi : p.graph().value_info()) take(vi);
    for (const auto& vi : p.graph().output()) take(vi);
    takeBodyTypes(p.graph(), "", f);
    for (const auto& [name, shape] : generated) {
      std::vector<int64_t> values;
      bool all = true;
      for (const auto& d : shape.dim()) {
        if (!d.has_dim_value()) {
          all = false;
          break;
        }
        values.push_back(d.dim_value());
      }
      if (all && !f.shapeValues.count(name)) f.shapeValues[name] = std::move(values);
    }
  }
}

ShapeFacts factsWith(const ir::Model& m, int64_t symbolicDim) {
  ShapeFacts f;
  // Inference and evaluation feed each other (a computed Reshape target gives the next static shape);
  // a few rounds reach everything real exports compute from static input shapes.
  for (int round = 0; round < 32; ++round) {
    size_t before = knownValueCount(f);
    try {
      inferOnce(m, f, symbolicDim);
    } catch (const std::exception& e) {
      f.warnings.push_back(e.what());
      break;
    }
    evaluateShapeArithmetic(m, f);
    if (knownValueCount(f) == before) break;
  }
  return f;
}

bool hasSymbolicInputs(const ir::Model& m) {
  for (const ir::Value* v : m.graph().inputs())
    if (!v->initializer() && v->type.isTensor() && v->type.shape && !v->type.hasStaticShape()) return true;
  return false;
}

// Keeps what two inferences with different stand-ins for the symbolic dims agree on: a value equal under
// both does not depend on the symbolic dims, so it is safe to bake into the model; a dim that differs stays
// unknown (the rank survives).
void keepAgreed(const TypeMap& ta, const ValueMap& va, const TypeMap& tb, const ValueMap& vb, TypeMap& types,
                ValueMap& values) {
  for (auto& [name, v] : va)
    if (auto it = vb.find(name); it != vb.end() && it->second == v) values[name] = v;
  for (auto& [name, t] : ta) {
    auto it = tb.find(name);
    if (it == tb.end()) continue;
    ir::TypeInfo merged = t;
    if (merged.shape && it->second.shape && merged.shape->size() == it->second.shape->size()) {
      for (size_t i = 0; i < merged.shape->size(); ++i)
        if (!((*merged.shape)[i] == (*it->second.shape)[i])) (*merged.shape)[i] = ir::Dim{};
    } else {
      merged.shape.reset();
    }
    types[name] = std::move(merged);
  }
}

}  // namespace

std::optional<std::string> bodyKey(const ir::Graph& g, const ir::Graph& main) {
  if (&g == &main) return std::string();
  const ir::Node* owner = g.ownerNode();
  if (!owner || !g.parent()) return std::nullopt;
  auto outer = bodyKey(*g.parent(), main);
  if (!outer) return std::nullopt;
  for (const auto& a : owner->attributes)
    for (size_t i = 0; i < a.graphs.size(); ++i)
      if (a.graphs[i].get() == &g) return childKey(*outer, firstOutputName(*owner), a.name, i);
  return std::nullopt;
}

namespace {
// The value `v` stands for: in a body, a value read from an enclosing graph is that graph's value.
const ir::Value* definition(const ir::Value* v) {
  while (v && v->isOuterScope() && v->graph() && v->graph()->parent()) {
    const ir::Value* outer = v->graph()->parent()->findValueInScope(v->name());
    if (!outer || outer == v) break;
    v = outer;
  }
  return v;
}
}  // namespace

const ir::TypeInfo* ShapeFacts::typeOf(const ir::Value* v, const ir::Graph& main) const {
  v = definition(v);
  if (!v || !v->graph()) return nullptr;
  auto key = bodyKey(*v->graph(), main);
  if (!key) return nullptr;
  const TypeMap* map = &types;
  if (!key->empty()) {
    auto it = bodies.find(*key);
    if (it == bodies.end()) return nullptr;
    map = &it->second.types;
  }
  auto it = map->find(v->name());
  return it == map->end() ? nullptr : &it->second;
}

const std::vector<int64_t>* ShapeFacts::valuesOf(const ir::Value* v, const ir::Graph& main) const {
  v = definition(v);
  if (!v || !v->graph()) return nullptr;
  auto key = bodyKey(*v->graph(), main);
  if (!key) return nullptr;
  const ValueMap* map = &shapeValues;
  if (!key->empty()) {
    auto it = bodies.find(*key);
    if (it == bodies.end()) return nullptr;
    map = &it->second.shapeValues;
  }
  auto it = map->find(v->name());
  return it == map->end() ? nullptr : &it->second;
}

ShapeFacts inferShapeFacts(const ir::Model& m) {
  if (!hasSymbolicInputs(m)) return factsWith(m, 0);
  ShapeFacts a = factsWith(m, 7), b = factsWith(m, 11);
  ShapeFacts out;
  out.warnings = a.warnings;
  keepAgreed(a.types, a.shapeValues, b.types, b.shapeValues, out.types, out.shapeValues);
  for (auto& [key, body] : a.bodies) {
    auto it = b.bodies.find(key);
    if (it == b.bodies.end()) continue;
    auto& o = out.bodies[key];
    keepAgreed(body.types, body.shapeValues, it->second.types, it->second.shapeValues, o.types, o.shapeValues);
  }
  return out;
}

}  // namespace fb::schema
