#pragma once
// Pan and zoom of the two views of a comparison follow each other through the pairs: when one view moves, the node
// nearest its centre has its counterpart put at the centre of the other view, at the same zoom. The graphs are laid
// out on their own, so the views follow a node, not a position.
#include <QObject>
#include <QTimer>

namespace fb::ui {

class CompareController;
class GraphView;

class CompareViewSync : public QObject {
  Q_OBJECT
 public:
  CompareViewSync(CompareController* controller, GraphView* a, GraphView* b, QObject* parent = nullptr);
  void setEnabled(bool on) { enabled_ = on; }
  bool isEnabled() const { return enabled_; }
  // Brings `to` where `from` is (what the timers do a moment after a view moved).
  void follow(GraphView* from, GraphView* to);

 private:
  void watch(GraphView* view, QTimer* timer, bool* suppressed, QTimer* other);

  CompareController* controller_;
  GraphView* a_;
  GraphView* b_;
  QTimer timerA_, timerB_;                      // a pan is many scroll steps: follow once it rests
  bool suppressA_ = false, suppressB_ = false;  // the view is being moved by the other
  bool enabled_ = true;
};

}  // namespace fb::ui
