#include "ui/widgets/python_highlighter.h"

#include <QStringList>

namespace fb::ui {
namespace {
QTextCharFormat colour(const char* name, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(QColor(name));
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}
}  // namespace

PythonHighlighter::PythonHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
  static const QStringList keywords = {"False",   "None",     "True",     "and",    "as",    "assert", "break",
                                       "class",   "continue", "def",      "del",    "elif",  "else",   "except",
                                       "finally", "for",      "from",     "global", "if",    "import", "in",
                                       "is",      "lambda",   "nonlocal", "not",    "or",    "pass",   "raise",
                                       "return",  "try",      "while",    "with",   "yield", "self"};
  rules_.push_back({QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(keywords.join('|'))), colour("#0033b3", true)});
  rules_.push_back({QRegularExpression(QStringLiteral(
                        "\\b(0[xX][0-9a-fA-F]+|\\d+\\.?\\d*([eE][-+]?\\d+)?|\\.\\d+([eE][-+]?\\d+)?)\\b")),
                    colour("#1750eb")});
  rules_.push_back(
      {QRegularExpression(QStringLiteral("\"(\\\\.|[^\"\\\\])*\"|'(\\\\.|[^'\\\\])*'")), colour("#067d17")});
}

void PythonHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : rules_)
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      const auto m = it.next();
      setFormat(int(m.capturedStart()), int(m.capturedLength()), rule.format);
    }
  // A comment starts at the first '#' outside a string and runs to the end of the line.
  QChar quote;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (!quote.isNull()) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = QChar();
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      setFormat(i, int(text.size()) - i, colour("#8c8c8c", false, true));
      break;
    }
  }
}

}  // namespace fb::ui
