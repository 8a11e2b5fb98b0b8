#pragma once
// Colours Python source in a QTextDocument, kept simple on purpose: keywords, comments, strings and numbers,
// one line at a time (generated code has no multi-line strings).
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace fb::ui {

class PythonHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  explicit PythonHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;  // applied in order; later rules win (strings and comments come last)
};

}  // namespace fb::ui
