// The model's header: opset imports, IR version, producer, metadata. No node changes: the check after the script
// tells whether the nodes still fit (set-opset does not convert; `convert` does).
#include <memory>

#include "edit/edit_support.h"
#include "edit/edit_verb.h"
#include "schema/opsets.h"

namespace fb::edit {

namespace {

// Any header edit's undo: the few fields it may change, as they were.
Undo headerUndo(const ir::Model& m) {
  struct Header {
    int64_t irVersion;
    std::string producerName, producerVersion;
    std::vector<ir::OpsetImport> opsets;
    std::vector<std::pair<std::string, std::string>> metadata;
  };
  auto h = std::make_shared<Header>(Header{m.irVersion, m.producerName, m.producerVersion, m.opsets, m.metadata});
  size_t bytes =
      sizeof(Header) + h->producerName.size() + h->producerVersion.size() + h->opsets.size() * sizeof(ir::OpsetImport);
  for (const auto& [k, v] : h->metadata) bytes += k.size() + v.size() + 64;
  return {[h](ir::Model& model) {
            model.irVersion = h->irVersion;
            model.producerName = h->producerName;
            model.producerVersion = h->producerVersion;
            model.opsets = h->opsets;
            model.metadata = h->metadata;
          },
          bytes};
}

class SetOpset : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"version", true, "opset version"}, {"domain", false, "domain (default: ONNX's)"}};
  }
  std::optional<std::string> check(const ir::Model&, const Edit& e) const override {
    auto v = parseInt(e.get("version"));
    if (!v || *v < 1) return "not an opset version: " + q(e.get("version"));
    const std::string d = e.get("domain");
    if ((d.empty() || d == "ai.onnx") && (*v < 1 || *v > schema::kNewestOpset))
      return "ONNX opsets go up to " + std::to_string(schema::kNewestOpset);
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    Applied out;
    out.undo = headerUndo(m);
    m.setOpsetVersion(e.get("domain"), *parseInt(e.get("version")));
    out.notes.push_back("opset only: the nodes are not converted (flowbridge-cli convert does that)");
    return out;
  }
};

class SetIrVersion : public EditVerb {
 public:
  std::vector<EditArg> args() const override { return {{"version", true, "IR version"}}; }
  std::optional<std::string> check(const ir::Model&, const Edit& e) const override {
    auto v = parseInt(e.get("version"));
    if (!v || *v < 1 || *v > 13) return "not an IR version (1-13): " + q(e.get("version"));
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    Applied out;
    out.undo = headerUndo(m);
    m.irVersion = *parseInt(e.get("version"));
    return out;
  }
};

class SetProducer : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"name", false, "producer name"}, {"version", false, "producer version"}};
  }
  std::optional<std::string> check(const ir::Model&, const Edit& e) const override {
    if (!e.has("name") && !e.has("version")) return "give name= or version=";
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    Applied out;
    out.undo = headerUndo(m);
    if (e.has("name")) m.producerName = e.get("name");
    if (e.has("version")) m.producerVersion = e.get("version");
    return out;
  }
};

class SetMetadata : public EditVerb {
 public:
  explicit SetMetadata(bool remove) : remove_(remove) {}
  std::vector<EditArg> args() const override {
    if (remove_) return {{"key", true, "metadata key"}};
    return {{"key", true, "metadata key"}, {"value", true, "its value"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    if (e.get("key").empty()) return "empty key";
    if (remove_) {
      for (const auto& [k, v] : m.metadata)
        if (k == e.get("key")) return std::nullopt;
      return "the model has no metadata key " + q(e.get("key"));
    }
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    Applied out;
    out.undo = headerUndo(m);
    const std::string key = e.get("key");
    if (remove_) {
      std::erase_if(m.metadata, [&](const auto& kv) { return kv.first == key; });
      return out;
    }
    for (auto& [k, v] : m.metadata)
      if (k == key) {
        v = e.get("value");
        return out;
      }
    m.metadata.emplace_back(key, e.get("value"));
    return out;
  }

 private:
  bool remove_;
};

}  // namespace

void registerModelInfoEdits(EditRegistry& r) {
  r.add({"set-opset", "Set the version a domain's opset import says (the nodes are not converted)",
         std::make_shared<SetOpset>()});
  r.add({"set-ir-version", "Set the model's IR version", std::make_shared<SetIrVersion>()});
  r.add({"set-producer", "Set the producer name and/or version", std::make_shared<SetProducer>()});
  r.add({"set-metadata", "Set a metadata_props entry (added when new)", std::make_shared<SetMetadata>(false)});
  r.add({"remove-metadata", "Remove a metadata_props entry", std::make_shared<SetMetadata>(true)});
}

}  // namespace fb::edit
