#pragma once
// The conversion report as JSON (flowbridge-cli convert --report, check --json): per-node status and
// message, counts per op type, per-pass time and nodes removed/added, op counts before and after, times.
#include <nlohmann/json.hpp>

#include "convert/converter.h"
#include "convert/handler_registry.h"

namespace fb::convert {

nlohmann::json reportJson(const ConvertResult& r, const std::string& sourcePath = {});
// The handler table of a direction; with `opset`, only the handlers that opset selects.
nlohmann::json handlerTableJson(const std::string& direction, std::optional<int64_t> opset);

}  // namespace fb::convert
