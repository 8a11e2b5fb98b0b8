// libFuzzer harness: ONNX external data. The input is text, one directive a line:
//   tensor              start another initializer (at most 4)
//   type N              its data_type
//   dims D...           its dims
//   KEY VALUE           an external_data entry (location, offset, length, checksum, anything)
// The harness builds the model around those initializers, beside side files of its own (w.bin, sub/w.bin, an
// empty file, a symlink inside and one leading out of the folder, a FIFO, a folder), reads it and reads every
// tensor's bytes; each location also goes through resolveExternalLocation directly. Reading outside the folder,
// blocking on the FIFO, or reading past a side file's end are findings.
#include <sys/stat.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "formats/onnx/external_data.h"
#include "formats/onnx/onnx_reader.h"
#include "fuzz_support.h"

namespace {
namespace fs = std::filesystem;

const std::string& modelDir() {
  static const std::string dir = [] {
    const std::string base = fb::fuzz::scratchDir("external");
    const std::string d = base + "/model";
    fs::create_directories(d + "/sub");
    fs::create_directories(d + "/folder.bin");
    std::ofstream(d + "/w.bin", std::ios::binary) << std::string(256, '\2');
    std::ofstream(d + "/sub/w.bin", std::ios::binary) << std::string(64, '\3');
    std::ofstream(d + "/empty.bin", std::ios::binary);
    std::ofstream(base + "/secret.bin", std::ios::binary) << std::string(256, 'S');
    fs::create_symlink("w.bin", d + "/link_in.bin");
    fs::create_symlink(base + "/secret.bin", d + "/link_out.bin");
    ::mkfifo((d + "/fifo.bin").c_str(), 0600);
    return d;
  }();
  return dir;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string dir = modelDir();
  const std::string path = dir + "/model.onnx";
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("g");
  onnx::TensorProto* t = nullptr;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  int tensors = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key.empty()) continue;
    if (key == "tensor" || !t) {
      if (tensors == 4) break;
      t = g->add_initializer();
      t->set_name("w" + std::to_string(tensors++));
      t->set_data_type(onnx::TensorProto::FLOAT);
      t->set_data_location(onnx::TensorProto::EXTERNAL);
      if (key == "tensor") continue;
    }
    if (key == "type") {
      int v = 0;
      words >> v;
      t->set_data_type(v);
    } else if (key == "dims") {
      t->clear_dims();
      long long d;
      while (t->dims_size() < 8 && words >> d) t->add_dims(d);
    } else {
      std::string value;
      std::getline(words >> std::ws, value);
      auto* e = t->add_external_data();
      e->set_key(key);
      e->set_value(value);
      if (key == "location") {
        try {
          (void)fb::onnxfmt::resolveExternalLocation(dir, value, path);
        } catch (const std::exception&) {
        }
      }
    }
  }
  for (const auto& init : g->initializer()) {
    auto* out = g->add_output();
    out->set_name(init.name());
    auto* tt = out->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(init.data_type());
    for (auto d : init.dims()) tt->mutable_shape()->add_dim()->set_dim_value(d);
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << m.SerializeAsString();
  try {
    auto model = fb::onnxfmt::readOnnxFile(path);
    fb::fuzz::touchModel(*model);
  } catch (const std::exception&) {
  }
  return 0;
}
