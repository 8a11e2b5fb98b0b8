#pragma once
// For UI tests: the items of one kind (NodeItem, BlockItem, EdgeItem, ...) a graph scene holds now.
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QList>

namespace fb::test {

template <typename T>
QList<T*> itemsOf(QGraphicsScene* s) {
  QList<T*> out;
  for (auto* item : s->items())
    if (item->type() == T::Type) out.append(static_cast<T*>(item));
  return out;
}

}  // namespace fb::test
