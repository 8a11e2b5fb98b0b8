#pragma once
// Hooks that exist only in the test build of the CLI (the target flowbridge-cli-test-hooks, which the tests run):
// the shipped flowbridge-cli links an empty installCliTestHooks().
//
// FLOWBRIDGE_TEST_BREAK_HANDLER=OP makes the ONNX -> ONNX conversion of every OP node wrong on purpose (the node
// becomes Add(x, x) of its first input, under its own name and provenance), so that the tests can show that
// `convert --verify` catches a wrong conversion and `compare` names the node.
namespace fb::cli {
void installCliTestHooks();
}  // namespace fb::cli
