#pragma once
// The simple input the edit actions ask for (a name, a shape, a choice among a few), as functions so that tests
// answer them. std::nullopt is Cancel.
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

class QWidget;

namespace fb::ui {

struct EditQuestions {
  std::function<std::optional<QString>(QWidget* parent, const QString& title, const QString& label,
                                       const QString& initial)>
      text;
  std::function<std::optional<QString>(QWidget* parent, const QString& title, const QString& label,
                                       const QStringList& items, int current)>
      item;
  // QInputDialog's getText and getItem.
  static EditQuestions inputDialogs();
};

}  // namespace fb::ui
