#pragma once
// Ties the source graph and the converted preview together: selecting nodes on one side selects their
// counterparts on the other. A preview node's counterparts are the source nodes its provenance names
// (its `origins`, or its own id when it was kept as it was); the preview document holds the converted
// model as reloaded from disk, whose nodes pair up by position with the controller's converted model.
#include <QHash>
#include <QList>
#include <QObject>

namespace fb::ir {
class Node;
}

namespace fb::ui {

class ConversionController;
class Document;

class PreviewLink : public QObject {
  Q_OBJECT
 public:
  PreviewLink(Document* source, Document* preview, ConversionController* controller, QObject* parent = nullptr);

  QList<const ir::Node*> sourcesOf(const ir::Node* previewNode) const { return sourcesOf_.value(previewNode); }
  QList<const ir::Node*> previewsOf(const ir::Node* sourceNode) const { return previewsOf_.value(sourceNode); }

 private:
  void rebuild();
  void follow(Document* from, Document* to, const QHash<const ir::Node*, QList<const ir::Node*>>& counterparts);

  Document* source_;
  Document* preview_;
  ConversionController* controller_;
  QHash<const ir::Node*, QList<const ir::Node*>> sourcesOf_;
  QHash<const ir::Node*, QList<const ir::Node*>> previewsOf_;
  bool following_ = false;
};

}  // namespace fb::ui
