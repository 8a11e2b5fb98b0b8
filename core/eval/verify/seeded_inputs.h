#pragma once
// Inputs for a run nobody gave values for: random values of the declared types, from a fixed seed, so that `run`,
// `convert --verify` and `compare` are repeatable and two models (a source and its conversion) see the same inputs.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/runtime/value.h"
#include "ir/model.h"

namespace fb::eval {

struct SeededInputs {
  std::map<std::string, Value> values;  // every graph input the run needs, the given ones included
  // How symbolic or unknown dims were sized ("input 'x': dim 'batch' = 1 (not given with --dims)"), one per dim.
  std::vector<std::string> notes;
};

// Values for every graph input of `m` that has no initializer: the `given` value where there is one (checked
// against the declared type), else random values in the declared shape (floating point uniform in [-1, 1),
// integers 1-3 as the corpus's counts and lengths want, bools half true). A symbolic dim takes its value from
// `dims`, else 1; an unknown dim 1. The same seed, types and dims give the same values on every machine. Throws
// RunError(BadInput) naming the input when it cannot be made (no declared rank, a sequence or string input not
// given) or a given value does not fit, and InputError-free: file reading is the caller's.
SeededInputs makeInputs(const ir::Model& m, const std::map<std::string, Value>& given,
                        const std::map<std::string, int64_t>& dims, uint64_t seed);

// The names of the inputs a run of `m` needs (graph inputs without an initializer), in graph order.
std::vector<std::string> requiredInputs(const ir::Model& m);

}  // namespace fb::eval
