#include "util/utf8_scan.h"

#include <cstdio>

namespace fb::utf8 {

CodePoint decodeAt(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return {b0, 1};
  size_t n;
  uint32_t cp, min;
  if (b0 >= 0xc2 && b0 <= 0xdf)
    n = 2, cp = b0 & 0x1fu, min = 0x80;
  else if (b0 >= 0xe0 && b0 <= 0xef)
    n = 3, cp = b0 & 0x0fu, min = 0x800;
  else if (b0 >= 0xf0 && b0 <= 0xf4)
    n = 4, cp = b0 & 0x07u, min = 0x10000;
  else
    return {};
  if (i + n > s.size()) return {};
  for (size_t k = 1; k < n; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xc0) != 0x80) return {};
    cp = (cp << 6) | (b & 0x3fu);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return {};
  return {cp, n};
}

bool isInvisibleOrMisleading(uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp == 0xad)
    return true;  // C0, DEL, C1 (incl. \x85), NBSP, soft hyphen
  if (cp == 0x34f || cp == 0x61c || cp == 0x115f || cp == 0x1160 || cp == 0x17b4 || cp == 0x17b5) return true;
  if (cp >= 0x180b && cp <= 0x180f) return true;  // Mongolian selectors and vowel separator
  if (cp >= 0x2000 && cp <= 0x200f) return true;  // wide spaces, zero-width characters, LRM, RLM
  if (cp >= 0x2028 && cp <= 0x202f) return true;  // line/paragraph separators, bidi embeddings and overrides
  if (cp >= 0x205f && cp <= 0x206f) return true;  // word joiner, invisible operators, bidi isolates
  if (cp == 0x3000 || cp == 0x3164 || cp == 0xffa0 || cp == 0xfeff) return true;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return true;    // variation selectors
  if (cp >= 0xfff0 && cp <= 0xffff) return true;    // specials and noncharacters
  if ((cp & 0xfffe) == 0xfffe) return true;         // noncharacters of every plane
  if (cp >= 0x1d173 && cp <= 0x1d17a) return true;  // musical format controls
  if (cp >= 0xe0000 && cp <= 0xe0fff) return true;  // tags ("ASCII smuggling") and variation selectors supplement
  if ((cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000) return true;  // private use
  return false;
}

void appendEscape(std::string& out, uint32_t cp) {
  char buf[16];
  if (cp < 0x100)
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  else if (cp < 0x10000)
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  else
    std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
  out += buf;
}

}  // namespace fb::utf8
