#include "edit/apply_edits.h"

#include "edit/edit_verb.h"

namespace fb::edit {

std::optional<std::string> checkEdit(const ir::Model& m, const Edit& e) {
  const VerbInfo* info = EditRegistry::instance().find(e.verb);
  if (!info) return "unknown verb '" + e.verb + "' (flowbridge-cli edit --list names them)";
  const auto args = info->verb->args();
  const std::string prefix = info->verb->freeArgPrefix();
  for (const auto& [k, v] : e.args) {
    bool known = !prefix.empty() && k.starts_with(prefix) && k.size() > prefix.size();
    for (const auto& a : args) known = known || a.name == k;
    if (!known) return "unknown argument '" + k + "' for " + e.verb;
  }
  for (const auto& a : args)
    if (a.required && !e.has(a.name)) return "missing argument '" + a.name + "' (" + a.help + ")";
  return info->verb->check(m, e);
}

Applied applyEdit(ir::Model& m, const Edit& e) {
  if (auto why = checkEdit(m, e)) throw EditError(e, *why);
  return EditRegistry::instance().find(e.verb)->verb->apply(m, e);
}

std::vector<Applied> applyEdits(ir::Model& m, const std::vector<Edit>& edits) {
  std::vector<Applied> done;
  done.reserve(edits.size());
  for (size_t k = 0; k < edits.size(); ++k) {
    try {
      done.push_back(applyEdit(m, edits[k]));
    } catch (const EditError& err) {
      revertEdits(m, done);
      throw EditError(edits[k], err.reason(), k + 1);
    } catch (...) {
      revertEdits(m, done);
      throw;
    }
  }
  return done;
}

void revertEdits(ir::Model& m, std::vector<Applied>& applied) {
  for (auto it = applied.rbegin(); it != applied.rend(); ++it)
    if (it->undo.revert) it->undo.revert(m);
  applied.clear();
}

CheckResult checkEditedModel(const ir::Model& m) { return checkModelAtItsOpset(m); }

}  // namespace fb::edit
