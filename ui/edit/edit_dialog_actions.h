#pragma once
// The rich edit dialogs (ui/edit/dialogs/) as actions of the Edit menu and, where they act on the selection, of the
// graph's context menu: each opens its dialog on the selected node, value or weight, and what the dialog returns is
// applied through Document::applyEdit like any other edit.
namespace fb::ui {

class Editing;

void addEditDialogActions(Editing& editing);

}  // namespace fb::ui
