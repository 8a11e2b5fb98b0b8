#include "report_text.h"

#include <iostream>

#include "convert/convert_report.h"
#include "util/printable.h"

namespace fb::cli {

void printProblems(const std::string& file, const convert::ConvertResult& r) {
  for (const auto& line : convert::problemLines(r, file)) std::cerr << "flowbridge-cli: " << line << "\n";
}

void printDryRun(const convert::ConvertResult& r, bool ok) {
  for (const auto& [op, counts] : r.countsByOp()) {
    std::cout << "  " << printable(op) << ":";
    for (const auto& [status, n] : counts) std::cout << " " << status << "=" << n;
    std::cout << "\n";
  }
  for (const auto& line : convert::unconvertedNodeLines(r)) std::cout << "  " << line << "\n";
  std::cout << (ok ? "convertible" : "not convertible") << "\n";
}

}  // namespace fb::cli
