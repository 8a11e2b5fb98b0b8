#include "ui/preview/preview_link.h"

#include "ir/graph.h"
#include "ir/model.h"
#include "ui/document.h"

namespace fb::ui {
PreviewLink::PreviewLink(Document* source, Document* preview, QObject* parent)
    : QObject(parent), source_(source), preview_(preview) {
  connect(preview_, &Document::modelChanged, this, &PreviewLink::rebuild);
  // A preview belongs to the source model it was converted from: another source model drops the pairs (and the
  // conversion docks close the preview) until the next preview is shown.
  connect(source_, &Document::modelChanged, this, [this] {
    sourcesOf_.clear();
    previewsOf_.clear();
  });
  connect(source_, &Document::selectionChanged, this, [this] { follow(source_, preview_, previewsOf_); });
  connect(preview_, &Document::selectionChanged, this, [this] { follow(preview_, source_, sourcesOf_); });
}

void PreviewLink::rebuild() {
  sourcesOf_.clear();
  previewsOf_.clear();
  const ir::Model* shown = preview_->model();
  if (!shown || !source_->model()) return;
  auto pair = [&](const ir::Graph& g, auto& self) -> void {
    for (const auto& n : g.nodes()) {
      const ir::Node* previewNode = n.get();
      auto link = [&](uint64_t id) {
        const ir::Node* src = source_->findNode(id);
        if (!src) return;
        QList<const ir::Node*>& sources = sourcesOf_[previewNode];
        if (sources.contains(src)) return;
        sources.append(src);
        previewsOf_[src].append(previewNode);
      };
      if (n->origins.empty()) link(n->id());
      for (uint64_t id : n->origins) link(id);
      for (const ir::Graph* sub : n->subgraphs()) self(*sub, self);
    }
  };
  pair(shown->graph(), pair);
}

void PreviewLink::follow(Document* from, Document* to,
                         const QHash<const ir::Node*, QList<const ir::Node*>>& counterparts) {
  if (following_ || !to->hasGraph()) return;
  QList<const ir::Node*> chosen;
  for (const ir::Node* n : from->selectedNodes())
    for (const ir::Node* c : counterparts.value(n))
      if (!chosen.contains(c)) chosen.append(c);
  if (chosen.isEmpty() && to->selectedNodes().isEmpty()) return;
  following_ = true;
  to->selectNodes(chosen);
  following_ = false;
}

}  // namespace fb::ui
