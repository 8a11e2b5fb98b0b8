#include "screenshot.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QSpinBox>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QTimer>
#include <cstdio>

#include "ir/graph.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/document.h"
#include "ui/conversion/convert_panel.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace fb::app {
namespace {

void failAndExit(int code, const QString& message) {
  std::fprintf(stderr, "flowbridge: error: %s\n", qPrintable(message));
  QCoreApplication::exit(code);
}

// The window, or with `graphOnly` the graph view's viewport alone.
QByteArray encode(ui::MainWindow& w, const QString& output, bool graphOnly) {
  QWidget* source = graphOnly ? static_cast<QWidget*>(w.view()->viewport()) : static_cast<QWidget*>(&w);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (output.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(source->size());
    svg.setViewBox(QRect(QPoint(0, 0), source->size()));
    svg.setTitle(QFileInfo(w.document()->path()).fileName());
    QPainter p(&svg);
    if (graphOnly)
      w.view()->render(&p, QRectF(QPointF(0, 0), source->size()), source->rect());
    else
      w.render(&p);
    p.end();
  } else {
    const QPixmap shot = source->grab();
    // Quality 0: the strongest zlib compression (screenshots go into the repository).
    if (shot.isNull() || !shot.save(&buffer, "PNG", 0)) throw OutputError(output.toStdString() + ": cannot encode PNG");
  }
  return bytes;
}

}  // namespace

void arrangeScreenshot(ui::MainWindow& w, const AppOptions& options) {
  auto* doc = w.document();
  if (options.graphOnly) {
    // The graph fills the window, so the picture is --size (less the breadcrumb).
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) dock->hide();
    w.menuBar()->hide();
    w.statusBar()->hide();
  }
  QObject::connect(doc, &ui::Document::loadFailed, &w, [](const QString& path, const QString& message) {
    failAndExit(kFileError, QStringLiteral("%1: %2").arg(path, message));
  });
  QObject::connect(doc, &ui::Document::modelChanged, &w, [&w, options] {
    const ir::Node* chosen = nullptr;
    if (!options.select.isEmpty()) {
      for (const auto& n : w.document()->model()->graph().nodes())
        if (QString::fromStdString(n->name) == options.select) chosen = n.get();
      if (!chosen) {
        failAndExit(
            kUsage,
            QStringLiteral("--select %1: no node of that name in %2").arg(options.select, w.document()->path()));
        return;
      }
      w.document()->selectNode(chosen);
    }
    // Let the scene be rebuilt and painted once before grabbing.
    auto grab = [&w, output = options.screenshot, graphOnly = options.graphOnly, keepView = options.opset > 0, chosen] {
      if (chosen) {
        // The selected node in the middle, at 100 %: readable, whatever the graph's size.
        w.view()->zoomBy(1.0 / w.view()->zoom());
        w.view()->centerOnNode(chosen);
      } else if (!keepView) {
        // What a user sees on opening the model: its first view (readable, at the inputs), not the whole graph
        // fitted into a strip; at the view's final size.
        w.view()->showStart();
      }
      try {
        fb::AtomicFile out(output.toStdString());
        const QByteArray bytes = encode(w, output, graphOnly);
        out.write(bytes.constData(), size_t(bytes.size()));
        out.commit();
        QCoreApplication::exit(kOk);
      } catch (const std::exception& e) {
        failAndExit(kFileError, QString::fromStdString(e.what()));
      }
    };
    if (!options.opset) {
      QTimer::singleShot(50, &w, grab);
      return;
    }
    // Statuses (and the preview) come from workers: grab once they are on screen, with the status table in front.
    if (!options.graphOnly) {
      w.conversion()->convertDock()->show();
      w.conversion()->convertDock()->raise();
    }
    auto* controller = w.conversion()->controller();
    auto* previewDoc = w.conversion()->previewDocument();
    auto later = [&w, grab] { QTimer::singleShot(100, &w, grab); };
    QObject::connect(controller, &ui::ConversionController::conversionFailed, &w, [](const QString& message) {
      failAndExit(kFileError, QStringLiteral("--preview: %1").arg(message));
    });
    if (options.preview) {
      QObject::connect(previewDoc, &ui::Document::modelChanged, &w, [previewDoc, later] {
        if (previewDoc->model()) later();
      });
      QObject::connect(
          controller, &ui::ConversionController::dryRunFinished, &w,
          [controller] {
            if (!controller->isConverting() && !controller->hasConversion()) controller->convert();
          },
          Qt::SingleShotConnection);
    } else {
      QObject::connect(controller, &ui::ConversionController::dryRunFinished, &w, later, Qt::SingleShotConnection);
    }
    // Through the panel, so that it shows the opset the statuses are for.
    if (controller->targetOpset() == options.opset)
      controller->refresh();
    else
      w.conversion()->panel()->opsetBox()->setValue(options.opset);
  });
}

}  // namespace fb::app
