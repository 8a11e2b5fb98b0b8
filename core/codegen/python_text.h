#pragma once
// The only ways a string from a model (names of nodes, values, weights, graphs, dim_params, attribute strings,
// messages that quote them, the input's file name) may enter generated Python source: one function per place
// it can land. Each output is ASCII or valid UTF-8 without NUL, cannot end the construct it sits in (no line
// break of any kind ends a comment or a string literal early) and shows every invisible or misleading
// character (Unicode line/paragraph separators, bidi controls, zero-width characters) as a visible escape.
#include <string>
#include <string_view>

namespace fb::codegen {

// Identifiers generated code uses are at most this long: a 100k-character ONNX name still gives readable
// code, and NameTable keeps cut names unique.
inline constexpr size_t kMaxIdentifierLength = 64;

// Any text reduced to an ASCII identifier: [A-Za-z0-9_] runs kept, every other run becomes one `_`, leading and
// trailing `_` dropped (a leading `__` would be mangled inside a class), a leading digit gets a `v`, empty
// becomes `v`, and the result is cut to kMaxIdentifierLength. Keywords and reserved names are the NameTable's job.
std::string pyIdentifier(std::string_view raw);

// A Python string literal ('...') whose value is `bytes` decoded as UTF-8; bytes that are not UTF-8 become the
// four characters `\xNN` (what Python's backslashreplace gives). The literal itself is printable ASCII.
std::string pyStringLiteral(std::string_view bytes);

// The body of a comment (what follows `# `): printable text on one line. Line breaks, controls, invalid UTF-8,
// bidi and invisible characters are shown as \n, \x0b, \u2028, ... and a backslash as \\; `coding:` / `coding=`
// get their colon or equals sign escaped so the first two lines can never declare a source encoding (PEP 263).
std::string pyCommentText(std::string_view text);

// The same readable text, for a place inside a regular (non-raw) docstring delimited by `"""`.
std::string pyDocstringText(std::string_view text);

// True when `line` is one clean logical line of generated code: printable ASCII only, no comment, and every
// string literal closed on it. ModuleBuilder checks each line handlers write with it, so a handler that pasted
// raw model text instead of pyStringLiteral's output fails its node instead of writing that text.
bool isCleanCodeLine(std::string_view line);

}  // namespace fb::codegen
