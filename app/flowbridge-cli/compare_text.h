#pragma once
// How `compare` and `convert --verify` report where two models part: the first divergent node as text lines and
// as JSON.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "eval/verify/model_compare.h"

namespace fb::cli {

// "first divergent node: 'B name' (Op; from 'A name' in the source)", both values' statistics and the difference.
void printDivergence(const eval::ComparedValue& c, std::ostream& out);

nlohmann::json comparedJson(const eval::ComparedValue& c);
nlohmann::json comparisonJson(const eval::ModelComparison& cmp, const std::string& a, const std::string& b,
                              const eval::Tolerance& tol);

}  // namespace fb::cli
