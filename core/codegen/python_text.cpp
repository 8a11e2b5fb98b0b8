#include "codegen/python_text.h"

#include <cstdint>
#include <cstdio>

namespace fb::codegen {
namespace {

bool isAsciiAlnum(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isPrintableAscii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

// One step of strict UTF-8 decoding: the code point at `i` and its length, or length 0 for a byte that does not
// start a well-formed sequence (overlong forms, surrogates and values above U+10FFFF are not well-formed).
struct Decoded {
  uint32_t cp = 0;
  size_t length = 0;
};

Decoded decodeAt(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return {b0, 1};
  size_t n;
  uint32_t cp, min;
  if (b0 >= 0xc2 && b0 <= 0xdf) n = 2, cp = b0 & 0x1fu, min = 0x80;
  else if (b0 >= 0xe0 && b0 <= 0xef) n = 3, cp = b0 & 0x0fu, min = 0x800;
  else if (b0 >= 0xf0 && b0 <= 0xf4) n = 4, cp = b0 & 0x07u, min = 0x10000;
  else return {};
  if (i + n > s.size()) return {};
  for (size_t k = 1; k < n; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xc0) != 0x80) return {};
    cp = (cp << 6) | (b & 0x3fu);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return {};
  return {cp, n};
}

void appendEscape(std::string& out, uint32_t cp) {
  char buf[16];
  if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  else std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
  out += buf;
}

void appendUtf8(std::string& out, std::string_view s, size_t i, size_t length) { out.append(s.substr(i, length)); }

// Code points a reader cannot see, that break lines in some editor or tool (str.splitlines breaks at \x0b, \x0c,
// \x1c-\x1e, \x85, U+2028, U+2029), that reorder the text around them (bidi controls: "Trojan Source"), or
// that are not characters at all. They are shown escaped even in comments.
bool isInvisibleOrMisleading(uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp == 0xad) return true;  // C0, DEL, C1 (incl. \x85), NBSP, soft hyphen
  if (cp == 0x34f || cp == 0x61c || cp == 0x115f || cp == 0x1160 || cp == 0x17b4 || cp == 0x17b5) return true;
  if (cp >= 0x180b && cp <= 0x180f) return true;    // Mongolian selectors and vowel separator
  if (cp >= 0x2000 && cp <= 0x200f) return true;    // wide spaces, zero-width characters, LRM, RLM
  if (cp >= 0x2028 && cp <= 0x202f) return true;    // line/paragraph separators, bidi embeddings and overrides
  if (cp >= 0x205f && cp <= 0x206f) return true;    // word joiner, invisible operators, bidi isolates
  if (cp == 0x3000 || cp == 0x3164 || cp == 0xffa0 || cp == 0xfeff) return true;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return true;    // variation selectors
  if (cp >= 0xfff0 && cp <= 0xffff) return true;    // specials and noncharacters
  if ((cp & 0xfffe) == 0xfffe) return true;         // noncharacters of every plane
  if (cp >= 0x1d173 && cp <= 0x1d17a) return true;  // musical format controls
  if (cp >= 0xe0000 && cp <= 0xe0fff) return true;  // tags ("ASCII smuggling") and variation selectors supplement
  if ((cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000) return true;  // private use
  return false;
}

bool endsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && std::string_view(s).substr(s.size() - tail.size()) == tail;
}

}  // namespace

std::string pyIdentifier(std::string_view raw) {
  std::string out;
  out.reserve(std::min(raw.size(), kMaxIdentifierLength + 1));
  bool pendingUnderscore = false;
  for (char ch : raw) {
    const auto c = static_cast<unsigned char>(ch);
    if (!isAsciiAlnum(c)) {
      pendingUnderscore = !out.empty();
      continue;
    }
    if (pendingUnderscore) out += '_';
    pendingUnderscore = false;
    if (out.empty() && c >= '0' && c <= '9') out += 'v';
    out += static_cast<char>(c);
    if (out.size() >= kMaxIdentifierLength) break;
  }
  if (out.size() > kMaxIdentifierLength) out.resize(kMaxIdentifierLength);
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "v" : out;
}

std::string pyStringLiteral(std::string_view bytes) {
  std::string out = "'";
  out.reserve(bytes.size() + 2);
  for (size_t i = 0; i < bytes.size();) {
    const Decoded d = decodeAt(bytes, i);
    if (d.length == 0) {  // not UTF-8: the value holds the text \xNN
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\\\x%02x", static_cast<unsigned char>(bytes[i]));
      out += buf;
      ++i;
      continue;
    }
    i += d.length;
    if (d.cp == '\\' || d.cp == '\'') out += '\\', out += static_cast<char>(d.cp);
    else if (d.cp == '\n') out += "\\n";
    else if (d.cp == '\r') out += "\\r";
    else if (d.cp == '\t') out += "\\t";
    else if (d.cp < 0x80 && isPrintableAscii(static_cast<unsigned char>(d.cp))) out += static_cast<char>(d.cp);
    else appendEscape(out, d.cp);
  }
  return out + "'";
}

std::string pyCommentText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const Decoded d = decodeAt(text, i);
    if (d.length == 0) {
      appendEscape(out, static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    const size_t at = i;
    i += d.length;
    if (d.cp == '\\') out += "\\\\";
    else if (d.cp == '\n') out += "\\n";
    else if (d.cp == '\r') out += "\\r";
    else if (d.cp == '\t') out += "\\t";
    else if ((d.cp == ':' || d.cp == '=') && endsWith(out, "coding")) appendEscape(out, d.cp);
    else if (isInvisibleOrMisleading(d.cp)) appendEscape(out, d.cp);
    else appendUtf8(out, text, at, d.length);
  }
  return out;
}

std::string pyDocstringText(std::string_view text) {
  std::string out;
  for (char c : pyCommentText(text)) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

bool isCleanCodeLine(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (!isPrintableAscii(c)) return false;
    if (quote) {
      if (c == '\\') {
        if (++i == line.size()) return false;
        if (!isPrintableAscii(static_cast<unsigned char>(line[i]))) return false;
      } else if (c == static_cast<unsigned char>(quote)) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = static_cast<char>(c);
    } else if (c == '#') {
      // A trailing comment a handler wrote itself: still printable ASCII to the end of the line.
      for (++i; i < line.size(); ++i)
        if (!isPrintableAscii(static_cast<unsigned char>(line[i]))) return false;
      return true;
    }
  }
  return quote == 0;
}

}  // namespace fb::codegen
