#include "convert/status_loop.h"

#include "ir/node_label.h"
#include "util/failure_text.h"

namespace fb::convert {

StatusLoop::StatusLoop(std::vector<NodeReport>& reports, Rules rules) : reports_(reports), rules_(std::move(rules)) {}

size_t StatusLoop::open(const ir::Node& n) {
  NodeReport r;
  r.nodeId = n.id();
  r.nodeName = ir::nodeLabel(n);
  r.opType = n.opType;
  r.domain = n.domain;
  reports_.push_back(std::move(r));
  return reports_.size() - 1;
}

void StatusLoop::keep(size_t slot, std::string why) {
  NodeReport& r = reports_[slot];
  r.status = NodeStatus::Kept;
  r.message = std::move(why);
}

NodeStatus StatusLoop::decide(size_t slot, HandlerContext& ctx, const std::function<void()>& handle) {
  try {
    handle();
    NodeReport& r = reports_[slot];
    const bool converted = rules_.returnMeansConverted || ctx.changed || ctx.replaced;
    r.status = converted ? NodeStatus::Converted : NodeStatus::Unchanged;
    r.message = ctx.note;
    r.newNodes = ctx.newNodes;
    r.attributesOnly = converted && ctx.attributesOnly && !ctx.replaced;
    r.warnings.insert(r.warnings.end(), ctx.warnings.begin(), ctx.warnings.end());
  } catch (const Unsupported& e) {
    NodeReport& r = reports_[slot];
    r.status = NodeStatus::Unsupported;
    r.message = e.what();
  } catch (const std::exception& e) {
    NodeReport& r = reports_[slot];
    r.status = NodeStatus::Failed;
    r.message = failureText(e, rules_.failing);
  }
  return reports_[slot].status;
}

}  // namespace fb::convert
