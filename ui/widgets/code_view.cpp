#include "ui/widgets/code_view.h"

#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

#include "ui/theme/colors.h"
#include "ui/widgets/fixed_pitch_font.h"
#include "ui/widgets/python_highlighter.h"

namespace fb::ui {

// The margin left of the text; CodeView paints it.
class LineNumberArea : public QWidget {
 public:
  explicit LineNumberArea(CodeView* view) : QWidget(view), view_(view) {}
  QSize sizeHint() const override { return {view_->lineNumberWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { view_->paintLineNumbers(event); }

 private:
  CodeView* view_;
};

CodeView::CodeView(QWidget* parent)
    : QPlainTextEdit(parent), lineNumbers_(new LineNumberArea(this)), highlighter_(new PythonHighlighter(document())) {
  setReadOnly(true);
  // Read-only still keeps a visible, movable cursor: the cursor is how a line is chosen with the keyboard.
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(fixedPitchFont());
  setObjectName(QStringLiteral("codeView"));
  connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeView::updateMargin);
  connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
    if (dy)
      lineNumbers_->scroll(0, dy);
    else
      lineNumbers_->update(0, rect.y(), lineNumbers_->width(), rect.height());
  });
  connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    const int line = currentLine();
    if (line == lastLine_) return;
    lastLine_ = line;
    if (!movingCursor_) emit lineChosen(line);
  });
  updateMargin();
}

void CodeView::setCode(const QString& text) {
  movingCursor_ = true;
  setPlainText(text);
  movingCursor_ = false;
  lastLine_ = currentLine();
  highlighted_.clear();
  applyHighlight();
}

int CodeView::currentLine() const { return textCursor().blockNumber() + 1; }

void CodeView::highlightLines(const QList<int>& lines) {
  highlighted_ = lines;
  applyHighlight();
  lineNumbers_->update();
}

void CodeView::showLines(const QList<int>& lines, int focus) {
  highlightLines(lines);
  if (lines.isEmpty()) return;
  const QTextBlock block = document()->findBlockByNumber((focus > 0 ? focus : lines.first()) - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  movingCursor_ = true;
  setTextCursor(cursor);
  movingCursor_ = false;
  lastLine_ = currentLine();
  centerCursor();
}

void CodeView::applyHighlight() {
  QList<QTextEdit::ExtraSelection> selections;
  const QColor background = codeHighlightColor();
  for (int line : highlighted_) {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(block);
    s.format.setBackground(background);
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    selections.append(s);
  }
  setExtraSelections(selections);
}

int CodeView::lineNumberWidth() const {
  int digits = 1;
  for (int n = qMax(1, blockCount()); n >= 10; n /= 10) ++digits;
  return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, digits);
}

void CodeView::updateMargin() { setViewportMargins(lineNumberWidth(), 0, 0, 0); }

void CodeView::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect r = contentsRect();
  lineNumbers_->setGeometry(QRect(r.left(), r.top(), lineNumberWidth(), r.height()));
}

void CodeView::paintLineNumbers(QPaintEvent* event) {
  QPainter p(lineNumbers_);
  p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  const int height = fontMetrics().height();
  while (block.isValid() && top <= event->rect().bottom()) {
    const int bottom = top + qRound(blockBoundingRect(block).height());
    if (block.isVisible() && bottom >= event->rect().top()) {
      const int line = block.blockNumber() + 1;
      p.setPen(highlighted_.contains(line) ? palette().color(QPalette::Text)
                                           : palette().color(QPalette::PlaceholderText));
      p.drawText(0, top, lineNumbers_->width() - 4, height, Qt::AlignRight, QString::number(line));
    }
    block = block.next();
    top = bottom;
  }
}

}  // namespace fb::ui
