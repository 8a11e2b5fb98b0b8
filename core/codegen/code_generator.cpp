#include "codegen/code_generator.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <sstream>

#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"
#include "codegen/oneflow_signatures.h"
#include "codegen/py_node.h"
#include "codegen/python_text.h"
#include "codegen/recognised_blocks.h"
#include "codegen/run_script.h"
#include "codegen/static_values.h"
#include "codegen/state_dict_mapping.h"
#include "convert/handler_registry.h"
#include "convert/status_loop.h"
#include "schema/onnx_schema.h"
#include "schema/shape_facts.h"
#include "ir/op_counts.h"
#include "util/stopwatch.h"

namespace fb::codegen {
namespace {

using Clock = SteadyClock;

std::string numpyName(ir::DataType t) {
  switch (t) {
    case ir::DataType::Float:
      return "float32";
    case ir::DataType::Double:
      return "float64";
    case ir::DataType::Float16:
      return "float16";
    case ir::DataType::BFloat16:
      return "bfloat16";
    default:
      return std::string(ir::dataTypeName(t));
  }
}

// Walks the graphs in order; every node gets its status (convert::StatusLoop, as in the conversions) and its lines.
class Generator {
 public:
  Generator(const ir::Model& m, const CodegenOptions& o, CodegenResult& res)
      : model_(m),
        opts_(o),
        res_(res),
        mb_(m, o.flavour),
        registry_(convert::HandlerRegistry::forDirection(kPythonDirection)) {
    mb_.emitGraph = [this](const ir::Graph& g) { emitNodes(g); };
  }

  void run() {
    const ir::Graph& g = model_.graph();
    for (const ir::Value* v : g.inputs()) {
      if (v->initializer()) continue;  // IR 3 lists weights as inputs too
      std::string name = mb_.locals().claim(identifierForValue(v->name()));
      mb_.bind(v, name);
      args_.push_back(name);
      inputs_.push_back(v);
    }
    emitNodes(g);
    for (const ir::Value* v : g.outputs()) {
      try {
        returns_.push_back(mb_.expr(v));
      } catch (const std::exception&) {
        returns_.push_back("None");  // its producer was left unconverted
      }
    }
  }

  std::unique_ptr<GeneratedCode> assemble(const std::string& sourceName);

 private:
  void emitNodes(const ir::Graph& g) {
    seedTypes(g);
    blocks_.findIn(g, BlockLookups{[this](const ir::Value* v) { return mb_.constantTensor(v); },
                                   [this](const ir::Value* v) {
                                     auto it = types_.find(v);
                                     return it == types_.end() ? ir::DataType::Undefined : it->second;
                                   },
                                   opts_.flavour == Flavour::PyTorch});
    for (const auto& n : g.nodes()) emitNode(*n, g);
  }

  void seedTypes(const ir::Graph& g) {
    for (const ir::Value* v : g.values()) {
      if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined)
        types_[v] = v->type.elemType;
      else if (v->initializer())
        types_[v] = v->initializer()->dtype;
      else if (v->isOuterScope())
        if (const ir::Value* outer = mb_.resolve(v); outer != v)
          if (auto it = types_.find(outer); it != types_.end()) types_[v] = it->second;
    }
    if (&g == &model_.graph() && facts())
      for (const ir::Value* v : g.values())
        if (!types_.count(v))
          if (auto it = facts()->types.find(v->name());
              it != facts()->types.end() && it->second.isTensor() && it->second.elemType != ir::DataType::Undefined)
            types_[v] = it->second.elemType;
  }

  const schema::ShapeFacts* facts() {
    if (!facts_)
      facts_ = opts_.facts ? opts_.facts : std::make_shared<const schema::ShapeFacts>(schema::inferShapeFacts(model_));
    return facts_.get();
  }

