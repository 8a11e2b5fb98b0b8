#pragma once
// What every edit dialog shares: it turns the user's input into fb::edit::Edit values, and while
// fb::edit::checkEdit says one of them does not apply to the model, OK is disabled and the one-line reason is shown
// under the form. Dialogs never change the model: the caller applies what edits() returns (through the Document's
// undo stack in the app). Each dialog has a static ask() for the app and a non-modal path for tests: construct it,
// set its widgets, call revalidate(), read edits() / reason() / canAccept().
#include <QDialog>
#include <optional>
#include <string>
#include <vector>

#include "edit/edit.h"
#include "ir/model.h"

class QDialogButtonBox;
class QLabel;
class QTimer;
class QVBoxLayout;

namespace fb::ui {

// A model string (node, value, attribute name, metadata) as a dialog shows it: control characters, bidi controls
// and non-UTF-8 bytes escaped (util/printable.h), "(unnamed)" for an empty one, and elided in the middle past
// `maxChars` so a megabyte-long name cannot stretch a dialog.
QString shownName(const std::string& s, int maxChars = 80);
// A reason or other one-line text that quotes model strings: escaped and elided the same way.
QString shownLine(const std::string& s, int maxChars = 240);

class EditDialog : public QDialog {
  Q_OBJECT

 public:
  // The edits the form describes now (empty when it describes none). Several edits are applied in order, as one
  // user action.
  virtual std::vector<edit::Edit> edits() const = 0;
  // Why OK is disabled (the first edit checkEdit refuses, or what the form lacks); empty when OK is enabled.
  QString reason() const { return reason_; }
  bool canAccept() const { return reason_.isEmpty(); }

 public slots:
  // Checks the form now (the widgets' changes check it after a short pause, so a .npy file is not read at every
  // keystroke).
  void revalidate();
  // Widgets call this when the user changed something.
  void scheduleRevalidate();

 protected:
  EditDialog(const ir::Model& model, const QString& title, QWidget* parent);
  // The form goes here; finishLayout() then adds the reason line and the buttons below it.
  QVBoxLayout* body() const { return body_; }
  void finishLayout();
  // A reason the form itself has before any edit is checked ("choose an op"); nullopt when none.
  virtual std::optional<std::string> formReason() const { return std::nullopt; }
  // Runs the dialog modally; the edits when the user pressed OK.
  std::optional<std::vector<edit::Edit>> run();

  const ir::Model& model_;

 private:
  QVBoxLayout* body_ = nullptr;
  QLabel* reasonLabel_ = nullptr;
  QLabel* scriptLabel_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  QTimer* pause_ = nullptr;
  QString reason_;
};

}  // namespace fb::ui
