#include "ui/widgets/panel_layout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

namespace fb::ui {

namespace {
const char* kStateKey = "window/panels";
const char* kGeometryKey = "window/geometry";
// 2: the preview is a split beside the source, no longer a dock; 3: the laptop-sized arrangement (issue 26)
constexpr int kStateVersion = 3;
}  // namespace

bool restorePanelLayout(QMainWindow* window) {
  QSettings settings;
  const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
  if (!geometry.isEmpty()) window->restoreGeometry(geometry);
  const QByteArray state = settings.value(kStateKey).toByteArray();
  return !state.isEmpty() && window->restoreState(state, kStateVersion);
}

void savePanelLayout(const QMainWindow* window) {
  QSettings settings;
  settings.setValue(kGeometryKey, window->saveGeometry());
  settings.setValue(kStateKey, window->saveState(kStateVersion));
}

void fillPanelsMenu(QMainWindow* window, QMenu* menu) {
  for (QDockWidget* dock : window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
    menu->addAction(dock->toggleViewAction());
}

}  // namespace fb::ui
