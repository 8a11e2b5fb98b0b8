#include "ui/background_pool.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QThreadPool>
#include <algorithm>

namespace fb::ui {

QThreadPool* backgroundPool() {
  // Owned by the application, whose destruction waits for the tasks still running.
  static QPointer<QThreadPool> pool;
  if (!pool) {
    pool = new QThreadPool(QCoreApplication::instance());
    pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
  }
  return pool;
}

}  // namespace fb::ui
