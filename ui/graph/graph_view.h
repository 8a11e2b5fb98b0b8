#pragma once
// The view on a GraphScene: drag to pan, wheel and Ctrl+= / Ctrl+- to zoom, Ctrl+0 to fit (never beyond 100 %);
// zooming out stops at the fitted view. Keys: with a selection the arrow keys move it along edges (without one they
// pan), Enter expands a block or opens a body, Backspace goes up the breadcrumb. A click on empty canvas or Esc
// clears the selection.
// Zoomed far out, where thousands of items are in view, the scene is painted once into an overview pixmap
// at the current zoom and panning only copies from it; the pixmap is redrawn when the zoom or the scene
// changes. Antialiasing is off there too: it costs most and shows least.
#include <QGraphicsView>
#include <QPixmap>

namespace fb::ir {
class Node;
}

namespace fb::ui {

class GraphScene;

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);
  // Scales by `factor`; zooming out goes no further than fittedZoom().
  void zoomBy(double factor);
  // The zoom at which the whole scene fits the view (at most kMaxFitZoom): the floor of zooming out.
  double fittedZoom() const;
  void fitAll();
  // The first view of a new graph: fitted when that stays readable, else its inputs at a zoom where node
  // names and shapes show.
  void showStart();
  static constexpr double kReadableZoom = 0.8;
  static constexpr double kMaxFitZoom = 1.0;
  static constexpr double kOverviewZoom = 0.3;
  bool overviewActive() const { return !overview_.isNull(); }
  void centerOnNode(const ir::Node* n);
  double zoom() const { return transform().m11(); }

 signals:
  void zoomChanged(double zoom);

 protected:
  bool event(QEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void paintEvent(QPaintEvent* event) override;

 private:
  void updateRenderHints();
  bool ensureOverview();
  GraphScene* graphScene_;
  QPixmap overview_;
  double overviewZoom_ = 0;
  bool overviewStale_ = true;
  QPoint pressedAt_;
  bool pressedOnEmpty_ = false;
};

}  // namespace fb::ui
