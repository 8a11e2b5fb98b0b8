#pragma once
// What the neural kernels share to call oneDNN: one CPU engine for the process (engines are costly to make and
// oneDNN caches primitives per engine), a stream per call, plain row-major memory descriptors over the evaluator's
// tensors, and oneDNN's errors turned into RunError naming the primitive.
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/runtime/run_error.h"
#include "eval/runtime/tensor.h"

namespace fb::eval::onednn {

dnnl::engine& cpuEngine();

// Attributes every primitive gets: strict f32 math, so that no implementation rounds f32 through bf16/f16 (on
// CPUs with AMX or AVX512-BF16, ONEDNN_DEFAULT_FPMATH_MODE could otherwise allow it and results would drift
// from other runtimes' by far more than float rounding).
dnnl::primitive_attr strictAttr();

// Row-major descriptor of `dims` (a 0-d tensor is treated as [1]).
dnnl::memory::desc plainDesc(const std::vector<int64_t>& dims,
                             dnnl::memory::data_type t = dnnl::memory::data_type::f32);
// Descriptor with explicit element strides.
dnnl::memory::desc stridedDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                               dnnl::memory::data_type t = dnnl::memory::data_type::f32);
// A memory object over bytes the caller owns (oneDNN only reads inputs; the const_cast is its API's, not a write).
dnnl::memory wrap(const dnnl::memory::desc& d, const void* data);

// Runs `p` with `args` on a fresh stream and waits. Throws RunError(BadInput) naming `primitive` when oneDNN fails.
void execute(const char* primitive, const dnnl::primitive& p, const std::unordered_map<int, dnnl::memory>& args);

// Calls f(); a dnnl::error becomes RunError naming `primitive` (Unsupported when oneDNN has no implementation for
// the combination, BadInput otherwise).
template <typename F>
decltype(auto) guarded(const char* primitive, F&& f) {
  try {
    return f();
  } catch (const dnnl::error& e) {
    const std::string what = std::string("oneDNN ") + primitive + ": " + e.what();
    if (e.status == dnnl_unimplemented) unsupported(what);
    badInput(what);
  }
}

// Copies `from` (in its layout) into `to` (another layout of the same dims).
void reorder(dnnl::memory from, dnnl::memory to);

// What a reordered copy holds, each role with its own buffer (one primitive uses all three at once).
enum class ScratchRole { Source, Weights, Destination };

// Memory of layout `want` for `role`. Up to kReusedScratchBytes it lives in a buffer this thread keeps and reuses
// from call to call: a fresh allocation per call would fault in new pages every time (the weights' reorder alone is
// the model's size per run); such a copy is bounded by one tensor the model already holds, so it is not charged to
// the run's budget. Larger copies are charged to the budget and kept alive by `keep`.
dnnl::memory scratch(const dnnl::memory::desc& want, ScratchRole role, std::vector<Tensor>& keep);
// `user`'s values in layout `want`: `user` itself when the layouts agree, else a reordered copy in scratch.
dnnl::memory inLayout(const dnnl::memory& user, const dnnl::memory::desc& want, ScratchRole role,
                      std::vector<Tensor>& keep);

}  // namespace fb::eval::onednn
