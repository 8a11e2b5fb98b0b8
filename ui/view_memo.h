#pragma once
// What the views show, remembered across an edit of the model in place without holding pointers into it: the
// breadcrumb's bodies by their owner node and attribute, the selected nodes by id, name and position, the selected
// value by name. An edit that removes nodes frees them (and undo puts back new Node objects): after it, the memo
// finds what still exists, so nothing on screen points at a freed node or value.
#include <QList>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::ui {

struct ViewMemo {
  struct NodeKey {
    uint64_t id = 0;
    std::string name, opType;
    size_t position = 0;  // in its graph's node order
  };
  // A body on the breadcrumb: the attribute `attribute` (its `index`-th graph) of the node `owner`.
  struct BodyKey {
    NodeKey owner;
    std::string attribute;
    size_t index = 0;
  };
  std::vector<BodyKey> bodies;  // levels 1.. of the breadcrumb
  std::vector<NodeKey> selected;
  std::string value;
  bool hasValue = false;

  static ViewMemo of(const std::vector<const ir::Graph*>& levels, const QList<const ir::Node*>& selected,
                     const ir::Value* value);
  // The graphs of the breadcrumb that still exist, from the main graph down (stops at the first body that is
  // gone).
  std::vector<const ir::Graph*> levelsIn(const ir::Model& m) const;
  // The remembered nodes that `g` still has (by id, else by name, else the node of the same op at the same
  // position).
  QList<const ir::Node*> selectedIn(const ir::Graph& g) const;
  // The remembered value when `g` still defines or reads it, else nullptr.
  const ir::Value* valueIn(const ir::Graph& g) const;
};

}  // namespace fb::ui
