#include "util/printable.h"

#include "util/utf8_scan.h"

namespace fb {

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const utf8::CodePoint c = utf8::decodeAt(s, i);
    if (c.length == 0) {  // not UTF-8: a lone byte 0x80-0x9f would be a C1 control to an 8-bit terminal
      utf8::appendEscape(out, static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (c.cp == '\n')
      out += "\\n";
    else if (c.cp == '\r')
      out += "\\r";
    else if (c.cp == '\t')
      out += "\\t";
    else if (utf8::isInvisibleOrMisleading(c.cp))
      utf8::appendEscape(out, c.cp);
    else
      out.append(s.substr(i, c.length));
    i += c.length;
  }
  return out;
}

std::string printableLines(std::string_view s) {
  std::string out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string_view::npos) end = s.size();
    out += printable(s.substr(start, end - start));
    if (end < s.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace fb
