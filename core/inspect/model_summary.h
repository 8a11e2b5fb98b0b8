#pragma once
// Facts about a model that `inspect`, the Model panel and the tests share.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/model.h"

namespace fb {

struct ModelSummary {
  struct Io {
    std::string name;
    std::string dtype;
    nlohmann::json shape;  // array of ints / strings / null, or null when the rank is unknown
  };
  std::string format;
  std::string path;
  int64_t irVersion = 0;
  std::string producerName, producerVersion;
  std::vector<ir::OpsetImport> opsets;
  std::vector<Io> inputs, outputs;
  size_t nodes = 0, subgraphNodes = 0, subgraphs = 0, functions = 0, initializers = 0;
  std::map<std::string, size_t> ops;  // over the top-level graph; "domain::Op" outside the default domain
  uint64_t parameters = 0, parameterBytes = 0;
  // Initializers of the top-level graph by element type: how many, their elements and stored bytes, and how the
  // type is stored (bits, packing of the sub-byte types).
  struct WeightType {
    size_t tensors = 0;
    uint64_t elements = 0, bytes = 0;
    std::string storage;
  };
  std::map<std::string, WeightType> weightTypes;
};

ModelSummary summarize(const ir::Model& m);
nlohmann::json toJson(const ModelSummary& s);
std::string toText(const ModelSummary& s);
// Inputs of a graph that are not initializers (what a user feeds).
std::vector<const ir::Value*> feedInputs(const ir::Graph& g);

}  // namespace fb