  void emitNode(const ir::Node& n, const ir::Graph& g) {
    const size_t slot = statuses_.open(n);  // subgraph nodes follow their owner
    const std::string domain = n.isDefaultDomain() ? std::string() : n.domain.str();
    const int64_t opset = model_.opsetVersion(domain);
    convert::HandlerContext ctx{const_cast<ir::Model&>(model_), const_cast<ir::Graph&>(g)};
    ctx.sourceOpset = opset;
    ctx.targetOpset = opset;
    ctx.dryRun = true;  // handlers read the graph; they never edit it
    ctx.elemTypes = &types_;
    ctx.facts = [this] { return facts(); };
    ctx.rankCache = &ranks_;
    PyNode p(n, ctx, mb_, opset);
    ctx.py = &p;
    // Weights registered from here on are this node's; a subgraph's nodes take over and hand back.
    const uint64_t outerNode = mb_.currentNode();
    mb_.setCurrentNode(n.id());

    const size_t linesBefore = mb_.lines().size();
    const int indentBefore = mb_.indentLevel();
    const convert::NodeStatus status = statuses_.decide(slot, ctx, [&] {
      if (const RecognisedBlock* b = blocks_.blockOf(n)) return writeBlock(*b, n, ctx);
      if (lowerToStatic(p)) return;
      const convert::HandlerInfo* h = registry_.find(domain, n.opType, opset);
      if (!h) {
        if (auto low = registry_.lowestVersion(domain, n.opType))
          throw convert::Unsupported(n.qualifiedOp() + " is handled from opset " + std::to_string(*low) +
                                     "; the model imports " + std::to_string(opset));
        throw convert::Unsupported(domain.empty() ? "no " + std::string(flavourName(opts_.flavour)) + " code for " +
                                                        n.opType + " yet"
                                                  : "custom domain '" + domain + "': no Python equivalent");
      }
      h->fn(const_cast<ir::Node&>(n), ctx);
      if (opts_.flavour == Flavour::OneFlow) refuseCallsOneflowRejects(linesBefore);
      if (ctx.note.empty()) ctx.note = h->description;
    });
    if (status != convert::NodeStatus::Converted) {
      const convert::NodeReport& r = statuses_.report(slot);
      mb_.truncate(linesBefore, indentBefore);
      // With --continue-on-error the module still loads; running the node says why it could not be written.
      mb_.line(
          "raise NotImplementedError(" + pyStringLiteral(n.qualifiedOp() + " (" + r.nodeName + "): " + r.message) + ")",
          n.id(), r.nodeName);
      // Later nodes still get their own verdicts instead of failing on this node's missing outputs.
      for (const ir::Value* out : n.outputs())
        if (out && !out->name().empty() && !mb_.isBound(out)) mb_.newLocal(out);
    }
    mb_.setCurrentNode(outerNode);
    schema::propagateElemTypes(n, schema::schemaAt(domain, n.opType, opset), types_);
  }

  // A statement OneFlow 0.8, 0.9 or 1.0 would reject with a TypeError (a keyword it lacks, too many arguments)
  // makes the node unsupported: code that fails at run time is never written.
  void refuseCallsOneflowRejects(size_t firstLine) const {
    std::string code;
    for (size_t i = firstLine; i < mb_.lines().size(); ++i) code += mb_.lines()[i].text + "\n";
    if (std::string why = oneflowRefusal(code); !why.empty()) throw convert::Unsupported(why);
  }

