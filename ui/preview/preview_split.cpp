#include "ui/preview/preview_split.h"

#include <QEvent>
#include <QTimer>

#include "ui/graph/graph_view.h"
#include "ui/inspector/node_panel.h"

namespace fb::ui {

PreviewSplit::PreviewSplit(GraphView* source, QWidget* parent) : QSplitter(Qt::Horizontal, parent), source_(source) {
  setChildrenCollapsible(false);
  addWidget(source_);
  source_->installEventFilter(this);
}

void PreviewSplit::setPreviewPane(QWidget* pane, GraphView* previewView) {
  pane_ = pane;
  preview_ = previewView;
  addWidget(pane_);
  setStretchFactor(0, 1);
  setStretchFactor(1, 1);
  pane_->installEventFilter(this);
  preview_->installEventFilter(this);
}

void PreviewSplit::linkNodePanel(NodePanel* panel, Document* source, Document* preview) {
  panel_ = panel;
  sourceDoc_ = source;
  previewDoc_ = preview;
}

void PreviewSplit::fitBoth() {
  source_->fitAll();
  if (preview_ && pane_ && pane_->isVisible()) preview_->fitAll();
}

bool PreviewSplit::eventFilter(QObject* watched, QEvent* event) {
  if (watched == pane_ && event->type() == QEvent::Show) {
    // Once the splitter has made room for the pane (after this event), share the width equally.
    QTimer::singleShot(0, this, [this] {
      const int half = std::max(1, (width() - handleWidth()) / 2);
      setSizes({half, half});
      emit previewShown();
    });
  } else if (watched == pane_ && event->type() == QEvent::Hide) {
    // The source view takes the whole width again; the Node panel goes back to it.
    if (panel_ && sourceDoc_) panel_->setDocument(sourceDoc_);
  } else if (event->type() == QEvent::FocusIn && panel_) {
    if (watched == source_ && sourceDoc_) panel_->setDocument(sourceDoc_);
    if (watched == preview_ && previewDoc_) panel_->setDocument(previewDoc_);
  }
  return QSplitter::eventFilter(watched, event);
}

}  // namespace fb::ui
