#pragma once
// The edit script: one edit per line, "VERB KEY=VALUE ...". A value holding a space, a quote, '=', '#' or a
// control character, or an empty one, is written in double quotes with JSON's escapes ("a b", "tab\there").
// Blank lines and lines starting with '#' are comments. Names of nodes and values are model strings, so quoting is
// what keeps any name writable.
#include <string>
#include <string_view>
#include <vector>

#include "edit/edit.h"

namespace fb::edit {

// A line that is not an edit: what() is "line N: <reason>".
class ScriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string formatEdit(const Edit& e);
std::string formatScript(const std::vector<Edit>& edits);  // one line each, '\n'-terminated

// Throws ScriptError (with `lineNumber` in the text) on a syntax error: an unterminated quote, a word without
// '=', a repeated key. Verbs and keys are not looked up here (applyEdit does).
Edit parseEditLine(std::string_view line, size_t lineNumber = 1);
std::vector<Edit> parseScript(std::string_view text);

}  // namespace fb::edit
