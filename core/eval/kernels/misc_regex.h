#pragma once
// Regular expressions for RegexFullMatch, whose patterns are RE2 syntax and come from the model (untrusted): a
// Thompson automaton run over UTF-8 code points, so matching takes time linear in the text for every pattern
// (no backtracking blow-up) and the compiled program has a size bound. Covers literals, ., classes ([a-z], [^...],
// \d \w \s and their negations), groups ((...), (?:...), (?P<name>...)), |, * + ? {n} {n,} {n,m} (lazy forms
// too: for a full match they mean the same), ^ $ \A \z. Flags, \b, Unicode classes (\pL) and POSIX classes are
// refused with RunError(Unsupported).
#include <memory>
#include <string>
#include <vector>

namespace fb::eval {

class Regex {
 public:
  // Throws RunError: BadInput for a malformed pattern, Unsupported for syntax outside the subset above.
  static Regex compile(const std::string& pattern);
  // True when the whole of `text` matches.
  bool fullMatch(const std::string& text) const;
  // Instructions in the program: matching costs at most this many steps per code point of the text.
  size_t size() const;

  struct Inst;

 private:
  std::shared_ptr<const std::vector<Inst>> program_;
};

}  // namespace fb::eval
