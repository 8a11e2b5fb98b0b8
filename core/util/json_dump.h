#pragma once
// The one way FlowBridge turns JSON into text (stdout, reports, the app's exports): strings from a model file that
// are not valid UTF-8 come out with U+FFFD in place of the bad bytes instead of making the JSON library throw.
#include <string>

#include <nlohmann/json.hpp>

namespace fb {

std::string dumpJson(const nlohmann::json& j, int indent = 1);

}  // namespace fb
