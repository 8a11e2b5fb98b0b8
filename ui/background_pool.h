#pragma once
// The threads that run long model work off the UI thread: loading, shape inference, conversions, exports.
// Not QThreadPool::globalInstance(): Qt's raster paint engine splits large fills across the global pool and
// waits for it, so a first frame painted while a 100k-node inference held both global threads waited seconds.
class QThreadPool;

namespace fb::ui {

QThreadPool* backgroundPool();

}  // namespace fb::ui
