#include "edit/edit_script.h"

#include <cstdio>
#include <set>

namespace fb::edit {

namespace {

bool needsQuotes(std::string_view s) {
  if (s.empty()) return true;
  for (unsigned char c : s)
    if (c <= ' ' || c == '"' || c == '=' || c == '#' || c == '\\' || c == 0x7f) return true;
  return false;
}

std::string quote(std::string_view s) {
  if (!needsQuotes(s)) return std::string(s);
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

[[noreturn]] void fail(size_t lineNumber, const std::string& reason) {
  throw ScriptError("line " + std::to_string(lineNumber) + ": " + reason);
}

// Reads a word (up to a space or '=') or a quoted string starting at `pos`.
std::string readToken(std::string_view line, size_t& pos, size_t lineNumber) {
  std::string out;
  if (pos < line.size() && line[pos] == '"') {
    ++pos;
    while (true) {
      if (pos >= line.size()) fail(lineNumber, "unterminated quote");
      const char c = line[pos++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= line.size()) fail(lineNumber, "unterminated quote");
      const char e = line[pos++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'u': {
          if (pos + 4 > line.size()) fail(lineNumber, "bad \\u escape");
          unsigned v = 0;
          for (int k = 0; k < 4; ++k) {
            const char h = line[pos++];
            v <<= 4;
            if (h >= '0' && h <= '9')
              v |= unsigned(h - '0');
            else if (h >= 'a' && h <= 'f')
              v |= unsigned(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
              v |= unsigned(h - 'A' + 10);
            else
              fail(lineNumber, "bad \\u escape");
          }
          // Model strings are bytes: \u00XX is one byte, larger code points go out as UTF-8.
          if (v < 0x100 && v >= 0x80)
            out += char(v);
          else if (v < 0x80)
            out += char(v);
          else if (v < 0x800) {
            out += char(0xc0 | (v >> 6));
            out += char(0x80 | (v & 0x3f));
          } else {
            out += char(0xe0 | (v >> 12));
            out += char(0x80 | ((v >> 6) & 0x3f));
            out += char(0x80 | (v & 0x3f));
          }
          break;
        }
        default:
          fail(lineNumber, std::string("unknown escape \\") + e);
      }
    }
  }
  while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t' && line[pos] != '=') {
    if (line[pos] == '"') fail(lineNumber, "a quote inside a word");
    out += line[pos++];
  }
  return out;
}

void skipSpace(std::string_view line, size_t& pos) {
  while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r')) ++pos;
}

}  // namespace

std::string formatEdit(const Edit& e) {
  std::string out = quote(e.verb);
  for (const auto& [k, v] : e.args) out += " " + quote(k) + "=" + quote(v);
  return out;
}

std::string formatScript(const std::vector<Edit>& edits) {
  std::string out;
  for (const auto& e : edits) out += formatEdit(e) + "\n";
  return out;
}

Edit parseEditLine(std::string_view line, size_t lineNumber) {
  Edit e;
  size_t pos = 0;
  skipSpace(line, pos);
  e.verb = readToken(line, pos, lineNumber);
  if (e.verb.empty()) fail(lineNumber, "no verb");
  std::set<std::string> seen;
  while (true) {
    skipSpace(line, pos);
    if (pos >= line.size()) break;
    std::string key = readToken(line, pos, lineNumber);
    if (key.empty()) fail(lineNumber, "an argument without a name");
    if (pos >= line.size() || line[pos] != '=') fail(lineNumber, "argument '" + key + "' has no '=VALUE'");
    ++pos;
    std::string value = readToken(line, pos, lineNumber);
    if (pos < line.size() && line[pos] == '=') fail(lineNumber, "a second '=' in argument '" + key + "' (quote it)");
    if (!seen.insert(key).second) fail(lineNumber, "argument '" + key + "' given twice");
    e.args.emplace_back(std::move(key), std::move(value));
  }
  return e;
}

std::vector<Edit> parseScript(std::string_view text) {
  std::vector<Edit> out;
  size_t lineNumber = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    ++lineNumber;
    size_t pos = 0;
    skipSpace(line, pos);
    if (pos < line.size() && line[pos] != '#') out.push_back(parseEditLine(line, lineNumber));
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

}  // namespace fb::edit
