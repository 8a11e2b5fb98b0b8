#pragma once
// --screenshot: once the model is laid out, select the requested node, show the graph's first view (as on
// opening it), write the window as PNG or SVG (atomically) and quit with the exit code of command_line.h.
#include "command_line.h"

namespace fb::ui {
class MainWindow;
}

namespace fb::app {

void arrangeScreenshot(ui::MainWindow& window, const AppOptions& options);

}  // namespace fb::app
