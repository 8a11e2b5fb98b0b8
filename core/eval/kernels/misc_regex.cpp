#include "eval/kernels/misc_regex.h"

#include <cctype>
#include <cstdint>
#include <utility>

#include "eval/runtime/run_error.h"

namespace fb::eval {

// One instruction of the automaton.
struct Regex::Inst {
  enum class Op { Class, Split, Jump, Begin, End, Match };
  Op op = Op::Match;
  std::vector<std::pair<char32_t, char32_t>> ranges;  // Class: code point ranges, inclusive
  bool negated = false;
  int x = 0, y = 0;  // Split: both targets; Jump: x
};

namespace {

using Inst = Regex::Inst;
using Ranges = std::vector<std::pair<char32_t, char32_t>>;

constexpr size_t kMaxProgram = 50000;  // instructions, after counted repeats are expanded
constexpr int kMaxRepeat = 1000;       // RE2's own limit on {n,m}
constexpr int kMaxDepth = 200;         // nested groups

// A pattern as a tree: the parser builds it, the compiler lays it out as instructions.
struct Node {
  enum class Kind { Empty, Class, Begin, End, Concat, Alternate, Repeat };
  Kind kind = Kind::Empty;
  Ranges ranges;
  bool negated = false;
  int min = 0, max = -1;  // Repeat; max -1: unbounded
  std::vector<Node> children;
};

// UTF-8 code point at `k` (an invalid byte stands for itself); advances k.
char32_t decode(const std::string& s, size_t& k) {
  const unsigned char b = static_cast<unsigned char>(s[k]);
  const size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len <= 1 || k + len > s.size()) {
    ++k;
    return b;
  }
  char32_t cp = b & (0x7F >> len);
  for (size_t j = 1; j < len; ++j) {
    const unsigned char c = static_cast<unsigned char>(s[k + j]);
    if ((c & 0xC0) != 0x80) {
      ++k;
      return b;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  k += len;
  return cp;
}

class Parser {
 public:
  explicit Parser(const std::string& p) : p_(p) {}

  Node parse() {
    Node n = alternation(0);
    if (k_ < p_.size()) badInput("regex pattern has an unmatched ')'");
    return n;
  }

 private:
  bool more() const { return k_ < p_.size(); }
  char peek() const { return p_[k_]; }

  Node alternation(int depth) {
    if (depth > kMaxDepth) badInput("regex pattern nests too deeply");
    Node alt{Node::Kind::Alternate, {}, false, 0, -1, {}};
    alt.children.push_back(concat(depth));
    while (more() && peek() == '|') {
      ++k_;
      alt.children.push_back(concat(depth));
    }
    return alt.children.size() == 1 ? std::move(alt.children[0]) : alt;
  }

  Node concat(int depth) {
    Node cat{Node::Kind::Concat, {}, false, 0, -1, {}};
    while (more() && peek() != '|' && peek() != ')') cat.children.push_back(repeat(depth));
    return cat;
  }

  int number() {
    if (!more() || peek() < '0' || peek() > '9') badInput("regex pattern has a malformed {n,m}");
    int v = 0;
    while (more() && peek() >= '0' && peek() <= '9') {
      v = v * 10 + (peek() - '0');
      if (v > kMaxRepeat) badInput("regex repeat count over " + std::to_string(kMaxRepeat));
      ++k_;
    }
    return v;
  }

  Node repeat(int depth) {
    Node n = atom(depth);
    // One quantifier per atom, as RE2 has it ("a**" is an error there): no unbounded chain of nested repeats.
    if (more()) {
      int lo, hi;
      const char ch = peek();
      if (ch == '*') {
        lo = 0, hi = -1, ++k_;
      } else if (ch == '+') {
        lo = 1, hi = -1, ++k_;
      } else if (ch == '?') {
        lo = 0, hi = 1, ++k_;
      } else if (ch == '{') {
        ++k_;
        lo = number();
        hi = lo;
        if (more() && peek() == ',') {
          ++k_;
          hi = more() && peek() == '}' ? -1 : number();
        }
        if (!more() || peek() != '}' || (hi >= 0 && hi < lo)) badInput("regex pattern has a malformed {n,m}");
        ++k_;
      } else {
        return n;
      }
      if (more() && peek() == '?') ++k_;  // lazy: the same set of full matches
      if (more() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{'))
        badInput("regex pattern has a repeated quantifier");
      if (n.kind == Node::Kind::Begin || n.kind == Node::Kind::End) badInput("regex repeats an anchor");
      Node r{Node::Kind::Repeat, {}, false, lo, hi, {}};
      r.children.push_back(std::move(n));
      n = std::move(r);
    }
    return n;
  }

  static Node cls(Ranges r, bool negated = false) { return Node{Node::Kind::Class, std::move(r), negated, 0, -1, {}}; }

  // \d \w \s (and their upper-case negations): true with `out` set when `ch` names one.
  static bool perlClass(char ch, Ranges& out, bool& negated) {
    switch (ch) {
      case 'd':
      case 'D':
        out = {{'0', '9'}};
        break;
      case 'w':
      case 'W':
        out = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
        break;
      case 's':
      case 'S':
        out = {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}};
        break;
      default:
        return false;
    }
    negated = ch >= 'A' && ch <= 'Z';
    return true;
  }

  // The code point of an escape that stands for one character (after the backslash).
  char32_t escapedChar() {
    if (!more()) badInput("regex pattern ends in a backslash");
    const char ch = p_[k_++];
    switch (ch) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case 'a':
        return '\a';
      case 'x': {
        const bool braced = more() && peek() == '{';
        if (braced) ++k_;
        char32_t v = 0;
        int digits = 0;
        while (more() && std::isxdigit(static_cast<unsigned char>(peek())) && (braced || digits < 2)) {
          const char h = p_[k_++];
          v = v * 16 + static_cast<char32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
          if (++digits > 8) badInput("regex \\x escape too long");
        }
        if (braced) {
          if (!more() || peek() != '}') badInput("regex \\x{...} escape is not closed");
          ++k_;
        }
        if (digits == 0 || (!braced && digits != 2)) badInput("regex \\x escape needs hex digits");
        return v;
      }
      default:
        if (std::isalnum(static_cast<unsigned char>(ch)))
          unsupported(std::string("regex escape \\") + ch + " is not implemented by the evaluator");
        return static_cast<unsigned char>(ch);
    }
  }

  Node atom(int depth) {
    const char ch = peek();
    if (ch == '(') {
      ++k_;
      if (more() && peek() == '?') {
        ++k_;
        if (more() && peek() == ':') {
          ++k_;
        } else if (more() && (peek() == 'P' || peek() == '<')) {
          if (peek() == 'P') ++k_;
          if (!more() || peek() != '<') badInput("regex group name is malformed");
          const size_t close = p_.find('>', k_);
          if (close == std::string::npos) badInput("regex group name is not closed");
          k_ = close + 1;
        } else {
          unsupported("regex flags ((?...)) are not implemented by the evaluator");
        }
      }
      Node inner = alternation(depth + 1);
      if (!more() || peek() != ')') badInput("regex pattern has an unclosed '('");
      ++k_;
      return inner;
    }
    if (ch == '[') return bracket();
    if (ch == '*' || ch == '+' || ch == '?' || ch == '{')
      badInput(std::string("regex pattern has a stray '") + ch + "'");
    if (ch == '.') {
      ++k_;
      return cls({{'\n', '\n'}}, true);
    }
    if (ch == '^' || ch == '$') {
      ++k_;
      return Node{ch == '^' ? Node::Kind::Begin : Node::Kind::End, {}, false, 0, -1, {}};
    }
    if (ch == '\\') {
      ++k_;
      if (!more()) badInput("regex pattern ends in a backslash");
      Ranges r;
      bool negated = false;
      if (perlClass(peek(), r, negated)) {
        ++k_;
        return cls(r, negated);
      }
      if (peek() == 'A' || peek() == 'z') {
        const bool begin = p_[k_++] == 'A';
        return Node{begin ? Node::Kind::Begin : Node::Kind::End, {}, false, 0, -1, {}};
      }
      const char32_t c = escapedChar();
      return cls({{c, c}});
    }
    const char32_t c = decode(p_, k_);
    return cls({{c, c}});
  }

  Node bracket() {
    ++k_;  // '['
    bool negated = false;
    if (more() && peek() == '^') negated = true, ++k_;
    Ranges r;
    bool first = true;
    for (;;) {
      if (!more()) badInput("regex class is not closed");
      if (peek() == ']' && !first) {
        ++k_;
        break;
      }
      first = false;
      if (p_.compare(k_, 2, "[:") == 0) unsupported("regex POSIX classes ([:alpha:]) are not implemented");
      char32_t lo;
      if (peek() == '\\') {
        ++k_;
        Ranges perl;
        bool neg = false;
        if (more() && perlClass(peek(), perl, neg)) {
          if (neg) unsupported("regex negated class escapes inside [...] are not implemented");
          ++k_;
          r.insert(r.end(), perl.begin(), perl.end());
          continue;
        }
        lo = escapedChar();
      } else {
        lo = decode(p_, k_);
      }
      char32_t hi = lo;
      if (k_ + 1 < p_.size() && peek() == '-' && p_[k_ + 1] != ']') {
        ++k_;
        if (peek() == '\\') {
          ++k_;
          hi = escapedChar();
        } else {
          hi = decode(p_, k_);
        }
        if (hi < lo) badInput("regex class range is reversed");
      }
      r.emplace_back(lo, hi);
    }
    return cls(std::move(r), negated);
  }

  const std::string& p_;
  size_t k_ = 0;
};

class Compiler {
 public:
  std::vector<Inst> program;

  void emit(const Node& n) {
    if (program.size() > kMaxProgram) badInput("regex pattern is too large");
    switch (n.kind) {
      case Node::Kind::Empty:
        return;
      case Node::Kind::Class: {
        Inst i;
        i.op = Inst::Op::Class;
        i.ranges = n.ranges;
        i.negated = n.negated;
        program.push_back(std::move(i));
        return;
      }
      case Node::Kind::Begin:
      case Node::Kind::End: {
        Inst i;
        i.op = n.kind == Node::Kind::Begin ? Inst::Op::Begin : Inst::Op::End;
        program.push_back(i);
        return;
      }
      case Node::Kind::Concat:
        for (const Node& c : n.children) emit(c);
        return;
      case Node::Kind::Alternate: {
        // split L1, L2; L1: a; jump end; L2: split ...
        std::vector<size_t> jumps;
        for (size_t k = 0; k < n.children.size(); ++k) {
          if (k + 1 < n.children.size()) {
            const size_t split = add(Inst::Op::Split);
            program[split].x = static_cast<int>(program.size());
            emit(n.children[k]);
            jumps.push_back(add(Inst::Op::Jump));
            program[split].y = static_cast<int>(program.size());
          } else {
            emit(n.children[k]);
          }
        }
        for (size_t j : jumps) program[j].x = static_cast<int>(program.size());
        return;
      }
      case Node::Kind::Repeat: {
        const Node& body = n.children[0];
        for (int k = 0; k < n.min; ++k) emit(body);
        if (n.max < 0) {  // L: split body, end; body; jump L
          const size_t split = add(Inst::Op::Split);
          program[split].x = static_cast<int>(program.size());
          emit(body);
          const size_t back = add(Inst::Op::Jump);
          program[back].x = static_cast<int>(split);
          program[split].y = static_cast<int>(program.size());
          return;
        }
        std::vector<size_t> splits;
        for (int k = n.min; k < n.max; ++k) {  // each optional copy may end the repeat
          const size_t split = add(Inst::Op::Split);
          program[split].x = static_cast<int>(program.size());
          splits.push_back(split);
          emit(body);
        }
        for (size_t s : splits) program[s].y = static_cast<int>(program.size());
        return;
      }
    }
  }

 private:
  size_t add(Inst::Op op) {
    Inst i;
    i.op = op;
    program.push_back(i);
    return program.size() - 1;
  }
};

bool inClass(const Inst& i, char32_t c) {
  bool in = false;
  for (const auto& [lo, hi] : i.ranges)
    if (c >= lo && c <= hi) {
      in = true;
      break;
    }
  return in != i.negated;
}

}  // namespace

Regex Regex::compile(const std::string& pattern) {
  Parser parser(pattern);
  const Node tree = parser.parse();
  Compiler c;
  c.emit(tree);
  Inst match;
  match.op = Inst::Op::Match;
  c.program.push_back(match);
  Regex r;
  r.program_ = std::make_shared<const std::vector<Inst>>(std::move(c.program));
  return r;
}

size_t Regex::size() const { return program_->size(); }

bool Regex::fullMatch(const std::string& text) const {
  const std::vector<Inst>& prog = *program_;
  const size_t n = prog.size();
  std::vector<int> current, next, stack;
  std::vector<size_t> seen(n, SIZE_MAX);  // the step at which each instruction was last added
  size_t step = 0;
  bool atEnd = text.empty();
  // Adds pc and every instruction reachable from it without reading a code point.
  auto addThread = [&](std::vector<int>& list, int pc0, bool atBegin) {
    stack.assign(1, pc0);
    while (!stack.empty()) {
      const int pc = stack.back();
      stack.pop_back();
      if (seen[pc] == step) continue;
      seen[pc] = step;
      const Inst& i = prog[pc];
      switch (i.op) {
        case Inst::Op::Jump:
          stack.push_back(i.x);
          break;
        case Inst::Op::Split:
          stack.push_back(i.y);
          stack.push_back(i.x);
          break;
        case Inst::Op::Begin:
          if (atBegin) stack.push_back(pc + 1);
          break;
        case Inst::Op::End:
          if (atEnd) stack.push_back(pc + 1);
          break;
        default:
          list.push_back(pc);
      }
    }
  };
  addThread(current, 0, true);
  size_t k = 0;
  while (k < text.size() && !current.empty()) {
    const char32_t c = decode(text, k);
    atEnd = k >= text.size();
    ++step;
    next.clear();
    for (int pc : current)
      if (prog[pc].op == Inst::Op::Class && inClass(prog[pc], c)) addThread(next, pc + 1, false);
    std::swap(current, next);
  }
  if (k < text.size()) return false;
  for (int pc : current)
    if (prog[pc].op == Inst::Op::Match) return true;
  return false;
}

}  // namespace fb::eval
