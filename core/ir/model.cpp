#include "ir/model.h"

namespace fb::ir {

Model::Model() : graph_(std::make_shared<Graph>()) {}

static bool isDefault(const std::string& d) { return d.empty() || d == "ai.onnx"; }

int64_t Model::opsetVersion(const std::string& d) const {
  for (const auto& o : opsets)
    if (o.domain == d || (isDefault(d) && isDefault(o.domain))) return o.version;
  return 0;
}

void Model::setOpsetVersion(const std::string& d, int64_t version) {
  for (auto& o : opsets)
    if (o.domain == d || (isDefault(d) && isDefault(o.domain))) {
      o.version = version;
      return;
    }
  opsets.push_back({d, version});
}

std::unique_ptr<Model> Model::clone() const {
  auto m = std::make_unique<Model>(*this);  // metadata by value; graphs are deep-copied below
  auto ids = std::make_shared<IdSource>(*graph_->idSource());
  m->graph_ = graph_->clone(ids);
  for (auto& f : m->functions)
    if (f.body) f.body = f.body->clone(ids);
  // The clones kept their nodes' ids, so the next new node gets the id it would get in the source: a conversion
  // of a copy and one in place number their new nodes alike (the app's report and the CLI's agree).
  ids->next = graph_->idSource()->next;
  return m;
}

}  // namespace fb::ir
