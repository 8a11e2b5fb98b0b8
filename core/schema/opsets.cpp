#include "schema/opsets.h"

namespace fb::schema {

int64_t irVersionForOpset(int64_t opset) {
  // onnx/helper.py's VERSION_TABLE: the IR version each release paired with its opset.
  if (opset <= 8) return 3;
  if (opset == 9) return 4;
  if (opset == 10) return 5;
  if (opset == 11) return 6;
  if (opset <= 14) return 7;
  if (opset <= 18) return 8;
  if (opset <= 20) return 9;
  if (opset <= 22) return 10;
  if (opset == 23) return 11;
  if (opset == 24) return 12;
  return 13;
}

}  // namespace fb::schema
