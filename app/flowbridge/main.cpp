#include <QApplication>

#include "command_line.h"
#include "eval/runtime/passive_waits.h"
#include "screenshot.h"
#include "ui/main_window.h"

int main(int argc, char** argv) {
  // Run and Verify use the evaluator's threads: passive waits, as flowbridge-cli run (see passive_waits.h).
  fb::eval::reexecWithPassiveWaits(argv);
  // Set before any application object: --help and --version are answered before QApplication exists.
  QCoreApplication::setApplicationName("FlowBridge");
  QCoreApplication::setOrganizationName("FlowBridge");
  QCoreApplication::setApplicationVersion(FLOWBRIDGE_VERSION);
  QStringList raw;
  for (int i = 0; i < argc; ++i) raw << QString::fromLocal8Bit(argv[i]);
  const fb::app::CommandLine cl = fb::app::readCommandLine(raw, QStringLiteral(FB_SAMPLE_MODEL), argc, argv);
  if (cl.exitCode) return *cl.exitCode;

  QApplication app(argc, argv);
  const fb::app::AppOptions& o = cl.options;

  // A screenshot neither depends on the user's settings (saved layout, geometry) nor changes them (Open Recent).
  const bool screenshot = !o.screenshot.isEmpty();
  fb::ui::MainWindow w(nullptr,
                       screenshot ? fb::ui::MainWindow::Settings::Ignore : fb::ui::MainWindow::Settings::UseSaved);
  if (screenshot) {
    w.resize(o.size);
    fb::app::arrangeScreenshot(w, o);
  }
  w.show();
  w.openFile(o.model);
  return app.exec();
}
