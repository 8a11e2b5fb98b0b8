#include "convert/handler_registry.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace fb::convert {

HandlerRegistry& HandlerRegistry::forDirection(const std::string& direction) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::unique_ptr<HandlerRegistry>> registries;
  std::lock_guard lock(mu);
  auto& r = registries[direction];
  if (!r) r = std::make_unique<HandlerRegistry>();
  return *r;
}

void HandlerRegistry::add(HandlerInfo info) {
  auto& list = handlers_[{info.domain, info.opType}];
  auto it =
      std::find_if(list.begin(), list.end(), [&](const HandlerInfo& h) { return h.sinceVersion == info.sinceVersion; });
  if (it != list.end()) {
    *it = std::move(info);
    return;
  }
  list.push_back(std::move(info));
  std::sort(list.begin(), list.end(),
            [](const HandlerInfo& a, const HandlerInfo& b) { return a.sinceVersion < b.sinceVersion; });
}

const HandlerInfo* HandlerRegistry::find(const std::string& domain, const std::string& opType, int64_t target) const {
  auto it = handlers_.find({domain, opType});
  if (it == handlers_.end()) return nullptr;
  const HandlerInfo* best = nullptr;
  for (const auto& h : it->second)
    if (h.sinceVersion <= target) best = &h;
  return best;
}

std::optional<int64_t> HandlerRegistry::lowestVersion(const std::string& domain, const std::string& opType) const {
  auto it = handlers_.find({domain, opType});
  if (it == handlers_.end() || it->second.empty()) return std::nullopt;
  return it->second.front().sinceVersion;
}

std::vector<const HandlerInfo*> HandlerRegistry::all() const {
  std::vector<const HandlerInfo*> out;
  for (const auto& [key, list] : handlers_)
    for (const auto& h : list) out.push_back(&h);
  return out;
}

}  // namespace fb::convert