  // A recognised block is one statement, written at its last node; its other nodes write nothing.
  void writeBlock(const RecognisedBlock& b, const ir::Node& n, convert::HandlerContext& ctx) {
    const ir::Node& last = *b.nodes.back();
    if (&n != &last) {
      ctx.note = std::string("part of the ") + blockKindName(b.kind) + " written at " +
                 (last.name.empty() ? last.opType : last.name);
      return;
    }
    const std::string x = mb_.expr(b.input);
    std::string call;
    switch (b.kind) {
      case RecognisedBlock::Kind::LayerNorm: {
        const std::string shape =
            b.normalizedSize >= 0 ? "(" + std::to_string(b.normalizedSize) + ",)" : "(" + x + ".shape[-1],)";
        const std::string w = b.weight ? mb_.weight(b.weight, true, b.weightReader, b.weightSlot) : "None";
        const std::string bias = b.bias ? mb_.weight(b.bias, true, b.biasReader, b.biasSlot) : "None";
        call = "F.layer_norm(" + x + ", " + shape + ", " + w + ", " + bias +
               ", eps=" + pyFloat(b.epsilon, ir::DataType::Float) + ")";
        break;
      }
      case RecognisedBlock::Kind::Gelu:
        call = "F.gelu(" + x + (b.tanhApproximation ? ", approximate='tanh')" : ")");
        break;
      case RecognisedBlock::Kind::HardSwish:
        call = "F.hardswish(" + x + ")";
        break;
    }
    mb_.line(mb_.newLocal(b.output) + " = " + call, n.id(), blockComment(b));
    for (const ir::Node* member : b.nodes)
      if (member != &last) blockMembers_[n.id()].push_back(member->id());
    ctx.note =
        std::string(blockKindName(b.kind)) + " recognised: one call for " + std::to_string(b.nodes.size()) + " nodes";
  }

