#include "ui/model_readers.h"

#include <QList>
#include <unordered_map>

namespace fb::ui {

namespace {
std::unordered_map<const QObject*, QList<QFuture<void>>>& readers() {
  static std::unordered_map<const QObject*, QList<QFuture<void>>> byDocument;
  return byDocument;
}
}  // namespace

void addModelReader(const QObject* document, QFuture<void> job) {
  for (auto& [doc, jobs] : readers()) jobs.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
  readers()[document].append(std::move(job));
}

void waitForModelReaders(const QObject* document) {
  auto it = readers().find(document);
  if (it == readers().end()) return;
  const QList<QFuture<void>> jobs = std::move(it->second);
  readers().erase(it);
  // A job's exception was reported by its own watcher.
  for (QFuture<void> f : jobs) {
    try {
      f.waitForFinished();
    } catch (...) {
    }
  }
}

}  // namespace fb::ui
