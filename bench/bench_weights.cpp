// Writing speed of the weights that go with generated code: PyTorch checkpoint and OneFlow variable folder.
// Usage: bench_weights OUT_DIR [MEGABYTES]   (default 512 MB of float tensors, 32 MB each)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/weights_writer.h"

using namespace fb;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_weights OUT_DIR [MEGABYTES]\n");
    return 1;
  }
  const fs::path dir = argv[1];
  const size_t megabytes = argc > 2 ? std::stoul(argv[2]) : 512;
  fs::create_directories(dir);
  constexpr size_t kTensorFloats = (32u << 20) / sizeof(float);
  std::vector<ir::Tensor> tensors;
  for (size_t i = 0; i * 32 < megabytes; ++i) {
    std::vector<float> v(kTensorFloats);
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k * (i + 1));
    tensors.push_back(
        ir::Tensor::fromValues("t" + std::to_string(i), ir::DataType::Float, {int64_t(kTensorFloats / 1024), 1024}, v));
  }
  std::vector<codegen::NamedTensor> named;
  for (size_t i = 0; i < tensors.size(); ++i) named.push_back({"layer" + std::to_string(i) + ".weight", &tensors[i]});
  const double mb = double(tensors.size() * kTensorFloats * sizeof(float)) / 1e6;

  auto time = [](auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::printf("%zu float tensors, %.0f MB (fsync included)\n", tensors.size(), mb);
  for (int run = 0; run < 3; ++run) {
    const double torch = time([&] { codegen::writeTorchStateDict(named, (dir / "weights.pt").string()); });
    const double oneflow = time([&] { codegen::writeOneflowVariableDir(named, (dir / "weights_of").string()); });
    std::printf("run %d: torch zip %.2f s = %.0f MB/s   oneflow folder %.2f s = %.0f MB/s\n", run + 1, torch,
                mb / torch, oneflow, mb / oneflow);
  }
  fs::remove(dir / "weights.pt");
  fs::remove_all(dir / "weights_of");
  return 0;
}
