#pragma once
// The source graph and the converted preview side by side: two views of equal width, each with its own
// pan and zoom, "fit both" at one key, and the Node panel showing the side whose view has focus. The
// preview pane is hidden until there is a preview.
#include <QSplitter>

namespace fb::ui {

class Document;
class GraphView;
class NodePanel;

class PreviewSplit : public QSplitter {
  Q_OBJECT
 public:
  explicit PreviewSplit(GraphView* source, QWidget* parent = nullptr);
  // The pane holding the preview (legend and view); shown at half the width whenever it becomes visible.
  void setPreviewPane(QWidget* pane, GraphView* previewView);
  // The Node panel follows the document of the view that last got focus.
  void linkNodePanel(NodePanel* panel, Document* source, Document* preview);
  void fitBoth();
  GraphView* sourceView() const { return source_; }
  GraphView* previewView() const { return preview_; }

 signals:
  // The preview pane was shown and given half the width.
  void previewShown();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  GraphView* source_;
  GraphView* preview_ = nullptr;
  QWidget* pane_ = nullptr;
  NodePanel* panel_ = nullptr;
  Document* sourceDoc_ = nullptr;
  Document* previewDoc_ = nullptr;
};

}  // namespace fb::ui
