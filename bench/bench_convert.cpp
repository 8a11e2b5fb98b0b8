// Conversion benchmark: per corpus model and target opset, the dry run (statuses only) and the whole
// conversion without file I/O (handlers, default passes, checker + strict shape inference; the passes' and
// the check's share of the last run are printed too). Median of runs.
// Targets: dry run <= 50 ms per 1,000 nodes, whole conversion <= 100 ms per model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "convert/converter.h"
#include "formats/model_io.h"
#include "median_time.h"

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : "../shared/corpus/models";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".onnx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::printf("%-36s %6s %6s %9s %9s %12s %10s %10s %9s %8s\n", "model", "nodes", "opset", "dry ms", "warm ms",
              "warm ms/1000", "total ms", "passes ms", "check ms", "result");
  double worstDryPer1000 = 0, worstTotal = 0, worstCold = 0;
  for (const auto& f : files) {
    auto model = fb::loadModel(f.string());
    size_t nodes = model->graph().totalNodeCount();
    auto facts = std::make_shared<const fb::schema::ShapeFacts>(fb::schema::inferShapeFacts(*model));
    for (int64_t target : {9, 11, 13, 17}) {
      fb::convert::ConvertOptions opts;
      opts.targetOpset = target;
      // Cold: shape facts computed inside when a handler needs them. Warm: the app keeps them per model.
      double cold = medianMs(9, [&] { fb::convert::dryRun(*model, opts); });
      fb::convert::ConvertOptions warmOpts = opts;
      warmOpts.facts = facts;
      double dry = medianMs(9, [&] { fb::convert::dryRun(*model, warmOpts); });
      bool complete = false;
      double passesMs = 0, checkMs = 0;
      double total = medianMs(5, [&] {
        auto r = fb::convert::convertModel(*model, opts);
        complete = r.complete();
        passesMs = r.passesMs;
        checkMs = r.checkMs;
      });
      double per1000 = dry * 1000.0 / static_cast<double>(std::max<size_t>(nodes, 1));
      worstDryPer1000 = std::max(worstDryPer1000, per1000);
      worstTotal = std::max(worstTotal, total);
      worstCold = std::max(worstCold, cold);
      std::printf("%-36s %6zu %6lld %9.2f %9.2f %12.2f %10.1f %10.1f %9.1f %8s\n", f.filename().c_str(), nodes,
                  static_cast<long long>(target), cold, dry, per1000, total, passesMs, checkMs,
                  complete ? "ok" : "INCOMPLETE");
    }
  }
  std::printf(
      "worst dry run: %.2f ms per 1000 nodes with the model's shape facts kept (target <= 50), %.1f ms cold;"
      " worst whole conversion: %.1f ms (target <= 100)\n",
      worstDryPer1000, worstCold, worstTotal);
  return 0;
}
