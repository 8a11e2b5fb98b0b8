#include <iomanip>
#include <iostream>
#include <memory>

#include "commands.h"
#include "codegen/code_generator.h"
#include "convert/convert_report.h"
#include "schema/opsets_18_26/op_facts.h"
#include "util/json_dump.h"

namespace fb::cli {

void registerOps(CLI::App& app, Runner& run) {
  struct Opts {
    std::optional<int64_t> opset;
    std::string direction = "onnx";
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("ops", "Print the conversion handler table (per op, the opsets each handler targets)");
  sub->add_option("--opset", o->opset, "only the handlers this target opset selects")
      ->check(CLI::Range(int64_t{1}, schema::kNewestOpset));
  sub->add_option("--direction", o->direction, "handler registry: onnx, oneflow, onnx-pytorch or onnx-oneflow")
      ->check(CLI::IsMember({"onnx", "oneflow", "onnx-pytorch", "onnx-oneflow", "onnx-python"}));
  sub->add_flag("--json", o->json, "print JSON");
  sub->callback([&run, o] {
    run = [o] {
      // ONNX -> Python: one registry writes both flavours; the opset selects by the source model's opset.
      const bool code = o->direction.rfind("onnx-", 0) == 0;
      if (o->opset && *o->opset > schema::kLibonnxMaxOpset && o->direction != "onnx") {
        std::cerr << "flowbridge-cli: ops: --opset " << *o->opset << ": direction " << o->direction
                  << " targets opsets up to " << schema::kLibonnxMaxOpset << "\n";
        return int(kUsage);
      }
      if (code) codegen::registerCodegenHandlers();
      auto table = convert::handlerTableJson(code ? codegen::kPythonDirection : o->direction, o->opset);
      table["direction"] = o->direction;
      if (o->json) {
        std::cout << dumpJson(table) << "\n";
        return int(kOk);
      }
      std::cout << "direction " << o->direction << (o->opset ? ", target opset " + std::to_string(*o->opset) : "")
                << "\n";
      std::cout << std::left << std::setw(22) << "op" << std::setw(7) << "since"
                << "description\n";
      for (const auto& h : table["handlers"]) {
        std::string op = h.value("domain", "").empty()
                             ? h["op_type"].get<std::string>()
                             : h["domain"].get<std::string>() + "::" + h["op_type"].get<std::string>();
        std::cout << std::setw(22) << op << std::setw(7) << h["since_version"].get<int64_t>()
                  << h["description"].get<std::string>() << "\n";
      }
      if (o->opset && *o->opset > schema::kLibonnxMaxOpset)
        std::cout << "(target above 17: each node takes its opset-17 form with the handlers above, then steps up)\n";
      std::cout << "Ops not listed keep their node when the target opset's schema accepts it as it is.\n";
      if (table.contains("opsets_18_26")) {
        std::cout << "\nOpsets 18-26 (FlowBridge's own step to and from 17"
                  << (o->opset && *o->opset > schema::kLibonnxMaxOpset
                          ? ", versions opset " + std::to_string(*o->opset) + " selects"
                          : "")
                  << ")\n";
        std::cout << std::setw(22) << "op" << std::setw(7) << "since" << std::setw(17) << "down to 17"
                  << "how\n";
        for (const auto& v : table["opsets_18_26"]) {
          std::cout << std::setw(22) << v["op_type"].get<std::string>() << std::setw(7)
                    << v["since_version"].get<int64_t>() << std::setw(17) << v["down_to_17"]["kind"].get<std::string>()
                    << v["down_to_17"]["how"].get<std::string>() << "\n";
          std::cout << std::setw(46) << ""
                    << "up: " << v["up_from_17"].get<std::string>() << "\n";
        }
      }
      return int(kOk);
    };
  });
}

}  // namespace fb::cli
