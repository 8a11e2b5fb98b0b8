#include "eval/verify/provenance.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "ir/node.h"
#include "util/json_dump.h"

namespace fb::eval {

namespace {

constexpr uint32_t kNodeMetadataProps = 9;  // NodeProto.metadata_props (onnx.proto, IR 10)
constexpr int64_t kFirstIrWithNodeMetadata = 10;

// Just enough of protobuf's wire format to find, drop and add length-delimited fields in a message's unknown
// bytes (which FlowBridge keeps verbatim).
bool readVarint(std::string_view s, size_t& pos, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && pos < s.size(); shift += 7) {
    const auto b = static_cast<unsigned char>(s[pos++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

void writeVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void writeBytesField(std::string& out, uint32_t number, std::string_view bytes) {
  writeVarint(out, (uint64_t{number} << 3) | 2);
  writeVarint(out, bytes.size());
  out.append(bytes);
}

struct WireField {
  uint32_t number = 0;
  uint32_t wireType = 0;
  std::string_view whole;    // the field with its tag
  std::string_view payload;  // length-delimited fields: the bytes
};

// Splits `s` into fields; stops (returning false) at bytes that are not well-formed.
bool splitFields(std::string_view s, std::vector<WireField>& out) {
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t start = pos;
    uint64_t tag, v;
    if (!readVarint(s, pos, tag)) return false;
    WireField f;
    f.number = static_cast<uint32_t>(tag >> 3);
    f.wireType = static_cast<uint32_t>(tag & 7);
    switch (f.wireType) {
      case 0:
        if (!readVarint(s, pos, v)) return false;
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2:
        if (!readVarint(s, pos, v) || v > s.size() - pos) return false;
        f.payload = s.substr(pos, v);
        pos += v;
        break;
      default:
        return false;
    }
    if (pos > s.size()) return false;
    f.whole = s.substr(start, pos - start);
    out.push_back(f);
  }
  return true;
}

// A StringStringEntryProto's key and value.
std::pair<std::string, std::string> entryOf(std::string_view payload) {
  std::vector<WireField> fields;
  std::pair<std::string, std::string> kv;
  if (!splitFields(payload, fields)) return kv;
  for (const auto& f : fields) {
    if (f.wireType != 2) continue;
    if (f.number == 1) kv.first = std::string(f.payload);
    if (f.number == 2) kv.second = std::string(f.payload);
  }
  return kv;
}

// `unknown` without our node-level entry; `found` gets its value when there was one.
std::string withoutNodeEntry(std::string_view unknown, std::optional<std::string>* found) {
  std::vector<WireField> fields;
  if (!splitFields(unknown, fields)) return std::string(unknown);
  std::string kept;
  for (const auto& f : fields) {
    if (f.number == kNodeMetadataProps && f.wireType == 2) {
      auto [k, v] = entryOf(f.payload);
      if (k == kNodeProvenanceKey) {
        if (found) *found = v;
        continue;
      }
    }
    kept.append(f.whole);
  }
  return kept;
}

void collectNames(const ir::Graph& g, std::unordered_map<uint64_t, std::string>& out) {
  for (const auto& n : g.nodes()) {
    out.emplace(n->id(), n->name);
    for (const ir::Graph* body : n->subgraphs()) collectNames(*body, out);
  }
}

}  // namespace

std::unordered_map<uint64_t, std::string> nodeNamesById(const ir::Model& m) {
  std::unordered_map<uint64_t, std::string> names;
  collectNames(m.graph(), names);
  return names;
}

void recordProvenance(ir::Model& result, const std::unordered_map<uint64_t, std::string>& sourceNames) {
  std::erase_if(result.metadata, [](const auto& kv) { return kv.first == kModelProvenanceKey; });
  const bool onNodes = result.irVersion >= kFirstIrWithNodeMetadata;
  nlohmann::json byNode = nlohmann::json::object();
  for (const auto& n : result.graph().nodes()) {
    std::vector<std::string> sources;
    for (uint64_t id : n->origins) {
      auto it = sourceNames.find(id);
      if (it != sourceNames.end() && std::find(sources.begin(), sources.end(), it->second) == sources.end())
        sources.push_back(it->second);
    }
    std::string unknown = withoutNodeEntry(n->unknownFields.str(), nullptr);
    if (onNodes && !sources.empty()) {
      std::string entry;
      writeBytesField(entry, 1, kNodeProvenanceKey);
      writeBytesField(entry, 2, dumpJson(nlohmann::json(sources), -1));
      writeBytesField(unknown, kNodeMetadataProps, entry);
    }
    n->unknownFields = unknown;
    if (!onNodes && !n->name.empty() && !sources.empty() && !(sources.size() == 1 && sources[0] == n->name))
      byNode[n->name] = sources;
  }
  if (!onNodes) result.metadata.emplace_back(kModelProvenanceKey, dumpJson(byNode, -1));
}

std::optional<std::map<std::string, std::vector<std::string>>> readProvenance(const ir::Model& m) {
  std::optional<std::map<std::string, std::vector<std::string>>> r;
  auto addJson = [&](const std::string& key, const std::string& text) {
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array()) return;
    std::vector<std::string> names;
    for (const auto& e : j)
      if (e.is_string()) names.push_back(e.get<std::string>());
    (*r)[key] = std::move(names);
  };
  for (const auto& [k, v] : m.metadata) {
    if (k != kModelProvenanceKey) continue;
    auto j = nlohmann::json::parse(v, nullptr, false);
    if (!j.is_object()) continue;
    r.emplace();
    for (const auto& [node, sources] : j.items()) addJson(node, sources.dump());
  }
  for (const auto& n : m.graph().nodes()) {
    std::optional<std::string> found;
    withoutNodeEntry(n->unknownFields.str(), &found);
    if (!found || n->name.empty()) continue;
    if (!r) r.emplace();
    addJson(n->name, *found);
  }
  return r;
}

}  // namespace fb::eval
