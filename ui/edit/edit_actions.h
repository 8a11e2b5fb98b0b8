#pragma once
// The edits that need only simple input, as actions for the Edit menu and the graph's context menu: each builds an
// edit from the selection (and a name, a shape or a choice it asks for) and applies it through
// Document::applyEdit. A rich dialog becomes an action the same way: addDialogAction().
#include <QList>
#include <QObject>
#include <functional>
#include <optional>

#include "edit/edit.h"
#include "ui/edit/edit_questions.h"

class QAction;
class QMainWindow;

namespace fb::ui {

class Document;

class EditActions : public QObject {
  Q_OBJECT
 public:
  // Builds the edit, or nullopt when cancelled (or nothing to edit).
  using EditBuilder = std::function<std::optional<edit::Edit>(QWidget* parent, const Document& doc)>;
  // Whether the action applies to the document's selection now (the document is editable).
  using Applicable = std::function<bool(const Document& doc)>;

  EditActions(Document* doc, QMainWindow* window);

  // In the order the Edit menu lists them; contextActions() are those that act on the selection.
  const QList<QAction*>& actions() const { return actions_; }
  const QList<QAction*>& contextActions() const { return contextActions_; }
  // Adds an action (to actions(), and to contextActions() when `onSelection`) that applies what `build` returns.
  QAction* addDialogAction(const QString& objectName, const QString& text, EditBuilder build,
                           Applicable applicable = {}, bool onSelection = false);
  // Applies `e`; a refusal goes to the Log and the status bar. True when applied.
  bool apply(const edit::Edit& e);

  void setQuestions(EditQuestions q) { questions_ = std::move(q); }

 private:
  void updateEnabled();

  Document* doc_;
  QMainWindow* window_;
  EditQuestions questions_ = EditQuestions::inputDialogs();
  QList<QAction*> actions_, contextActions_;
  QList<std::pair<QAction*, Applicable>> applicable_;
};

}  // namespace fb::ui
