#pragma once
// The words the app uses for a conversion's outcome, in the Convert panel, its questions and the Log.
#include <QString>

#include "convert/converter.h"

namespace fb::ui {

// "300 unchanged, 52 converted, 0 unsupported, 0 failed, 0 kept"
QString statusCounts(const convert::ConvertResult& r);

// What makes the result incomplete (unsupported or failed nodes, a whole-model error, a failed check), as one
// sentence; empty when the result is complete.
QString problemsOf(const convert::ConvertResult& r);

// The total of a per-op count table.
size_t nodeTotal(const std::map<std::string, size_t>& opCounts);

}  // namespace fb::ui
