#include "eval/kernels/neural_onednn.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace fb::eval::onednn {

dnnl::engine& cpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::primitive_attr strictAttr() {
  dnnl::primitive_attr a;
  a.set_fpmath_mode(dnnl::fpmath_mode::strict);
  return a;
}

dnnl::memory::desc plainDesc(const std::vector<int64_t>& dims, dnnl::memory::data_type t) {
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    strides[k] = s;
    s *= std::max<int64_t>(dims[k], 1);
  }
  return stridedDesc(dims, strides, t);
}

dnnl::memory::desc stridedDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                               dnnl::memory::data_type t) {
  if (dims.empty()) return dnnl::memory::desc({1}, t, dnnl::memory::dims{1});
  if (dims.size() > DNNL_MAX_NDIMS)
    unsupported("oneDNN takes tensors of at most " + std::to_string(DNNL_MAX_NDIMS) + " dimensions");
  return dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()), t,
                            dnnl::memory::dims(strides.begin(), strides.end()));
}

dnnl::memory wrap(const dnnl::memory::desc& d, const void* data) {
  return dnnl::memory(d, cpuEngine(), const_cast<void*>(data));
}

void execute(const char* primitive, const dnnl::primitive& p, const std::unordered_map<int, dnnl::memory>& args) {
  guarded(primitive, [&] {
    dnnl::stream s(cpuEngine());
    p.execute(s, args);
    s.wait();
  });
}

void reorder(dnnl::memory from, dnnl::memory to) {
  guarded("reorder", [&] {
    dnnl::stream s(cpuEngine());
    dnnl::reorder(from, to).execute(s, from, to);
    s.wait();
  });
}

namespace {

constexpr size_t kReusedScratchBytes = size_t{64} << 20;

struct AlignedFree {
  void operator()(std::byte* p) const { std::free(p); }
};

struct ReusedBuffer {
  std::unique_ptr<std::byte, AlignedFree> data;
  size_t size = 0;
};

}  // namespace

dnnl::memory scratch(const dnnl::memory::desc& want, ScratchRole role, std::vector<Tensor>& keep) {
  const size_t bytes = want.get_size();
  if (bytes <= kReusedScratchBytes) {
    thread_local ReusedBuffer buffers[3];
    ReusedBuffer& b = buffers[static_cast<int>(role)];
    if (b.size < bytes) {
      const size_t rounded = (bytes + 63) / 64 * 64;
      b.data.reset(static_cast<std::byte*>(std::aligned_alloc(64, rounded)));
      b.size = b.data ? rounded : 0;
      if (!b.data) badInput("out of memory for a reordered copy of " + std::to_string(bytes) + " bytes");
    }
    return dnnl::memory(want, cpuEngine(), b.data.get());
  }
  const int64_t floats = static_cast<int64_t>((bytes + sizeof(float) - 1) / sizeof(float));
  keep.push_back(Tensor::empty(ir::DataType::Float, {floats}));
  return dnnl::memory(want, cpuEngine(), keep.back().mutableData<float>());
}

dnnl::memory inLayout(const dnnl::memory& user, const dnnl::memory::desc& want, ScratchRole role,
                      std::vector<Tensor>& keep) {
  if (user.get_desc() == want) return user;
  dnnl::memory m = scratch(want, role, keep);
  reorder(user, m);
  return m;
}

}  // namespace fb::eval::onednn
