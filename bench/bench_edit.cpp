// Edits and their undo records (issue 28): 1,000 edits applied one after another to the synthetic 100k-node
// residual network (residual_model.h) and to swin_t when its export is given, then all undone. Prints the time per
// edit (the verb's check against the model + the change), the memory the undo records report and the resident
// memory they added, the time per undo, and the structural check of the edited model once (the revalidation).
// Then 1,000 set-attr edits (a Conv's dilations, the value it has): their undo records against the model's size.
// Usage: bench_edit [SWIN_T.onnx]   (make it with ../shared/corpus/make_corpus.py --one swin_t 17)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "edit/apply_edits.h"
#include "formats/model_io.h"
#include "ir/model.h"
#include "residual_model.h"
#include "edit_series.h"
#include "resident_memory.h"

using namespace fb;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

void measure(const char* label, ir::Model& m) {
  const size_t nodes = m.graph().nodeCount();
  const auto edits = editSeries(m, 1000);
  // The first lookup builds the name index (edit/node_index.h): timed apart from the edits.
  const long rssBefore = rssKb();
  const auto tIndex = Clock::now();
  (void)edit::checkEdit(m, edits.front());
  std::printf("%-22s first lookup (builds the node index): %.0f ms, RSS +%ld KB\n", label, msSince(tIndex),
              rssKb() - rssBefore);
  const long rss0 = rssKb();
  // One at a time, timed per verb (applyEdits would do the same, without the clock).
  std::map<std::string, std::pair<double, size_t>> perVerb;
  std::vector<edit::Applied> applied;
  auto t0 = Clock::now();
  for (const auto& e : edits) {
    const auto t = Clock::now();
    applied.push_back(edit::applyEdit(m, e));
    auto& [ms, n] = perVerb[e.verb];
    ms += msSince(t);
    ++n;
  }
  const double applyMs = msSince(t0);
  const long rss1 = rssKb();
  size_t undoBytes = 0;
  for (const auto& a : applied) undoBytes += a.undo.bytes;
  t0 = Clock::now();
  const CheckResult check = edit::checkEditedModel(m);
  const double checkMs = msSince(t0);
  t0 = Clock::now();
  edit::revertEdits(m, applied);
  const double undoMs = msSince(t0);
  std::printf(
      "%-22s %7zu nodes  %zu edits: %.3f ms/edit (check + change), undo records %.1f KB (%.0f B/edit), "
      "RSS +%ld KB; undo %.3f ms/edit; structural check of the result %.0f ms (%s); nodes after undo %zu\n",
      label, nodes, edits.size(), applyMs / double(edits.size()), double(undoBytes) / 1024.0,
      double(undoBytes) / double(edits.size()), rss1 - rss0, undoMs / double(edits.size()), checkMs,
      check.ok ? "ok" : "FAILED", m.graph().nodeCount());
  for (const auto& [verb, t] : perVerb)
    std::printf("    %-12s %.3f ms/edit\n", verb.c_str(), t.first / double(t.second));
}

// 1,000 set-attr edits over the Conv nodes: what their undo records hold against what the model holds.
void measureSetAttr(const char* label, ir::Model& m) {
  std::vector<std::string> convs;
  for (const auto& n : m.graph().nodes())
    if (n->opType == "Conv" && !n->name.empty() && n->hasAttr("dilations")) convs.push_back(n->name);
  if (convs.empty()) return;
  size_t weights = 0;
  for (const auto& t : m.graph().initializers()) weights += t->expectedBytes();
  std::vector<edit::Edit> edits;
  for (size_t i = 0; i < 1000; ++i)
    edits.push_back(
        edit::Edit{"set-attr", {{"node", convs[i % convs.size()]}, {"name", "dilations"}, {"value", "1,1"}}});
  std::vector<edit::Applied> applied;
  applied.reserve(edits.size());
  const long rss0 = rssKb();
  const auto t0 = Clock::now();
  for (const auto& e : edits) applied.push_back(edit::applyEdit(m, e));
  const double ms = msSince(t0);
  const long rss1 = rssKb();
  size_t undoBytes = 0;
  for (const auto& a : applied) undoBytes += a.undo.bytes;
  std::printf(
      "%-22s 1000 set-attr edits: %.3f ms/edit, undo records %.1f KB (%.0f B/edit), RSS +%ld KB; "
      "model weights %.1f MB (records / weights %.5f)\n",
      label, ms / 1000.0, double(undoBytes) / 1024.0, double(undoBytes) / 1000.0, rss1 - rss0,
      double(weights) / 1048576.0, double(undoBytes) / double(std::max<size_t>(weights, 1)));
  edit::revertEdits(m, applied);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    {
      ir::Model m;
      bench::buildResidualModel(m, 100000);
      measure("synthetic residual", m);
      measureSetAttr("synthetic residual", m);
    }
    if (argc > 1) {
      auto m = loadModel(argv[1]);
      measure("swin_t", *m);
      measureSetAttr("swin_t", *m);
    } else {
      std::printf("swin_t: not given (bench_edit SWIN_T.onnx; make_corpus.py --one swin_t 17 exports it)\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_edit: %s\n", e.what());
    return 1;
  }
  return 0;
}
