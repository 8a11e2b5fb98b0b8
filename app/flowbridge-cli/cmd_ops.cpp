#include <iomanip>
#include <iostream>
#include <memory>

#include "commands.h"
#include "codegen/code_generator.h"
#include "convert/convert_report.h"

namespace fb::cli {

void registerOps(CLI::App& app, Runner& run) {
  struct Opts {
    std::optional<int64_t> opset;
    std::string direction = "onnx";
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("ops", "Print the conversion handler table (per op, the opsets each handler targets)");
  sub->add_option("--opset", o->opset, "only the handlers this target opset selects")->check(CLI::Range(1, 17));
  sub->add_option("--direction", o->direction, "handler registry: onnx, oneflow, onnx-pytorch or onnx-oneflow")
      ->check(CLI::IsMember({"onnx", "oneflow", "onnx-pytorch", "onnx-oneflow", "onnx-python"}));
  sub->add_flag("--json", o->json, "print JSON");
  sub->callback([&run, o] {
    run = [o] {
      // ONNX -> Python: one registry writes both flavours; the opset selects by the source model's opset.
      const bool code = o->direction.rfind("onnx-", 0) == 0;
      if (code) codegen::registerCodegenHandlers();
      auto table = convert::handlerTableJson(code ? codegen::kPythonDirection : o->direction, o->opset);
      table["direction"] = o->direction;
      if (o->json) {
        std::cout << table.dump(1) << "\n";
        return int(kOk);
      }
      std::cout << "direction " << o->direction << (o->opset ? ", target opset " + std::to_string(*o->opset) : "") << "\n";
      std::cout << std::left << std::setw(22) << "op" << std::setw(7) << "since" << "description\n";
      for (const auto& h : table["handlers"]) {
        std::string op = h.value("domain", "").empty() ? h["op_type"].get<std::string>()
                                                     : h["domain"].get<std::string>() + "::" + h["op_type"].get<std::string>();
        std::cout << std::setw(22) << op << std::setw(7) << h["since_version"].get<int64_t>()
                  << h["description"].get<std::string>() << "\n";
      }
      std::cout << "Ops not listed keep their node when the target opset's schema accepts it as it is.\n";
      return int(kOk);
    };
  });
}

}  // namespace fb::cli
