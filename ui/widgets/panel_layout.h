#pragma once
// Where the panels (docks) are is kept between runs (QSettings), and View > Panels brings back any panel
// that was closed.
class QMainWindow;
class QMenu;

namespace fb::ui {

// False when there is no saved layout (or it is from an older arrangement): the window keeps its own.
bool restorePanelLayout(QMainWindow* window);
void savePanelLayout(const QMainWindow* window);
// Fills `menu` with a check item per dock of `window` (shown or closed).
void fillPanelsMenu(QMainWindow* window, QMenu* menu);

}  // namespace fb::ui
