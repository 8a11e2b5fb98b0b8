#pragma once
// For UI tests and benches: the longest time the event loop went without running a 10 ms timer, i.e. the worst
// freeze a user would have felt (no repaint, clicks queued) while it ran.
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>

namespace fb::test {

class EventLoopGapMeter {
 public:
  EventLoopGapMeter() {
    timer_.setInterval(10);
    timer_.setTimerType(Qt::PreciseTimer);
    QObject::connect(&timer_, &QTimer::timeout, [this] { lap(); });
  }
  void start() {
    largestMs_ = 0;
    since_.start();
    timer_.start();
  }
  // Stops and returns the largest gap, the time since the last tick included.
  double stop() {
    lap();
    timer_.stop();
    return largestMs_;
  }
  double largestMs() const { return largestMs_; }

 private:
  void lap() {
    largestMs_ = std::max(largestMs_, double(since_.nsecsElapsed()) / 1e6);
    since_.restart();
  }
  QTimer timer_;
  QElapsedTimer since_;
  double largestMs_ = 0;
};

}  // namespace fb::test
