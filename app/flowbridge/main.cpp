#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>

#include "ir/graph.h"
#include "ui/document.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace {

// --screenshot: once the model is laid out and fitted, grab the window into a PNG and quit.
// Exit code 2 (with one line on stderr) when the model cannot be opened or the PNG cannot be written.
void arrangeScreenshot(fb::ui::MainWindow& w, const QString& output, const QString& selectNode) {
  auto* doc = w.document();
  QObject::connect(doc, &fb::ui::Document::loadFailed, &w, [](const QString& path, const QString& message) {
    std::fprintf(stderr, "flowbridge: error: %s: %s\n", qPrintable(path), qPrintable(message));
    QCoreApplication::exit(2);
  });
  QObject::connect(doc, &fb::ui::Document::modelChanged, &w, [&w, output, selectNode] {
    // Let the scene be rebuilt and painted once before grabbing.
    QTimer::singleShot(50, &w, [&w, output, selectNode] {
      if (!selectNode.isEmpty()) {
        for (const auto& n : w.document()->model()->graph().nodes())
          if (QString::fromStdString(n->name) == selectNode) w.document()->selectNode(n.get());
      }
      w.view()->fitAll();
      const QPixmap shot = w.grab();
      try {
        fb::AtomicFile out(output.toStdString());
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (shot.isNull() || !shot.save(&buffer, "PNG")) throw fb::OutputError(output.toStdString() + ": cannot encode PNG");
        out.write(bytes.constData(), size_t(bytes.size()));
        out.commit();
        QCoreApplication::exit(0);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "flowbridge: error: %s\n", e.what());
        QCoreApplication::exit(2);
      }
    });
  });
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("FlowBridge");
  QApplication::setOrganizationName("FlowBridge");
  QApplication::setApplicationVersion(FLOWBRIDGE_VERSION);
  QCommandLineParser parser;
  parser.setApplicationDescription("FlowBridge: a graph inspector and converter for neural-network models.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption screenshot("screenshot", "Open the model, lay it out, fit it, write the window to <png> and exit.", "png");
  QCommandLineOption size("size", "Window size for --screenshot (default 1400x900).", "WxH", "1400x900");
  parser.addOption(screenshot);
  QCommandLineOption select("select", "With --screenshot: select this node first (fills the Node panel).", "node");
  parser.addOption(size);
  parser.addOption(select);
  parser.addPositionalArgument("model", "Model to open (default: the bundled sample).");
  parser.process(app);
  const QStringList args = parser.positionalArguments();
  const QString model = args.isEmpty() ? QStringLiteral(FB_SAMPLE_MODEL) : args.first();

  fb::ui::MainWindow w;
  if (parser.isSet(screenshot)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() == 2) w.resize(wh[0].toInt(), wh[1].toInt());
    arrangeScreenshot(w, parser.value(screenshot), parser.value(select));
  }
  w.show();
  w.openFile(model);
  return app.exec();
}
