#pragma once
// Names and strings from a model file reach terminals and logs: control characters (C0, DEL, C1), line and
// paragraph separators, bidi controls and invisible characters in them are shown as escapes (\n, \x1b, \u202e),
// and so are bytes that are not UTF-8 (\x9b), so a crafted name cannot clear a screen, move the cursor, reorder
// what is shown or fake another line. Readable UTF-8 stays as it is.
#include <string>
#include <string_view>

namespace fb {

std::string printable(std::string_view s);
// The same for text made of lines: the newlines that end lines stay, every other control character is escaped.
std::string printableLines(std::string_view s);

}  // namespace fb
