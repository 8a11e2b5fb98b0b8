#include "codegen/helper_library.h"

#include <stdexcept>

namespace fb::codegen {

HelperLibrary& HelperLibrary::instance() {
  static HelperLibrary lib;
  return lib;
}

void HelperLibrary::add(Helper h) {
  for (const auto& e : helpers_)
    if (e.name == h.name) {
      if (e.code != h.code) throw std::logic_error("two different Python helpers named " + h.name);
      return;
    }
  helpers_.push_back(std::move(h));
}

const Helper* HelperLibrary::find(const std::string& name) const {
  for (const auto& h : helpers_)
    if (h.name == name) return &h;
  return nullptr;
}

std::vector<std::string> HelperLibrary::names() const {
  std::vector<std::string> out;
  for (const auto& h : helpers_) out.push_back(h.name);
  return out;
}

}  // namespace fb::codegen
