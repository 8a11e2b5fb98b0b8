// The first use of the pass registry may come from several threads at once (the desktop app converts in
// the background while the UI lists passes): registration must happen exactly once, and every thread must
// see the whole table. Its own executable, so nothing has touched the registry before.
#include <QtTest>

#include <atomic>
#include <set>
#include <thread>

#include "passes/pass_manager.h"
#include "passes/pass_registry.h"

using namespace fb;

class PassRegistryThreads : public QObject {
  Q_OBJECT
 private slots:
  void concurrentFirstUse();
};

void PassRegistryThreads::concurrentFirstUse() {
  constexpr int kThreads = 8;
  std::atomic<int> ready{0};
  std::vector<size_t> seen(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ++ready;
      while (ready.load() < kThreads) std::this_thread::yield();
      // half the threads go through the manager, half through the registry directly
      if (t % 2) passes::PassManager pm({"eliminate_identity"});
      seen[t] = passes::PassRegistry::instance().defaultPipeline().size();
    });
  for (auto& th : threads) th.join();
  const size_t total = passes::PassRegistry::instance().all().size();
  QVERIFY(total >= 22);
  for (size_t s : seen) QCOMPARE(s, passes::PassRegistry::instance().defaultPipeline().size());
  // names are unique
  std::set<std::string> names;
  for (const auto& p : passes::PassRegistry::instance().all()) QVERIFY(names.insert(p.name).second);
}

QTEST_GUILESS_MAIN(PassRegistryThreads)
#include "test_passes_registry_threads.moc"
