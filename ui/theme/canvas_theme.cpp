#include "ui/theme/canvas_theme.h"

#include <QCoreApplication>
#include <QEvent>
#include <QGuiApplication>
#include <QPalette>

namespace fb::ui {
namespace {

CanvasTheme& current() {
  static CanvasTheme theme = canvasThemeFor(QGuiApplication::palette());
  return theme;
}

}  // namespace

CanvasTheme canvasThemeFor(const QPalette& palette) {
  CanvasTheme t;
  t.dark = palette.color(QPalette::Window).lightness() < 128;
  if (t.dark) {
    t.background = QColor("#1e1f22");
    t.edge = QColor("#a8acb3");
    t.edgeLabel = QColor("#c8ccd4");
    t.blockFrameFill = QColor(160, 170, 210, 26);
    t.blockLabel = QColor("#aeb8d8");
  } else {
    t.background = QColor("#fbfbfb");
    t.edge = QColor("#666666");
    t.edgeLabel = QColor("#505050");
    t.blockFrameFill = QColor(120, 130, 170, 18);
    t.blockLabel = QColor("#4a5578");
  }
  return t;
}

const CanvasTheme& canvasTheme() { return current(); }

bool CanvasThemeNotifier::eventFilter(QObject* watched, QEvent* event) {
  if (watched == QCoreApplication::instance() && event->type() == QEvent::ApplicationPaletteChange) {
    current() = canvasThemeFor(QGuiApplication::palette());
    emit changed();
  }
  return QObject::eventFilter(watched, event);
}

CanvasThemeNotifier& canvasThemeNotifier() {
  static CanvasThemeNotifier* notifier = [] {
    auto* n = new CanvasThemeNotifier(QCoreApplication::instance());
    QCoreApplication::instance()->installEventFilter(n);
    return n;
  }();
  return *notifier;
}

}  // namespace fb::ui
