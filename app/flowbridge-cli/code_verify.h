#pragma once
// `convert --to pytorch|oneflow --verify`: the generated run.py runs with /usr/bin/python3 on seeded inputs and its
// outputs are compared with the evaluator's outputs of the ONNX source. Where the library does not import, a
// one-line notice says so and nothing is checked.
#include "codegen/code_generator.h"
#include "conversion_verify.h"
#include "ir/model.h"

namespace fb::cli {

enum class CodeVerdict { Agree, Disagree, NotChecked };

// Writes the code into a temporary folder beside `outDir` (removed afterwards), runs it and compares. Prints to
// stdout. RunError when the evaluator cannot run the source; InputError when run.py fails.
CodeVerdict verifyGeneratedCode(const ir::Model& source, const codegen::GeneratedCode& code, codegen::Flavour flavour,
                                const std::string& outDir, const VerifyOptions& o);

}  // namespace fb::cli
