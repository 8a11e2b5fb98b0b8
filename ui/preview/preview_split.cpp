#include "ui/preview/preview_split.h"

#include <QEvent>
#include <QTimer>

#include "ui/graph/graph_view.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/tensor_panel.h"

namespace fb::ui {

PreviewSplit::PreviewSplit(GraphView* source, QWidget* parent) : QSplitter(Qt::Horizontal, parent), source_(source) {
  setChildrenCollapsible(false);
  addWidget(source_);
  source_->installEventFilter(this);
}

void PreviewSplit::setPreviewPane(QWidget* pane, GraphView* previewView) {
  // The preview's document is named by linkNodePanel (the conversion docks are built before the panel is linked).
  Document* doc = panes_.isEmpty() ? nullptr : panes_.first().doc;
  panes_.prepend({pane, previewView, doc});
  addWidget(pane);
  for (int i = 0; i < count(); ++i) setStretchFactor(i, 1);
  pane->installEventFilter(this);
  previewView->installEventFilter(this);
}

void PreviewSplit::addPane(QWidget* pane, GraphView* view, Document* doc) {
  panes_.append({pane, view, doc});
  addWidget(pane);
  for (int i = 0; i < count(); ++i) setStretchFactor(i, 1);
  pane->installEventFilter(this);
  view->installEventFilter(this);
}

void PreviewSplit::linkNodePanel(NodePanel* panel, Document* source, Document* preview) {
  panel_ = panel;
  sourceDoc_ = source;
  if (!panes_.isEmpty()) panes_.first().doc = preview;
}

void PreviewSplit::showDocument(Document* doc) {
  panel_->setDocument(doc);
  if (tensorPanel_) tensorPanel_->setDocument(doc);
}

GraphView* PreviewSplit::shownView() const {
  for (const Pane& p : panes_)
    if (p.pane->isVisible()) return p.view;
  return nullptr;
}

void PreviewSplit::fitBoth() {
  source_->fitAll();
  if (GraphView* v = shownView()) v->fitAll();
}

bool PreviewSplit::eventFilter(QObject* watched, QEvent* event) {
  for (const Pane& p : panes_) {
    if (watched == p.pane && event->type() == QEvent::Show) {
      // One second graph at a time: the others make way.
      for (const Pane& other : panes_)
        if (other.pane != p.pane && other.pane->isVisible()) other.pane->hide();
      // Once the splitter has made room for the pane (after this event), share the width equally.
      QTimer::singleShot(0, this, [this, pane = p.pane] {
        const int half = std::max(1, (width() - handleWidth()) / 2);
        QList<int> sizes;
        for (int i = 0; i < count(); ++i) sizes << (i == 0 || widget(i) == pane ? half : 0);
        setSizes(sizes);
        emit previewShown();
      });
    } else if (watched == p.pane && event->type() == QEvent::Hide) {
      // The source view takes the whole width again; the Node panel goes back to it.
      if (panel_ && sourceDoc_ && panel_->document() == p.doc) showDocument(sourceDoc_);
    } else if (watched == p.view && event->type() == QEvent::FocusIn && panel_ && p.doc) {
      showDocument(p.doc);
    }
  }
  if (watched == source_ && event->type() == QEvent::FocusIn && panel_ && sourceDoc_) showDocument(sourceDoc_);
  return QSplitter::eventFilter(watched, event);
}

}  // namespace fb::ui
