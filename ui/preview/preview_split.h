#pragma once
// The source graph and a second graph side by side (the converted preview, or a model compared with the source):
// two views of equal width, each with its own pan and zoom, "fit both" at one key, and the Node and Tensor panels
// showing the side whose view has focus. Each second graph has a pane of its own; one is shown at a time, none until
// there is something to show.
#include <QList>
#include <QSplitter>

namespace fb::ui {

class Document;
class GraphView;
class NodePanel;
class TensorPanel;

class PreviewSplit : public QSplitter {
  Q_OBJECT
 public:
  explicit PreviewSplit(GraphView* source, QWidget* parent = nullptr);
  // The pane holding the preview (legend and view); shown at half the width whenever it becomes visible.
  void setPreviewPane(QWidget* pane, GraphView* previewView);
  // Another pane beside the source (the compared model), showing `doc`; showing it hides the others.
  void addPane(QWidget* pane, GraphView* view, Document* doc);
  // The Node panel follows the document of the view that last got focus.
  void linkNodePanel(NodePanel* panel, Document* source, Document* preview);
  // The Tensor panel follows it the same way.
  void linkTensorPanel(TensorPanel* panel) { tensorPanel_ = panel; }
  void fitBoth();
  GraphView* sourceView() const { return source_; }
  GraphView* previewView() const { return panes_.isEmpty() ? nullptr : panes_.first().view; }
  // The view of the pane on screen beside the source (nullptr when none is).
  GraphView* shownView() const;

 signals:
  // A pane was shown and given half the width.
  void previewShown();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  struct Pane {
    QWidget* pane;
    GraphView* view;
    Document* doc;
  };
  GraphView* source_;
  QList<Pane> panes_;
  void showDocument(Document* doc);
  NodePanel* panel_ = nullptr;
  TensorPanel* tensorPanel_ = nullptr;
  Document* sourceDoc_ = nullptr;
};

}  // namespace fb::ui
