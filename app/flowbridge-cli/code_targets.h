#pragma once
// `convert --to pytorch|oneflow` and `check --to ...`: ONNX -> Python code, through the same statuses and
// report as the ONNX conversions.
#include <string>

#include "conversion_verify.h"

namespace fb::cli {

struct CodeTargetOptions {
  std::string input, outDir, to, report;
  bool continueOnError = false, json = false;
  VerifyOptions verify;  // convert --to ... --verify: run.py against the evaluator where the library imports
};

int convertToCode(const CodeTargetOptions& o);
int checkToCode(const CodeTargetOptions& o);

}  // namespace fb::cli
