#include "util/printable.h"

namespace fb {

std::string printable(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (c >= 0x20 && c != 0x7f) {
      out += static_cast<char>(c);
      continue;
    }
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    }
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
