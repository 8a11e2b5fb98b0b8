#pragma once
// A kind of edit ("set-attr", "remove-node"): which arguments it takes, why an edit of its kind would not apply,
// and how to apply one. Verbs are registered in the EditRegistry by name with a one-line description.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "edit/edit.h"
#include "ir/model.h"

namespace fb::edit {

struct EditArg {
  std::string name;
  bool required = false;
  std::string help;  // one phrase: "node name", "dims, e.g. 1,3,224,224 (a name for a symbolic dim, ? unknown)"
};

class EditVerb {
 public:
  virtual ~EditVerb() = default;
  virtual std::vector<EditArg> args() const = 0;
  // Keys outside args() are accepted when they start with this prefix (insert-node's "attr.NAME=VALUE").
  virtual std::string freeArgPrefix() const { return {}; }
  // Why `e` does not apply to `m` as it stands, or nullopt. Never changes `m`. The registry has already checked
  // that the required arguments are there and no unknown ones.
  virtual std::optional<std::string> check(const ir::Model& m, const Edit& e) const = 0;
  // Applies an edit check() accepted. Anything that can still fail (reading a file) happens before the model is
  // touched, so a throw leaves it as it was.
  virtual Applied apply(ir::Model& m, const Edit& e) const = 0;
};

struct VerbInfo {
  std::string name;
  std::string description;
  std::shared_ptr<const EditVerb> verb;
};

class EditRegistry {
 public:
  // With the built-in verbs registered.
  static EditRegistry& instance();
  void add(VerbInfo info);
  const std::vector<VerbInfo>& all() const { return verbs_; }
  const VerbInfo* find(const std::string& name) const;

 private:
  std::vector<VerbInfo> verbs_;
};

// One registration function per file of verbs (explicit, so a static library cannot drop them).
void registerInterfaceEdits(EditRegistry& r);
void registerRenameEdits(EditRegistry& r);
void registerAttributeEdits(EditRegistry& r);
void registerInitializerEdits(EditRegistry& r);
void registerNodeRemovalEdits(EditRegistry& r);
void registerInsertNodeEdit(EditRegistry& r);
void registerPruneEdit(EditRegistry& r);
void registerExtractEdits(EditRegistry& r);
void registerModelInfoEdits(EditRegistry& r);

}  // namespace fb::edit
