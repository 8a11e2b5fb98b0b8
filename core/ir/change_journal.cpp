#include "ir/change_journal.h"

#include "ir/node.h"
#include "ir/value.h"

namespace fb::ir {

void ChangeJournal::touch(Node* n) {
  if (n) entries_.push_back({n, n->id()});
}

void ChangeJournal::touchAround(const Value* v) {
  if (!v) return;
  touch(v->producer());
  // Passes see a constant through Identity chains (exporters route weights through them), so a change of what a
  // value is reaches the readers at the end of such chains too. At most 64 values: a malformed file may loop.
  const Value* pending[64];
  size_t count = 0, visited = 0;
  pending[count++] = v;
  while (visited < count) {
    const Value* cur = pending[visited++];
    for (const Use& u : cur->uses()) {
      touch(u.node);
      if (u.node->opType == "Identity" && u.node->isDefaultDomain() && u.node->output(0) && count < 64)
        pending[count++] = u.node->output(0);
    }
  }
}

void ChangeJournal::removed(const Node* n) { removed_.insert(n->id()); }

}  // namespace fb::ir
