#include "codegen/python_text.h"

#include <cstdio>

#include "util/utf8_scan.h"

namespace fb::codegen {
namespace {

bool isAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
bool isPrintableAscii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

using utf8::appendEscape;
using utf8::decodeAt;
using utf8::isInvisibleOrMisleading;
using Decoded = utf8::CodePoint;

void appendUtf8(std::string& out, std::string_view s, size_t i, size_t length) { out.append(s.substr(i, length)); }

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
    if (d.cp == '\\' || d.cp == '\'')
      out += '\\', out += static_cast<char>(d.cp);
    else if (d.cp == '\n')
      out += "\\n";
    else if (d.cp == '\r')
      out += "\\r";
    else if (d.cp == '\t')
      out += "\\t";
    else if (d.cp < 0x80 && isPrintableAscii(static_cast<unsigned char>(d.cp)))
      out += static_cast<char>(d.cp);
    else
      appendEscape(out, d.cp);
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
    if (d.cp == '\\')
      out += "\\\\";
    else if (d.cp == '\n')
      out += "\\n";
    else if (d.cp == '\r')
      out += "\\r";
    else if (d.cp == '\t')
      out += "\\t";
    else if ((d.cp == ':' || d.cp == '=') && endsWith(out, "coding"))
      appendEscape(out, d.cp);
    else if (isInvisibleOrMisleading(d.cp))
      appendEscape(out, d.cp);
    else
      appendUtf8(out, text, at, d.length);
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
