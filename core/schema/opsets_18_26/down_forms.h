#pragma once
// What opset 17 can express of each op version of opsets 18-26: the facts behind the converter's step down to 17
// (convert/onnx_onnx/opset18_down), the opset-17 view libonnx's inference runs on, and `flowbridge-cli ops`.
#include <map>
#include <optional>
#include <string>

namespace fb::schema::opsets_18_26 {

// Converted by an adapter (exactly, or refused case by case with the reason), the opset-17 schema as it is (a
// version that only widened types), or refused as a whole.
struct DownForm {
  enum class Kind { Adapter, SameAs17, Refused } kind;
  std::string text;  // one line for reports and the README table
};

// The form of one op version (since-version `since`); nullopt: not in the table of opsets 18-26, or not planned
// (a gap the tests catch).
std::optional<DownForm> downForm(const std::string& op, int64_t since);

// The per-op rows behind downForm: ops whose change after 17 needs an adapter or is refused. The converter has
// one rewrite for each Adapter row (checked by test_schema_opsets_18_26).
const std::map<std::string, DownForm>& opsChangedAfter17();

}  // namespace fb::schema::opsets_18_26
