#pragma once
// Names and strings from a model file reach terminals and logs: control characters in them are shown as
// escapes (\n, \x1b), so a crafted name cannot clear a screen, move the cursor or fake another line.
#include <string>
#include <string_view>

namespace fb {

std::string printable(std::string_view s);
// The same for text made of lines: the newlines that end lines stay, every other control character is escaped.
std::string printableLines(std::string_view s);

}  // namespace fb
