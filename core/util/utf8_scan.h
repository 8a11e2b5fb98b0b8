#pragma once
// Reading untrusted text as UTF-8 one code point at a time, and telling which code points a reader cannot see or
// that change how the text around them is shown: what terminal, log and generated-code escaping all have to know.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fb::utf8 {

// The code point at `i` and its length in bytes, or length 0 for a byte that does not start a well-formed
// sequence (overlong forms, surrogates and values above U+10FFFF are not well-formed).
struct CodePoint {
  uint32_t cp = 0;
  size_t length = 0;
};
CodePoint decodeAt(std::string_view s, size_t i);

// Control characters (C0, DEL, C1: a terminal takes U+009B as CSI), code points that break lines in some editor
// or tool (\x0b, \x0c, \x1c-\x1e, \x85, U+2028, U+2029), bidi controls that reorder the text around them
// ("Trojan Source"), zero-width and other invisible characters, noncharacters and private use.
bool isInvisibleOrMisleading(uint32_t cp);

// `\xNN` (below U+0100), `\uNNNN` or `\UNNNNNNNN`, appended to `out`.
void appendEscape(std::string& out, uint32_t cp);

}  // namespace fb::utf8
