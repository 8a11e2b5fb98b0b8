#include "ui/preview/preview_link.h"
#include "ui/model_readers.h"

#include <QFutureWatcher>
#include <QtConcurrent>

#include "ir/graph.h"
#include "ir/model.h"
#include "ui/background_pool.h"
#include "ui/document.h"

namespace fb::ui {
PreviewLink::PreviewLink(Document* source, Document* preview, QObject* parent)
    : QObject(parent), source_(source), preview_(preview) {
  connect(preview_, &Document::modelChanged, this, &PreviewLink::rebuild);
  // A preview belongs to the source model it was converted from: another source model drops the pairs (and the
  // conversion docks close the preview) until the next preview is shown.
  connect(source_, &Document::modelChanged, this, [this] {
    ++generation_;
    pending_ = false;
    sourcesOf_.clear();
    previewsOf_.clear();
  });
  connect(source_, &Document::selectionChanged, this, [this] { follow(source_, preview_, previewsOf_); });
  connect(preview_, &Document::selectionChanged, this, [this] { follow(preview_, source_, sourcesOf_); });
}

void PreviewLink::rebuild() {
  const quint64 generation = ++generation_;
  pending_ = false;
  sourcesOf_.clear();
  previewsOf_.clear();
  // The worker holds both models and the source's node index: either document may move on meanwhile.
  std::shared_ptr<const ir::Model> shown = preview_->loaded().model;
  std::shared_ptr<const ir::Model> source = source_->loaded().model;
  std::shared_ptr<const NodeIndex> sourceNodes = source_->loaded().nodes;
  if (!shown || !source || !sourceNodes) return;
  struct Made {
    Pairs sourcesOf, previewsOf;
  };
  auto future = QtConcurrent::run(backgroundPool(), [shown, source, sourceNodes] {
    Made out;
    auto pair = [&](const ir::Graph& g, auto& self) -> void {
      for (const auto& n : g.nodes()) {
        const ir::Node* previewNode = n.get();
        auto link = [&](uint64_t id) {
          auto it = sourceNodes->find(id);
          if (it == sourceNodes->end()) return;
          const ir::Node* src = it->second;
          QList<const ir::Node*>& sources = out.sourcesOf[previewNode];
          if (sources.contains(src)) return;
          sources.append(src);
          out.previewsOf[src].append(previewNode);
        };
        if (n->origins.empty()) link(n->id());
        for (uint64_t id : n->origins) link(id);
        for (const ir::Graph* sub : n->subgraphs()) self(*sub, self);
      }
    };
    pair(shown->graph(), pair);
    return out;
  });
  addModelReader(source_, QFuture<void>(future));  // it reads the model: an edit waits for it
  pending_ = true;
  auto* watcher = new QFutureWatcher<Made>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != generation_) return;
    pending_ = false;
    Made made = watcher->result();
    sourcesOf_ = std::move(made.sourcesOf);
    previewsOf_ = std::move(made.previewsOf);
    emit paired();
  });
  watcher->setFuture(future);
}

void PreviewLink::follow(Document* from, Document* to, const Pairs& counterparts) {
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
