#pragma once
// For the OneFlow harnesses: a weight folder holding every variable the fuzzed graph declares (zeros of the
// declared shape, a matching meta), so that mutated graphs get past their variables into the importer, shape
// inference and the handlers instead of stopping at "no weights for variable".
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/oneflow/oneflow_types.h"
#include "formats/tensor_size.h"
#include "formats/oneflow/oneflow_job.pb.h"

namespace fb::fuzz {

template <typename Ops>
void provideWeights(const std::string& dir, const Ops& ops) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  std::ofstream(dir + "/snapshot_done").put('\n');
  int written = 0;
  for (const auto& op : ops) {
    if (!op.has_variable_conf() || written == 16) continue;
    const std::string& name = op.name();
    if (name.empty() || name.size() > 64 || name.find('/') != std::string::npos ||
        name.find('\0') != std::string::npos || name[0] == '.')
      continue;
    const auto& conf = op.variable_conf();
    std::vector<int64_t> dims(conf.shape().dim().begin(), conf.shape().dim().end());
    auto irType = fb::oneflow::toIrDataType(conf.data_type());
    if (!irType || dims.size() > 8) continue;
    auto bytes = fb::checkedByteSize(dims, *irType);
    if (!bytes || *bytes > (1u << 20)) continue;
    fs::create_directories(dir + "/" + name, ec);
    if (ec) continue;
    std::ofstream(dir + "/" + name + "/out", std::ios::binary).flush();
    fs::resize_file(dir + "/" + name + "/out", *bytes, ec);  // sparse: reads as zeros, costs no writing
    std::ofstream meta(dir + "/" + name + "/meta");
    meta << "shape {";
    for (auto d : dims) meta << " dim: " << d;
    meta << " }\ndata_type: " << conf.data_type() << "\n";
    ++written;
  }
}

}  // namespace fb::fuzz
