#include "ui/widgets/log_panel.h"

#include <QTime>

#include "ui/document.h"

namespace fb::ui {

LogPanel::LogPanel(Document* doc, QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setMaximumBlockCount(5000);
  connect(doc, &Document::logMessage, this, &LogPanel::append);
}

void LogPanel::append(const QString& text) {
  appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss.zzz  ")) + text);
}

}  // namespace fb::ui
