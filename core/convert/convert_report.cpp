#include "convert/convert_report.h"

#include "convert/builtin_handlers.h"

namespace fb::convert {

nlohmann::json reportJson(const ConvertResult& r, const std::string& sourcePath) {
  using nlohmann::json;
  json j;
  if (!sourcePath.empty()) j["source"] = sourcePath;
  j["direction"] = r.direction;
  j["source_opset"] = r.sourceOpset;
  j["target_opset"] = r.targetOpset;
  j["complete"] = r.complete();
  json counts = json::object();
  for (auto s : {NodeStatus::Unchanged, NodeStatus::Converted, NodeStatus::Unsupported, NodeStatus::Failed, NodeStatus::Kept})
    counts[std::string(statusName(s))] = r.count(s);
  j["status_counts"] = counts;
  json byOp = json::object();
  for (const auto& [op, m] : r.countsByOp()) byOp[op] = m;
  j["counts_by_op"] = byOp;
  json nodes = json::array();
  for (const auto& n : r.nodes) {
    json e{{"id", n.nodeId}, {"name", n.nodeName}, {"op_type", n.opType}, {"status", statusName(n.status)}};
    if (!n.domain.empty()) e["domain"] = n.domain;
    if (!n.message.empty()) e["message"] = n.message;
    if (!n.warnings.empty()) e["warnings"] = n.warnings;
    if (!n.newNodes.empty()) e["new_nodes"] = n.newNodes;
    if (n.lowestOpset) e["lowest_opset"] = *n.lowestOpset;
    if (n.attributesOnly) e["attributes_only"] = true;
    nodes.push_back(std::move(e));
  }
  j["nodes"] = std::move(nodes);
  j["ops_before"] = r.opsBefore;
  if (r.model) j["ops_after"] = r.opsAfter;
  if (r.passesRan) {
    json passes = json::array();
    for (const auto& p : r.passStats.perPass) {
      passes.push_back({{"name", p.name}, {"runs", p.runs}, {"ms", p.milliseconds},
                        {"nodes_removed", p.total.nodesRemoved}, {"nodes_added", p.total.nodesAdded},
                        {"initializers_removed", p.total.initializersRemoved}, {"initializers_added", p.total.initializersAdded}});
      if (!p.total.warnings.empty()) passes.back()["warnings"] = p.total.warnings;
    }
    j["passes"] = {{"per_pass", passes}, {"iterations", r.passStats.iterations}, {"fixpoint", r.passStats.reachedFixpoint},
                   {"nodes_before", r.passStats.nodesBefore}, {"nodes_after", r.passStats.nodesAfter},
                   {"ms", r.passStats.milliseconds}};
  }
  if (r.model) {
    json check{{"ok", r.check.ok}};
    json msgs = json::array();
    for (const auto& m : r.check.messages) msgs.push_back({{"node", m.node}, {"message", m.message}});
    check["messages"] = msgs;
    j["check"] = check;
  }
  if (!r.error.empty()) j["error"] = r.error;
  j["time_ms"] = {{"handlers", r.handlersMs}, {"passes", r.passesMs}, {"check", r.checkMs}, {"total", r.totalMs}};
  return j;
}

nlohmann::json handlerTableJson(const std::string& direction, std::optional<int64_t> opset) {
  registerBuiltinHandlers();
  const auto& reg = HandlerRegistry::forDirection(direction);
  nlohmann::json rows = nlohmann::json::array();
  for (const HandlerInfo* h : reg.all()) {
    if (opset && reg.find(h->domain, h->opType, *opset) != h) continue;
    nlohmann::json row{{"op_type", h->opType}, {"since_version", h->sinceVersion}, {"description", h->description}};
    if (!h->domain.empty()) row["domain"] = h->domain;
    rows.push_back(std::move(row));
  }
  return {{"direction", direction}, {"handlers", rows}};
}

}  // namespace fb::convert
