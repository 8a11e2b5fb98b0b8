#include <QApplication>
#include <QCommandLineParser>

#include "ui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("FlowBridge");
  QApplication::setOrganizationName("FlowBridge");
  QApplication::setApplicationVersion(FLOWBRIDGE_VERSION);
  QCommandLineParser parser;
  parser.setApplicationDescription("FlowBridge: a graph inspector and converter for neural-network models.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("model", "Model to open (default: the bundled sample).");
  parser.process(app);
  fb::ui::MainWindow w;
  const QStringList args = parser.positionalArguments();
  w.openFile(args.isEmpty() ? QStringLiteral(FB_SAMPLE_MODEL) : args.first());
  w.show();
  return app.exec();
}