  const ir::Model& model_;
  const CodegenOptions& opts_;
  CodegenResult& res_;
  ModuleBuilder mb_;
  const convert::HandlerRegistry& registry_;
  // The statuses of every direction: a handler that returns has written its node's code.
  convert::StatusLoop statuses_{res_.conversion.nodes, {true, "generating this node's code"}};
  schema::ElemTypes types_;
  std::unordered_map<const ir::Value*, std::optional<int64_t>> ranks_;
  std::shared_ptr<const schema::ShapeFacts> facts_;
  RecognisedBlocks blocks_;
  // The last node of each block written -> the block's other nodes, whose code is that node's line.
  std::unordered_map<uint64_t, std::vector<uint64_t>> blockMembers_;
  std::vector<std::string> args_, returns_;
  std::vector<const ir::Value*> inputs_;
};

std::string shapeLiteral(const ir::TypeInfo& t) {
  if (!t.shape) return "None";
  std::string s = "[";
  for (size_t i = 0; i < t.shape->size(); ++i) {
    const ir::Dim& d = (*t.shape)[i];
    s += i ? ", " : "";
    s += d.isValue() ? std::to_string(d.value) : d.kind == ir::Dim::Kind::Param ? pyStringLiteral(d.param) : "None";
  }
  return s + "]";
}

std::string emptyTensor(const ir::Tensor& t, Flavour f) {
  std::string dims = pyIntTuple(t.dims);
  std::string s = std::string(namespaceAlias(f)) + ".empty(" +
                  (t.dims.empty() ? std::string("()") : dims.substr(1, dims.rfind(t.dims.size() == 1 ? ',' : ')') - 1));
  if (t.dtype != ir::DataType::Float) s += ", dtype=" + std::string(namespaceAlias(f)) + "." + numpyName(t.dtype);
  return s + ")";
}

std::unique_ptr<GeneratedCode> Generator::assemble(const std::string& sourceName) {
  auto code = std::make_unique<GeneratedCode>();
  const Flavour f = opts_.flavour;
  code->className = classNameForModel(model_.graph().name, sourceName);
  std::ostringstream os;
  int lineNo = 1;
  auto emit = [&](const std::string& text) {
    os << text << "\n";
    for (char c : text) lineNo += c == '\n';
    ++lineNo;
  };
  const std::string lib = f == Flavour::OneFlow ? "OneFlow" : "PyTorch";
  emit("# " + code->className + ": " + lib + " code generated by FlowBridge " FLOWBRIDGE_VERSION " from " +
       (sourceName.empty() ? std::string("an ONNX model") : pyCommentText(sourceName)) + " (ONNX opset " +
       std::to_string(model_.opsetVersion("")) + ", " + std::to_string(model_.graph().totalNodeCount()) + " nodes).");
  emit("# One statement per ONNX node, named in the trailing comment. Weights: " +
       std::string(f == Flavour::OneFlow ? "weights/ (oneflow.load)" : "weights.pt (torch.load)") +
       "; run.py runs the model.");
  emit(importLines(f));
  for (const auto& name : mb_.helpers()) {
    const Helper* h = HelperLibrary::instance().find(name);
    emit("");
    emit(mb_.spell(h->code));
  }
  if (!mb_.helpers().empty()) emit("");
  std::string inputs = "INPUTS = [";
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const ir::Value* v = inputs_[i];
    inputs += (i ? ", " : "") + std::string("(") + pyStringLiteral(v->name()) + ", " +
              pyStringLiteral(numpyName(v->type.elemType)) + ", " + shapeLiteral(v->type) + ")";
  }
  emit(inputs + "]  # ONNX graph inputs: name, element type, shape (strings are dynamic dims)");
  std::string outputs = "OUTPUTS = [";
  for (size_t i = 0; i < model_.graph().outputs().size(); ++i)
    outputs += (i ? ", " : "") + pyStringLiteral(model_.graph().outputs()[i]->name());
  emit(outputs + "]");
  emit("");
  emit("");
  emit("class " + code->className + "(nn.Module):");
  emit("    def __init__(self):");
  emit("        super().__init__()");
  // Declared in the order the exporter wrote the initializers (module order: conv1.weight, conv1.bias, ...),
  // constants it made itself after them in the order of use.
  std::unordered_map<std::string, size_t> fileOrder;
  for (const auto& t : model_.graph().initializers()) fileOrder.emplace(t->name, fileOrder.size());
  std::vector<const Weight*> declared;
  for (const auto& w : mb_.weights()) declared.push_back(&w);
  std::stable_sort(declared.begin(), declared.end(), [&](const Weight* a, const Weight* b) {
    auto ia = fileOrder.find(a->onnxName), ib = fileOrder.find(b->onnxName);
    size_t ka = ia == fileOrder.end() ? fileOrder.size() : ia->second,
           kb = ib == fileOrder.end() ? fileOrder.size() : ib->second;
    return ka < kb;
  });
  for (const Weight* wp : declared) {
    const Weight& w = *wp;
    for (const std::string& container : mb_.tree().createContainers(w.key)) emit("        " + container);
    for (uint64_t user : w.users) code->weightLines[user].push_back(lineNo);
    std::string comment = w.onnxName != w.key ? "  # " + pyCommentText(w.onnxName) : "";
    if (w.sourceType != ir::DataType::Undefined)
      comment += std::string(comment.empty() ? "  # " : "; ") + std::string(ir::dataTypeName(w.sourceType)) +
                 " in the ONNX model, held exactly as " + std::string(ir::dataTypeName(w.tensor.dtype)) + " (" +
                 (f == Flavour::OneFlow ? "OneFlow" : "PyTorch") + " has no " +
                 std::string(ir::dataTypeName(w.sourceType)) + ")";
    if (w.transposed) comment += std::string(comment.empty() ? "  # " : "; ") + "the ONNX model holds it transposed";
    // A buffer is registered on the container that holds it: "layers[0].norm" + "running_mean".
    const size_t dot = w.attr.rfind('.');
    const std::string owner = dot == std::string::npos ? "self" : "self." + w.attr.substr(0, dot);
    const std::string leaf = dot == std::string::npos ? w.attr : w.attr.substr(dot + 1);
    if (w.parameter)
      emit("        self." + w.attr + " = nn.Parameter(" + emptyTensor(w.tensor, f) + ")" + comment);
    else
      emit("        " + owner + ".register_buffer(" + pyStringLiteral(leaf) + ", " + emptyTensor(w.tensor, f) + ")" +
           comment);
  }
  emit("");
  std::string sig = "    def forward(self";
  for (const auto& a : args_) sig += ", " + a;
  emit(sig + "):");
  for (const auto& l : mb_.lines()) {
    if (l.nodeId) code->nodeLines[l.nodeId].push_back(lineNo);
    if (auto it = blockMembers_.find(l.nodeId); l.nodeId && it != blockMembers_.end())
      for (uint64_t member : it->second) code->nodeLines[member].push_back(lineNo);
    for (uint64_t folded : l.foldedNodes) code->nodeLines[folded].push_back(lineNo);
    std::string text(static_cast<size_t>(l.indent) * 4, ' ');
    text += l.text;
    if (!l.comment.empty()) text += "  # " + pyCommentText(l.comment);
    emit(text);
  }
  std::string ret = "        return ";
  for (size_t i = 0; i < returns_.size(); ++i) ret += (i ? ", " : "") + returns_[i];
  emit(returns_.empty() ? "        return None" : ret);
  if (const std::string loader = loadOriginalStateDictCode(mb_.weights(), f); !loader.empty()) {
    emit("");
    emit("");
    emit(loader.substr(0, loader.size() - 1));  // emit ends the line
  }
  code->modelPy = os.str();
  code->runPy = runScript(f, code->className, sourceName);
  code->weights = mb_.weights();
  code->apiNames = apiNamesIn(code->modelPy, f);
  return code;
}

