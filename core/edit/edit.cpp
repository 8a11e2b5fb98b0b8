#include "edit/edit.h"

#include "edit/edit_script.h"

namespace fb::edit {

const std::string* Edit::find(std::string_view key) const {
  for (const auto& [k, v] : args)
    if (k == key) return &v;
  return nullptr;
}

std::string Edit::get(std::string_view key, std::string fallback) const {
  const std::string* v = find(key);
  return v ? *v : fallback;
}

Edit& Edit::set(std::string key, std::string value) {
  for (auto& [k, v] : args)
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  args.emplace_back(std::move(key), std::move(value));
  return *this;
}

namespace {

// The edit as a message shows it: its script line with long values cut (a name may be a megabyte long).
std::string shownLine(const Edit& e) {
  constexpr size_t kShown = 200;
  Edit shown = e;
  if (shown.verb.size() > kShown) shown.verb = shown.verb.substr(0, kShown) + "...";
  for (auto& [k, v] : shown.args) {
    if (k.size() > kShown) k = k.substr(0, kShown) + "...";
    if (v.size() > kShown) v = v.substr(0, kShown) + "...";
  }
  return formatEdit(shown);
}

}  // namespace

EditError::EditError(const Edit& e, const std::string& reason, size_t index)
    : std::runtime_error((index ? "edit " + std::to_string(index) + ": " : std::string()) + shownLine(e) + ": " +
                         reason),
      line_(formatEdit(e)),
      reason_(reason),
      index_(index) {}

}  // namespace fb::edit
