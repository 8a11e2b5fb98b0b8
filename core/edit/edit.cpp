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

EditError::EditError(const Edit& e, const std::string& reason, size_t index)
    : std::runtime_error((index ? "edit " + std::to_string(index) + ": " : std::string()) + formatEdit(e) + ": " +
                         reason),
      line_(formatEdit(e)),
      reason_(reason),
      index_(index) {}

}  // namespace fb::edit