CodegenResult run(const ir::Model& source, const CodegenOptions& opts, bool dry) {
  auto t0 = Clock::now();
  registerCodegenHandlers();
  CodegenResult res;
  res.conversion.direction = directionName(opts.flavour);
  res.conversion.sourceOpset = source.opsetVersion("");
  res.conversion.targetOpset = 0;
  res.conversion.opsBefore = ir::countOps(source.graph());
  Generator gen(source, opts, res);
  auto th = Clock::now();
  gen.run();
  res.conversion.handlersMs = msSince(th);
  const bool unconverted =
      res.conversion.count(convert::NodeStatus::Unsupported) + res.conversion.count(convert::NodeStatus::Failed) > 0;
  if (!dry && (!unconverted || opts.keepUnconverted)) {
    std::string name = source.sourcePath;
    if (auto p = name.find_last_of('/'); p != std::string::npos) name = name.substr(p + 1);
    res.code = gen.assemble(name);
  }
  res.conversion.totalMs = msSince(t0);
  return res;
}

}  // namespace

void registerCodegenHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& r = convert::HandlerRegistry::forDirection(kPythonDirection);
    registerAllCodegenFamilies(r);
  });
}

CodegenResult generatePython(const ir::Model& source, const CodegenOptions& opts) { return run(source, opts, false); }
CodegenResult dryRunPython(const ir::Model& source, const CodegenOptions& opts) { return run(source, opts, true); }

std::string classNameFor(const std::string& graphName) {
  // CamelCase of the name's ASCII letter and digit runs ("main_graph" -> "MainGraph"), never a keyword, builtin or
  // module-level name of model.py or run.py ("none" would give a syntax error, "f" would hide `F`).
  std::string out;
  bool upper = true;
  for (char c : graphName) {
    const bool lowerCase = c >= 'a' && c <= 'z',
               letterOrDigit = lowerCase || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!letterOrDigit) {
      upper = true;
      continue;
    }
    out += upper && lowerCase ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
    if (out.size() >= kMaxIdentifierLength) break;
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out = "Model" + out;
  const auto& reserved = reservedPythonNames();
  if (isPythonKeyword(out) || std::find(reserved.begin(), reserved.end(), out) != reserved.end()) out += "Model";
  return out;
}

std::string classNameForModel(const std::string& graphName, const std::string& fileName) {
  static const std::set<std::string> exporterDefaults{"",      "torch_jit", "torch-jit-export", "torch_jit_export",
                                                      "graph", "Graph",     "main_graph",       "model"};
  std::string stem = fileName.substr(0, fileName.rfind('.'));
  if (!exporterDefaults.count(graphName) || stem.empty()) return classNameFor(graphName);
  return classNameFor(stem);
}

}  // namespace fb::codegen
