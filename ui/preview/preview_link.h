#pragma once
// Ties the source graph and the converted preview together: selecting nodes on one side selects their
// counterparts on the other. The preview document shows the converted model itself, whose nodes carry the
// conversion's provenance: a preview node's counterparts are the source nodes its `origins` name (its own id when
// it has none: a node kept as it was keeps its id). Nodes that passes removed or fused pair all the same: a Conv
// that took in a BatchNormalization names both, whatever the node counts on either side. The pairs are made on a
// worker (0.2 s of the UI thread at 100k nodes); selections follow once they are there.
#include <QHash>
#include <QList>
#include <QObject>

namespace fb::ir {
class Node;
}

namespace fb::ui {

class Document;

class PreviewLink : public QObject {
  Q_OBJECT
 public:
  PreviewLink(Document* source, Document* preview, QObject* parent = nullptr);

  QList<const ir::Node*> sourcesOf(const ir::Node* previewNode) const { return sourcesOf_.value(previewNode); }
  QList<const ir::Node*> previewsOf(const ir::Node* sourceNode) const { return previewsOf_.value(sourceNode); }
  // True from a new preview until its pairs are there.
  bool pairsPending() const { return pending_; }

 signals:
  // The pairs of the preview on screen are there (shortly after it is shown).
  void paired();

 private:
  using Pairs = QHash<const ir::Node*, QList<const ir::Node*>>;
  void rebuild();
  void follow(Document* from, Document* to, const Pairs& counterparts);

  Document* source_;
  Document* preview_;
  Pairs sourcesOf_;
  Pairs previewsOf_;
  bool following_ = false;
  bool pending_ = false;
  quint64 generation_ = 0;  // pairs made for an older preview are dropped when they arrive
};

}  // namespace fb::ui
