#pragma once
// `convert --verify`: the source and the result run on the same seeded inputs; the largest error per output is
// printed and, when an output is outside the tolerance, the first node where the two part.
#include <cstdint>
#include <map>
#include <string>

#include "eval/verify/value_diff.h"
#include "ir/model.h"

namespace fb::cli {

struct VerifyOptions {
  bool enabled = false;
  int samples = 3;
  uint64_t seed = 1;
  eval::Tolerance tolerance;
  std::map<std::string, int64_t> dims;
  int threads = 0;
};

// Reads the source again from `sourcePath` (the conversion changed the first copy in place) and compares it with
// `result`, which carries its provenance (eval::recordProvenance). Prints to stdout; returns true when every output
// of every sample agrees. RunError when either model cannot run.
bool verifyConversion(const std::string& sourcePath, const ir::Model& result, const VerifyOptions& o);

}  // namespace fb::cli
