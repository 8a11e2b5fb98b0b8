#include <iostream>
#include <memory>

#include "commands.h"
#include "formats/model_io.h"
#include "layout/graphviz_render.h"

namespace fb::cli {

void registerRender(CLI::App& app, Runner& run) {
  struct Opts {
    std::string model;
    std::string output;
    bool horizontal = false;
    bool initializers = false;
    size_t maxBoxes = 2500;
  };
  auto opts = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("render", "Draw a model's graph to SVG, PNG or DOT (Graphviz; blocks by name scope)");
  sub->add_option("MODEL", opts->model, "model file (.onnx)")->required();
  sub->add_option("-o,--output", opts->output, "picture to write: .svg, .png or .dot")->required();
  sub->add_flag("--horizontal", opts->horizontal, "rank direction left to right");
  sub->add_flag("--initializers", opts->initializers, "draw initializers (weights) as boxes");
  sub->add_option("--max-boxes", opts->maxBoxes, "expand name-scope blocks while at most this many boxes show")
      ->capture_default_str();
  sub->callback([&run, opts] {
    run = [opts] {
      currentInput() = opts->model;
      auto model = loadModel(opts->model);
      layout::RenderOptions ro;
      ro.layout.leftToRight = opts->horizontal;
      ro.layout.showInitializers = opts->initializers;
      ro.maxVisibleBoxes = opts->maxBoxes;
      currentStep() = "drawing " + opts->output;
      auto report = layout::renderModel(*model, opts->output, ro);
      std::cout << opts->output << ": " << report.items << " boxes, " << report.edges << " edges\n";
      return kOk;
    };
  });
}

}  // namespace fb::cli
