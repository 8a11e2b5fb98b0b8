#include "edit/edit_verb.h"

namespace fb::edit {

EditRegistry& EditRegistry::instance() {
  static EditRegistry* r = [] {
    auto* reg = new EditRegistry;
    registerInterfaceEdits(*reg);
    registerRenameEdits(*reg);
    registerAttributeEdits(*reg);
    registerInitializerEdits(*reg);
    registerNodeRemovalEdits(*reg);
    registerInsertNodeEdit(*reg);
    registerPruneEdit(*reg);
    registerExtractEdits(*reg);
    registerModelInfoEdits(*reg);
    return reg;
  }();
  return *r;
}

void EditRegistry::add(VerbInfo info) { verbs_.push_back(std::move(info)); }

const VerbInfo* EditRegistry::find(const std::string& name) const {
  for (const auto& v : verbs_)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace fb::edit
