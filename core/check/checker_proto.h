#pragma once
// What the whole-model check and the windowed check share: the model as libonnx's checker sees it (weights of
// 256 bytes and more as placeholders), and libonnx's exceptions turned into messages.
#include <exception>

#include <onnx/onnx_pb.h>

#include "check/onnx_check.h"
#include "formats/onnx/onnx_proto_export.h"
#include "util/failure_text.h"

namespace fb::checker_proto {

// For exportModel & co: marks the weights that go to the checker without their bytes.
bool markPlaceholder(const ir::Tensor& t, ir::ExternalRef& ref);
// Turns the marked tensors of a graph (and of the model's functions) into placeholders the checker accepts.
void replaceMarked(onnx::GraphProto& g);
void replaceMarked(onnx::ModelProto& p);

// The whole model, weights as placeholders.
void toProto(const ir::Model& m, onnx::ModelProto& p);

CheckMessage messageFrom(const std::exception& e);

// libonnx's checker on `p`, then (only on what it accepted, and never on what would crash it) strict shape
// inference, which writes the inferred types into `p`. Failures go into `r`.
void checkAndInfer(onnx::ModelProto& p, bool strict, CheckResult& r);

template <typename F>
void guarded(CheckResult& r, const F& f) {
  try {
    f();
  } catch (const std::exception& e) {
    if (isOutOfMemory(e)) throw;  // not a fault of the model: the caller says it ran out of memory
    r.ok = false;
    r.messages.push_back(messageFrom(e));
  }
}

}  // namespace fb::checker_proto
