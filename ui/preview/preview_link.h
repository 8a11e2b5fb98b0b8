#pragma once
// Ties the source graph and the converted preview together: selecting nodes on one side selects their
// counterparts on the other. The preview document shows the converted model itself, whose nodes carry the
// conversion's provenance: a preview node's counterparts are the source nodes its `origins` name (its own id when
// it has none: a node kept as it was keeps its id). Nodes that passes removed or fused pair all the same: a Conv
// that took in a BatchNormalization names both, whatever the node counts on either side.
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

 private:
  void rebuild();
  void follow(Document* from, Document* to, const QHash<const ir::Node*, QList<const ir::Node*>>& counterparts);

  Document* source_;
  Document* preview_;
  QHash<const ir::Node*, QList<const ir::Node*>> sourcesOf_;
  QHash<const ir::Node*, QList<const ir::Node*>> previewsOf_;
  bool following_ = false;
};

}  // namespace fb::ui
