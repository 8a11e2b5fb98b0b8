#include "convert/oneflow_onnx/oneflow_to_onnx.h"

#include <map>
#include <mutex>
#include <stdexcept>

#include "convert/handler_registry.h"
#include "convert/oneflow_onnx/handler_families.h"
#include "ir/topo_sort.h"

namespace fb::convert {

bool OneflowConversion::ok() const {
  for (const auto& r : reports)
    if (r.status == NodeStatus::Unsupported || r.status == NodeStatus::Failed) return false;
  return true;
}

std::string OneflowConversion::summary() const {
  std::map<NodeStatus, int> counts;
  std::string problems;
  for (const auto& r : reports) {
    ++counts[r.status];
    if ((r.status == NodeStatus::Unsupported || r.status == NodeStatus::Failed) && problems.size() < 400)
      problems += (problems.empty() ? "" : "; ") + r.opType + " '" + r.nodeName + "': " + r.message;
  }
  std::string s;
  for (const auto& [st, n] : counts) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(statusName(st));
  if (!problems.empty()) s += " (" + problems + ")";
  return s;
}

void registerOneflowHandlers() {
  static std::once_flag once;
  std::call_once(once, [] { oneflow::registerAllFamilies(); });
}

namespace {
// ONNX IR version that goes with an opset (onnx/helper.py VERSION_TABLE).
int64_t irVersionFor(int64_t opset) {
  if (opset <= 8) return 3;
  if (opset == 9) return 4;
  if (opset == 10) return 5;
  if (opset == 11) return 6;
  if (opset <= 14) return 7;
  return 8;
}
}  // namespace

OneflowConversion convertOneflowToOnnx(ir::Model& model, int64_t target) {
  if (target < 7 || target > 17) throw std::invalid_argument("target opset " + std::to_string(target) + " is outside 7..17");
  registerOneflowHandlers();
  const auto& registry = HandlerRegistry::forDirection("oneflow");
  ir::Graph& g = model.graph();
  OneflowConversion result;

  std::vector<ir::Node*> snapshot;
  for (const auto& n : g.nodes())
    if (n->domain == "oneflow") snapshot.push_back(n.get());

  for (ir::Node* n : snapshot) {
    NodeReport rep;
    rep.nodeId = n->id();
    rep.nodeName = n->name;
    rep.opType = n->opType;
    rep.domain = n->domain;
    const HandlerInfo* h = registry.find("oneflow", n->opType, target);
    if (!h) {
      rep.status = NodeStatus::Unsupported;
      rep.lowestOpset = registry.lowestVersion("oneflow", n->opType);
      rep.message = rep.lowestOpset ? "needs opset " + std::to_string(*rep.lowestOpset)
                                    : "no handler for OneFlow op '" + n->opType + "'";
      result.reports.push_back(std::move(rep));
      continue;
    }
    HandlerContext ctx{model, g};
    ctx.sourceOpset = model.opsetVersion("oneflow");
    ctx.targetOpset = target;
    try {
      h->fn(*n, ctx);
      rep.status = NodeStatus::Converted;
      rep.newNodes = ctx.newNodes;
      rep.warnings = ctx.warnings;
    } catch (const std::exception& e) {
      // Undo: the nodes the handler made are not used by anything yet.
      for (auto it = ctx.newNodes.rbegin(); it != ctx.newNodes.rend(); ++it)
        for (const auto& m : g.nodes())
          if (m->id() == *it) {
            g.removeNode(m.get());
            break;
          }
      rep.status = NodeStatus::Failed;
      rep.message = e.what();
    }
    result.reports.push_back(std::move(rep));
  }

  if (result.ok()) {
    model.opsets = {{"", target}};
    model.irVersion = irVersionFor(target);
    model.producerName = "FlowBridge";
    model.producerVersion = FLOWBRIDGE_VERSION;
    // Weights nothing reads any more (e.g. a folded constant's source) are not carried into the ONNX file.
    std::vector<ir::Value*> unused;
    for (const auto& t : g.initializers())
      if (auto* v = g.findValue(t->name); v && v->uses().empty() && !v->isGraphOutput()) unused.push_back(v);
    for (auto* v : unused) g.removeInitializer(v);
    g.pruneValues();
    auto topo = ir::topologicalSort(g);
    if (!topo.ok) throw std::logic_error("conversion produced a cycle through " + topo.cycleNodes.front());
  }
  return result;
}

}  // namespace fb::convert
