#pragma once
// The questions saving asks, as functions so that tests answer them (no modal dialog blocks an offscreen test).
#include <QString>
#include <functional>

class QWidget;

namespace fb::ui {

// Closing the window or opening another model while the model has unsaved edits.
enum class UnsavedEditsAnswer { Save, Discard, Cancel };
using AskUnsavedEdits = std::function<UnsavedEditsAnswer(QWidget* parent, const QString& modelName, int edits)>;
// A QMessageBox (Save / Discard / Cancel, Cancel by Escape), named "unsavedEditsQuestion".
AskUnsavedEdits unsavedEditsMessageBox();

// Writing over the file the model was read from: true only for an explicit yes.
using ConfirmOverwriteOpened = std::function<bool(QWidget* parent, const QString& path)>;
// A QMessageBox (Replace / Cancel, Cancel the default), named "overwriteOpenedQuestion".
ConfirmOverwriteOpened overwriteOpenedMessageBox();

}  // namespace fb::ui
