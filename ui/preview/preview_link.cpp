#include "ui/preview/preview_link.h"

#include <functional>

#include "ir/graph.h"
#include "ir/model.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/document.h"

namespace fb::ui {

PreviewLink::PreviewLink(Document* source, Document* preview, ConversionController* controller, QObject* parent)
    : QObject(parent), source_(source), preview_(preview), controller_(controller) {
  connect(preview_, &Document::modelChanged, this, &PreviewLink::rebuild);
  connect(source_, &Document::modelChanged, this, &PreviewLink::rebuild);
  connect(source_, &Document::selectionChanged, this, [this] { follow(source_, preview_, previewsOf_); });
  connect(preview_, &Document::selectionChanged, this, [this] { follow(preview_, source_, sourcesOf_); });
}

void PreviewLink::rebuild() {
  sourcesOf_.clear();
  previewsOf_.clear();
  const ir::Model* shown = preview_->model();
  const auto converted = controller_->convertedModel();
  if (!shown || !converted || !source_->model()) return;
  std::function<void(const ir::Graph&, const ir::Graph&)> pair = [&](const ir::Graph& conv, const ir::Graph& seen) {
    if (conv.nodeCount() != seen.nodeCount()) return;
    auto a = conv.nodes().begin();
    for (auto b = seen.nodes().begin(); b != seen.nodes().end(); ++a, ++b) {
      const ir::Node* previewNode = b->get();
      std::vector<uint64_t> ids = (*a)->origins;
      if (ids.empty()) ids.push_back((*a)->id());
      for (uint64_t id : ids)
        if (const ir::Node* src = source_->findNode(id)) {
          sourcesOf_[previewNode].append(src);
          previewsOf_[src].append(previewNode);
        }
      auto subA = (*a)->subgraphs(), subB = (*b)->subgraphs();
      for (size_t i = 0; i < subA.size() && i < subB.size(); ++i) pair(*subA[i], *subB[i]);
    }
  };
  pair(converted->graph(), shown->graph());
}

void PreviewLink::follow(Document* from, Document* to, const QHash<const ir::Node*, QList<const ir::Node*>>& counterparts) {
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
