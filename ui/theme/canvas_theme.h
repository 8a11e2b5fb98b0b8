#pragma once
// The canvas's colours, light or dark after the system palette: a dark window colour (lightness below the
// middle) gives a dark canvas with light edges and labels. Node boxes keep their op-category fills and black
// text in both, as in Netron's dark mode. Items read the current theme when they paint; GraphScenes follow
// changes (the application palette changing at run time) through canvasThemeNotifier().
#include <QColor>
#include <QObject>

class QPalette;

namespace fb::ui {

struct CanvasTheme {
  bool dark = false;
  QColor background;
  QColor edge;
  QColor edgeLabel;
  QColor blockFrameFill;  // behind an expanded block's content
  QColor blockLabel;      // an expanded block's name
};

CanvasTheme canvasThemeFor(const QPalette& palette);
// The theme of the application palette now.
const CanvasTheme& canvasTheme();

// Emits changed() after the application palette changed and the theme was recomputed.
class CanvasThemeNotifier : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
 signals:
  void changed();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};
CanvasThemeNotifier& canvasThemeNotifier();

}  // namespace fb::ui
