// ONNX -> Python code generation: per corpus model and flavour, generating model.py and run.py without
// file I/O (shape facts computed once per model and kept, as the app and a batch run do), and writing the
// whole folder (weights included) with the write rate. Median of runs.
// Target: code generation for the largest corpus model under 100 ms without I/O; weights at disk speed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "codegen/code_generator.h"
#include "schema/shape_facts.h"
#include "formats/model_io.h"
#include "median_time.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::string dir = argc > 1 ? argv[1] : "../shared/corpus/models";
  fs::path tmp = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "fb-bench-codegen";
  fs::create_directories(tmp);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".onnx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::printf("%-36s %6s %8s %10s %10s %10s %10s %9s\n", "model", "nodes", "flavour", "facts ms", "codegen ms",
              "write ms", "weights MB", "MB/s");
  double worst = 0;
  for (const auto& f : files) {
    auto model = fb::loadModel(f.string());
    auto facts = std::make_shared<const fb::schema::ShapeFacts>(fb::schema::inferShapeFacts(*model));
    const double factsMs = medianMs(3, [&] { fb::schema::inferShapeFacts(*model); });
    for (auto flavour : {fb::codegen::Flavour::PyTorch, fb::codegen::Flavour::OneFlow}) {
      fb::codegen::CodegenOptions opts;
      opts.flavour = flavour;
      opts.facts = facts;
      fb::codegen::CodegenResult r;
      const double genMs = medianMs(7, [&] { r = fb::codegen::generatePython(*model, opts); });
      if (!r.complete()) {
        std::printf("%-36s %6zu %8s  not convertible\n", f.filename().c_str(), model->graph().totalNodeCount(),
                    std::string(fb::codegen::flavourName(flavour)).c_str());
        continue;
      }
      double bytes = 0;
      for (const auto& w : r.code->weights) bytes += static_cast<double>(w.tensor.bytes().size());
      const fs::path out = tmp / (f.stem().string() + "_" + std::string(fb::codegen::flavourName(flavour)));
      const double writeMs = medianMs(3, [&] { fb::codegen::writeGeneratedFolder(*r.code, flavour, out.string()); });
      worst = std::max(worst, genMs);
      std::printf("%-36s %6zu %8s %10.1f %10.1f %10.1f %10.1f %9.0f\n", f.filename().c_str(),
                  model->graph().totalNodeCount(), std::string(fb::codegen::flavourName(flavour)).c_str(), factsMs,
                  genMs, writeMs, bytes / 1e6, bytes / 1e6 / (writeMs / 1000));
    }
  }
  std::printf("worst code generation: %.1f ms (target 100 ms)\n", worst);
  fs::remove_all(tmp);
  return 0;
}
