#pragma once
// libprotobuf prints its own "[libprotobuf ERROR ...]" lines to stderr for malformed input, before FlowBridge
// reports the problem in its own words. The handler installed here keeps those lines off stderr; the last one is
// kept for the thread, so a reader can add it to its message when it says more than "cannot parse".
#include <string>

namespace fb {

// Idempotent and thread-safe.
void installProtobufLogHandler();
// The last ERROR/FATAL text libprotobuf logged on this thread (empty when none), and clears it.
std::string takeProtobufLogMessage();

}  // namespace fb
