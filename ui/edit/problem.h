#pragma once
// One thing wrong with the edited model, as the Problems list and the marks on the graph show it.
#include <QString>
#include <cstdint>

namespace fb::ui {

struct Problem {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  uint64_t nodeId = 0;  // the node it is about (ids as the document's model has them); 0: the whole model
  QString nodeName;     // as the model names it (its op when it has no name); empty for the whole model
  QString message;
  bool operator==(const Problem&) const = default;
};

}  // namespace fb::ui
