#pragma once
// Handlers registered per (direction, source domain, op type, since-version). For target opset T the handler
// with the highest since-version <= T wins (oneflow-onnx's CreateMapping). The table is data.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "convert/handler.h"

namespace fb::convert {

class HandlerRegistry {
 public:
  // One registry per conversion direction ("onnx" for ONNX->ONNX retargeting, "oneflow" for OneFlow->ONNX).
  static HandlerRegistry& forDirection(const std::string& direction);

  void add(HandlerInfo info);
  // The handler for target opset `target`, or nullptr when none applies.
  const HandlerInfo* find(const std::string& domain, const std::string& opType, int64_t target) const;
  // Lowest since-version of any handler for the op, if there is one.
  std::optional<int64_t> lowestVersion(const std::string& domain, const std::string& opType) const;
  // Every handler, sorted by domain, op type, since-version.
  std::vector<const HandlerInfo*> all() const;
  bool empty() const { return handlers_.empty(); }

 private:
  std::map<std::tuple<std::string, std::string>, std::vector<HandlerInfo>> handlers_;  // versions ascending
};

}  // namespace fb::convert
