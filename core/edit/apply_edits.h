#pragma once
// Checking and applying edits through the registry: the entry points the CLI and the app call.
#include <optional>
#include <string>
#include <vector>

#include "check/onnx_check.h"
#include "edit/edit.h"
#include "ir/model.h"

namespace fb::edit {

// Why `e` does not apply to `m` (unknown verb, a missing or unknown argument, the verb's own reasons), or
// nullopt. Never changes `m`.
std::optional<std::string> checkEdit(const ir::Model& m, const Edit& e);

// Applies one edit, or throws EditError and leaves `m` as it was.
Applied applyEdit(ir::Model& m, const Edit& e);

// Applies the edits in order, all or nothing: when one does not apply, those applied before it are reverted
// (newest first) and an EditError is thrown whose line starts with "edit K: " (1-based).
std::vector<Applied> applyEdits(ir::Model& m, const std::vector<Edit>& edits);

// Reverts applied edits newest first (the inverse of applyEdits).
void revertEdits(ir::Model& m, std::vector<Applied>& applied);

// FlowBridge's structural check of an edited model: libonnx's checker and strict shape inference up to opset 17,
// the own structure check for opsets 18-26 (what `convert` and `extract` check their results with).
CheckResult checkEditedModel(const ir::Model& m);

}  // namespace fb::edit
