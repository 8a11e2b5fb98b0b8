#pragma once
// A read-only source view: monospace text with line numbers in a margin and Python colouring. Lines can be
// highlighted and brought into view from outside (showLines); moving the cursor to another line, by click or
// keys, is reported as lineChosen (1-based) so the owner can select what the line belongs to.
#include <QList>
#include <QPlainTextEdit>

namespace fb::ui {

class PythonHighlighter;

class CodeView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit CodeView(QWidget* parent = nullptr);

  // Replaces the text (and clears the highlighted lines).
  void setCode(const QString& text);
  // Highlights these 1-based lines (an empty list clears the highlight); the cursor stays where it is.
  void highlightLines(const QList<int>& lines);
  // Highlights the lines and scrolls `focus` (0: the first of them) into the middle of the view; the cursor goes
  // there without reporting lineChosen.
  void showLines(const QList<int>& lines, int focus = 0);
  const QList<int>& highlightedLines() const { return highlighted_; }
  // The 1-based line the cursor is on.
  int currentLine() const;
  // The line number margin (tests and painting).
  int lineNumberWidth() const;

 signals:
  void lineChosen(int line);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  friend class LineNumberArea;
  void paintLineNumbers(QPaintEvent* event);
  void updateMargin();
  void applyHighlight();

  QWidget* lineNumbers_;
  PythonHighlighter* highlighter_;
  QList<int> highlighted_;
  int lastLine_ = 0;
  bool movingCursor_ = false;
};

}  // namespace fb::ui
