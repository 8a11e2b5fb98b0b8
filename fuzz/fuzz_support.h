#pragma once
// What the harnesses share: a private scratch folder per fuzzing process, the input written there as the file a
// reader opens (the readers map files and check containment on descriptors, so they are fuzzed through files,
// not buffers), and the reads that happen after loading (every tensor's bytes, lazy side files included), so
// that damage a reader let through shows up in the harness and not only in a later command.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "inspect/model_summary.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "util/protobuf_log.h"

namespace fb::fuzz {

inline const std::string& scratchDir(const char* tag) {
  static const std::string dir = [tag] {
    std::string pattern = std::string("/tmp/fb-fuzz-") + tag + "-XXXXXX";
    if (!::mkdtemp(pattern.data())) std::abort();
    fb::installProtobufLogHandler();
    return pattern;
  }();
  return dir;
}

inline void writeFile(const std::string& path, const uint8_t* data, size_t size) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// Sums every byte so the compiler cannot drop the reads.
inline uint64_t touchGraph(const ir::Graph& g) {
  uint64_t sum = 0;
  for (const auto& t : g.initializers()) {
    try {
      for (std::byte b : t->bytes()) sum += static_cast<uint8_t>(b);
    } catch (const std::exception&) {
    }
  }
  for (const auto& n : g.nodes())
    for (const ir::Graph* sub : n->subgraphs()) sum += touchGraph(*sub);
  return sum;
}

inline void touchModel(const ir::Model& m) {
  volatile uint64_t sink = touchGraph(m.graph());
  (void)sink;
  (void)fb::summarize(m);
}

}  // namespace fb::fuzz
