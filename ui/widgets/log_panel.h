#pragma once
// Timestamped messages from the Document: what was opened, how long it took, errors, warnings.
#include <QPlainTextEdit>

namespace fb::ui {

class Document;

class LogPanel : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit LogPanel(Document* doc, QWidget* parent = nullptr);
  void append(const QString& text);
};

}  // namespace fb::ui
