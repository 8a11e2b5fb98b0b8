#pragma once
// Reads OneFlow graphs into the IR: a Job or JobSet (binary .pb or text .prototxt; what nn.Graph compiles,
// `graph._full_graph_proto`), a lazy-era SavedModel folder, or a folder holding either. Weights come from a
// per-variable weight folder (see weight_folder.h) found beside the graph unless given.
#include <memory>
#include <optional>
#include <string>

#include "ir/model.h"

namespace fb::oneflow {

struct ReadOptions {
  std::optional<std::string> weightDir;  // default: findWeightFolder(graph file)
  std::string jobName;                   // which job of a JobSet (default: the first with ops)
};

// True when `path` is a OneFlow graph file or a folder holding one (cheap: names, then a parse of small files).
bool looksLikeOneflow(const std::string& path);

// Throws InputError(file, reason) when the graph or its weights cannot be read.
std::unique_ptr<ir::Model> readOneflow(const std::string& path, const ReadOptions& options = {});

}  // namespace fb::oneflow
