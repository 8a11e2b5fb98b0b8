#include "ui/edit/edit_questions.h"

#include <QInputDialog>

namespace fb::ui {

EditQuestions EditQuestions::inputDialogs() {
  EditQuestions q;
  q.text = [](QWidget* parent, const QString& title, const QString& label,
              const QString& initial) -> std::optional<QString> {
    bool ok = false;
    const QString s = QInputDialog::getText(parent, title, label, QLineEdit::Normal, initial, &ok);
    return ok ? std::optional(s) : std::nullopt;
  };
  q.item = [](QWidget* parent, const QString& title, const QString& label, const QStringList& items,
              int current) -> std::optional<QString> {
    bool ok = false;
    const QString s = QInputDialog::getItem(parent, title, label, items, current, false, &ok);
    return ok ? std::optional(s) : std::nullopt;
  };
  return q;
}

}  // namespace fb::ui
