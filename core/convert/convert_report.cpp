#include "convert/convert_report.h"

#include "convert/builtin_handlers.h"
#include "schema/opsets_18_26/down_forms.h"
#include "convert/onnx_onnx/opset18_up.h"
#include "schema/opsets_18_26/op_facts.h"
#include "util/printable.h"

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
  for (auto s :
       {NodeStatus::Unchanged, NodeStatus::Converted, NodeStatus::Unsupported, NodeStatus::Failed, NodeStatus::Kept})
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
      passes.push_back({{"name", p.name},
                        {"runs", p.runs},
                        {"ms", p.milliseconds},
                        {"nodes_removed", p.total.nodesRemoved},
                        {"nodes_added", p.total.nodesAdded},
                        {"initializers_removed", p.total.initializersRemoved},
                        {"initializers_added", p.total.initializersAdded}});
      if (!p.total.warnings.empty()) passes.back()["warnings"] = p.total.warnings;
    }
    j["passes"] = {{"per_pass", passes},
                   {"iterations", r.passStats.iterations},
                   {"fixpoint", r.passStats.reachedFixpoint},
                   {"nodes_before", r.passStats.nodesBefore},
                   {"nodes_after", r.passStats.nodesAfter},
                   {"ms", r.passStats.milliseconds},
                   {"fold_budget",
                    {{"folded_bytes", r.passStats.foldedBytes},
                     {"folded_limit", r.passStats.foldedLimit},
                     {"added_bytes", r.passStats.foldAddedBytes},
                     {"added_limit", r.passStats.foldAddedLimit}}}};
  }
  if (r.model) {
    json check{{"ok", r.check.ok}};
    json msgs = json::array();
    for (const auto& m : r.check.messages) msgs.push_back({{"node", m.node}, {"message", m.message}});
    check["messages"] = msgs;
    j["check"] = check;
  }
  if (!r.notes.empty()) j["notes"] = r.notes;
  if (!r.error.empty()) j["error"] = r.error;
  j["time_ms"] = {{"handlers", r.handlersMs}, {"passes", r.passesMs}, {"check", r.checkMs}, {"total", r.totalMs}};
  return j;
}

namespace {
// How an opset-17 node of the op becomes version `f`: every rewrite on the way (ReduceMax-20 still takes the
// axes move of 18), or what the version itself says when nothing needs rewriting.
std::string upFrom17(const schema::opsets_18_26::SchemaFact& f) {
  const std::string kept = onnx_onnx::upPlan18(f.op, f.since);
  std::string steps;
  for (const auto& g : schema::opsets_18_26::allSchemaFacts()) {
    if (g.op != f.op || g.since > f.since) continue;
    const std::string step = onnx_onnx::upPlan18(g.op, g.since);
    if (step.rfind("kept", 0) == 0 || step == kept) continue;
    steps += (steps.empty() ? "" : "; ") + std::to_string(g.since) + ": " + step;
  }
  return steps.empty() ? kept : steps + (kept.rfind("kept", 0) == 0 ? "" : "; " + kept);
}
}  // namespace

nlohmann::json handlerTableJson(const std::string& direction, std::optional<int64_t> opset) {
  registerBuiltinHandlers();
  const auto& reg = HandlerRegistry::forDirection(direction);
  nlohmann::json rows = nlohmann::json::array();
  // Targets above 17 take each node's opset-17 form first (the 7-17 handlers at 17), then step up.
  const std::optional<int64_t> registryOpset =
      opset ? std::optional(std::min(*opset, schema::kLibonnxMaxOpset)) : std::nullopt;
  for (const HandlerInfo* h : reg.all()) {
    if (registryOpset && reg.find(h->domain, h->opType, *registryOpset) != h) continue;
    nlohmann::json row{{"op_type", h->opType}, {"since_version", h->sinceVersion}, {"description", h->description}};
    if (!h->domain.empty()) row["domain"] = h->domain;
    rows.push_back(std::move(row));
  }
  nlohmann::json table{{"direction", direction}, {"handlers", rows}};
  if (direction != "onnx") return table;
  // Opsets 18-26, FlowBridge's own steps (libonnx 1.12's registry stops at 17): per op version, how a node of
  // it goes down to 17 and how an older node becomes it. With a target above 17, only the versions that
  // target selects; with a target of 17 or below, every version (a newer source steps down through 17).
  nlohmann::json after17 = nlohmann::json::array();
  for (const auto& f : schema::opsets_18_26::allSchemaFacts()) {
    if (opset && *opset > schema::kLibonnxMaxOpset && schema::opsets_18_26::schemaFact(f.op, *opset) != &f) continue;
    auto plan = schema::opsets_18_26::downForm(f.op, f.since);
    const char* kind = !plan                                                          ? "none"
                       : plan->kind == schema::opsets_18_26::DownForm::Kind::Adapter  ? "adapter"
                       : plan->kind == schema::opsets_18_26::DownForm::Kind::SameAs17 ? "opset-17 schema"
                                                                                      : "refused";
    after17.push_back({{"op_type", f.op},
                       {"since_version", f.since},
                       {"change", f.change},
                       {"down_to_17", {{"kind", kind}, {"how", plan ? plan->text : std::string()}}},
                       {"up_from_17", upFrom17(f)}});
  }
  table["opsets_18_26"] = std::move(after17);
  return table;
}

namespace {
bool unconverted(const NodeReport& n) { return n.status == NodeStatus::Unsupported || n.status == NodeStatus::Failed; }

std::string lowestOpsetNote(const NodeReport& n) {
  return n.lowestOpset ? " [lowest opset with a conversion: " + std::to_string(*n.lowestOpset) + "]" : std::string();
}
}  // namespace

std::vector<std::string> problemLines(const ConvertResult& r, const std::string& file) {
  std::vector<std::string> lines;
  for (const auto& n : r.nodes)
    if (unconverted(n))
      lines.push_back(printable(file + ": node " + n.nodeName + " (" + n.opType +
                                "): " + std::string(statusName(n.status)) + ": " + n.message) +
                      lowestOpsetNote(n));
  for (auto& line : checkLines(r.check, file, "check")) lines.push_back(std::move(line));
  if (!r.error.empty()) lines.push_back(printable(file + ": " + r.error));
  return lines;
}

std::vector<std::string> checkLines(const CheckResult& check, const std::string& file, const std::string& what) {
  std::vector<std::string> lines;
  for (const auto& m : check.messages)
    lines.push_back(printable(file + ": " + what + ": " + (m.node.empty() ? "" : m.node + ": ") + m.message));
  return lines;
}

std::vector<std::string> unconvertedNodeLines(const ConvertResult& r) {
  std::vector<std::string> lines;
  for (const auto& n : r.nodes)
    if (unconverted(n))
      lines.push_back(std::string(statusName(n.status)) + ": " +
                      printable(n.nodeName + " (" + n.opType + "): " + n.message) + lowestOpsetNote(n));
  return lines;
}

}  // namespace fb::convert
