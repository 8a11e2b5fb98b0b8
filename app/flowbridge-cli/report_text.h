#pragma once
// What `convert` and `check` print about a conversion's nodes, the same for ONNX targets and code targets (the lines
// themselves come from convert/convert_report.h).
#include <string>

#include "convert/converter.h"

namespace fb::cli {

// On stderr, one "flowbridge-cli: <file>: ..." line per node left unsupported or failed, per message of the
// result's check, and for a whole-model error.
void printProblems(const std::string& file, const convert::ConvertResult& r);

// On stdout, below a dry run's first line: per op type its status counts, the nodes left unsupported or failed, and
// the verdict ("convertible" or "not convertible").
void printDryRun(const convert::ConvertResult& r, bool ok);

}  // namespace fb::cli
