#pragma once
// Which source node each node of a converted model comes from, written into the converted model so that `compare`
// can pair the two models' values after the fact. FlowBridge's converter keeps provenance as node ids (`origins`),
// which live only in memory; in the file it becomes names: on each node, a `metadata_props` entry where the model's
// IR version has them (NodeProto field 9, IR 10 and later), else one model-level entry mapping node names.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/model.h"

namespace fb::eval {

// The key of the node-level entry (value: a JSON array of source node names) and of the model-level entry (a JSON
// object from converted node name to that array; nodes whose one source has their own name are left out).
inline constexpr const char* kNodeProvenanceKey = "flowbridge.source_nodes";
inline constexpr const char* kModelProvenanceKey = "flowbridge.provenance";

// Node names by id over every graph of `m` (bodies included): taken from the source before a conversion changes it.
std::unordered_map<uint64_t, std::string> nodeNamesById(const ir::Model& m);

// Writes the provenance of `result`'s main-graph nodes, whose `origins` are ids of the nodes `sourceNames` names.
// Replaces provenance an earlier conversion recorded (the source may itself be a conversion's result).
void recordProvenance(ir::Model& result, const std::unordered_map<uint64_t, std::string>& sourceNames);

// Converted node name -> source node names, as recorded in `m`; nullopt when `m` records none.
std::optional<std::map<std::string, std::vector<std::string>>> readProvenance(const ir::Model& m);

}  // namespace fb::eval
