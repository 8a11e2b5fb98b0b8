#pragma once
// The conversion report as JSON (flowbridge-cli convert --report, check --json): per-node status and
// message, counts per op type, per-pass time and nodes removed/added, op counts before and after, times. And the
// same report's problems as terminal lines, for conversions and code generation alike.
#include <nlohmann/json.hpp>

#include "convert/converter.h"
#include "convert/handler_registry.h"

namespace fb::convert {

nlohmann::json reportJson(const ConvertResult& r, const std::string& sourcePath = {});
// The handler table of a direction; with `opset`, only the handlers that opset selects.
nlohmann::json handlerTableJson(const std::string& direction, std::optional<int64_t> opset);

// The lines below are escaped for a terminal (util/printable.h: control characters, bidi controls and bytes that are
// not UTF-8 in names and messages cannot disturb it). A node's line ends in " [lowest opset with a conversion: N]"
// when the conversion found one.
// What keeps a conversion from being complete, as flowbridge-cli reports it on stderr after "flowbridge-cli: ":
// per unsupported or failed node "<file>: node <name> (<op>): <status>: <message>", then per message of the
// result's check "<file>: check: <node>: <message>", then the whole-model error "<file>: <error>".
std::vector<std::string> problemLines(const ConvertResult& r, const std::string& file);
// A check's messages (checkModel, the structural check above opset 17): "<file>: <what>: <node>: <message>".
std::vector<std::string> checkLines(const CheckResult& check, const std::string& file, const std::string& what);
// The unsupported and failed nodes of a dry run, as flowbridge-cli check lists them under the counts:
// "<status>: <name> (<op>): <message>".
std::vector<std::string> unconvertedNodeLines(const ConvertResult& r);

}  // namespace fb::convert
