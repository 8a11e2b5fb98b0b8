#pragma once
// A conversion direction: its handler registry (one handler per source op and since-version, HandlerRegistry) and
// the few rules by which a node reaches those handlers. The pipeline (converter.cpp, node_walk.cpp) asks only this
// interface, never which direction it runs:
//   dialect -> ONNX (OneFlow, and any registry without rules of its own) takes the defaults below;
//   ONNX -> ONNX (onnx_onnx/onnx_direction.h) adds its steps through opset 17, function bodies and version steps.
// ONNX -> Python (codegen/) writes code instead of a model and walks the graph itself, with the same statuses
// (status_loop.h).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convert/handler.h"
#include "convert/handler_registry.h"

namespace fb::convert {

class Direction {
 public:
  Direction(std::string name, const HandlerRegistry& handlers);
  virtual ~Direction() = default;
  Direction(const Direction&) = delete;
  Direction& operator=(const Direction&) = delete;

  const std::string& name() const { return name_; }
  const HandlerRegistry& handlers() const { return handlers_; }

  // The highest target opset; higher targets are refused. Default: kMaxDialectOpset (what libonnx checks).
  virtual int64_t maxTargetOpset() const;
  // The target when the user names none. Default: maxTargetOpset().
  virtual int64_t defaultTargetOpset(const ir::Model& source) const;

  // A node to leave as it is (status `kept`; its subgraphs are not visited): why, or nullopt to convert it.
  // Default: none.
  virtual std::optional<std::string> keepAsIs(const ir::Model& model, const ir::Node& node) const;
  // Warnings about the node as the source has it, before any handler runs (e.g. attributes its schema lacks).
  // Default: none.
  virtual std::vector<std::string> sourceWarnings(const ir::Node& node, int64_t sourceOpset) const;
  // Converts `node` to ctx.targetOpset, editing the graph only after ctx.commit(), or throws Unsupported with the
  // reason (any other exception makes the node `failed`). Default: the registry's handler for the target; an ONNX
  // node without one takes the ONNX version step (every direction writes ONNX); anything else is unsupported.
  virtual void convertNode(ir::Node& node, HandlerContext& ctx) const;
  // After every node is converted and the model's default-domain opset is the target, before the passes: what
  // the model no longer needs. Default: the opset imports of domains no node or function uses any more (the
  // source dialect's).
  virtual void finishModel(ir::Model& model) const;

 private:
  std::string name_;
  const HandlerRegistry& handlers_;
};

// The direction registered under `name`, or one with the default rules over HandlerRegistry::forDirection(name)
// when none is. registerBuiltinHandlers() registers the built-in ones.
const Direction& directionNamed(const std::string& name);
// Registers `direction` under its name for later lookups. Directions live as long as the process: one looked up
// before keeps working.
void registerDirection(std::unique_ptr<Direction> direction);

}  // namespace fb::convert
