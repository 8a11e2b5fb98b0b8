#pragma once
// The desktop app's command line, read before any QApplication exists: --help, --version and bad arguments
// are answered without a display. Exit codes (README, "Desktop inspector"):
//   0  success, --help, --version
//   1  usage error: unknown option, bad --size, --size/--select/--graph-only/--opset/--preview without
//      --screenshot, bad --opset, --preview without --opset, a --select name
//      that is not a node of the model, more than one model
//   2  the model cannot be opened, or the screenshot cannot be written: it is the model, it exists and is
//      not a picture, it does not end in .png or .svg, or writing failed (nothing is left behind)
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

namespace fb::app {

enum ExitCode { kOk = 0, kUsage = 1, kFileError = 2 };

struct AppOptions {
  QString model;
  QString screenshot;  // picture to write, empty for an interactive session
  QSize size{1400, 900};
  QString select;          // node to select before the screenshot; the picture is centred on it at 100 %
  bool graphOnly = false;  // the graph view alone, at the first view (or on --select), instead of the window
  int opset = 0;           // target opset to mark statuses for before the screenshot (0: none)
  bool preview = false;    // with opset: convert and show the preview beside the source
};

struct CommandLine {
  AppOptions options;
  // Set when the app must exit now with this code (help or version printed, or a one-line error on stderr).
  std::optional<int> exitCode;
};

// `args` includes the program name; Qt's own options (-platform, -style, ...) are skipped, QApplication reads
// them. `defaultModel` is opened when none is given. argc/argv are for the temporary QCoreApplication that
// --help and --version print through.
CommandLine readCommandLine(const QStringList& args, const QString& defaultModel, int& argc, char** argv);

// The one-line reason a screenshot cannot go to `output` for `model`, empty when it can.
QString refuseScreenshotOutput(const QString& output, const QString& model);

}  // namespace fb::app
