#include "command_line.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cstdio>

#include "util/atomic_file.h"

namespace fb::app {
namespace {

constexpr int kMinSide = 100, kMaxSide = 16384;

void fail(const QString& message) { std::fprintf(stderr, "flowbridge: error: %s\n", qPrintable(message)); }

// An existing file may be replaced only if it is a picture already (a screenshot from an earlier run).
bool isPicture(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return false;
  const QByteArray head = f.read(4096);
  if (head.startsWith("\x89PNG\r\n\x1a\n")) return true;
  const QByteArray text = head.trimmed();
  return (text.startsWith("<?xml") || text.startsWith("<svg") || text.startsWith("<!--")) && head.contains("<svg");
}

// QGuiApplication's and QApplication's own options, with and without a value: they are QApplication's to read.
QStringList withoutQtOptions(const QStringList& args) {
  static const QStringList withValue = {
      "platform",    "platformpluginpath", "platformtheme", "plugin",  "qwindowgeometry",
      "qwindowicon", "qwindowtitle",       "session",       "display", "geometry",
      "style",       "stylesheet",         "title",         "name"};
  static const QStringList flags = {"reverse", "widgetcount", "nograb", "dograb", "sync", "testability"};
  QStringList out;
  for (qsizetype i = 0; i < args.size(); ++i) {
    QString name = args[i];
    if (i == 0 || !name.startsWith('-') || name == QLatin1String("--")) {
      out << args[i];
      continue;
    }
    name.remove(0, name.startsWith(QLatin1String("--")) ? 2 : 1);
    if (name.startsWith(QLatin1String("qmljsdebugger=")) || name.startsWith(QLatin1String("style=")) ||
        flags.contains(name))
      continue;
    if (withValue.contains(name)) {
      ++i;  // and its value
      continue;
    }
    out << args[i];
  }
  return out;
}

}  // namespace

QString refuseScreenshotOutput(const QString& output, const QString& model) {
  const QString suffix = QFileInfo(output).suffix().toLower();
  if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
    return QStringLiteral("%1: the screenshot must be a .png or .svg file (give the picture's name after --screenshot)")
        .arg(output);
  try {
    ensureNotOverwritingInput(output.toStdString(), model.toStdString());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  const QFileInfo info(output);
  if (info.exists() && (!info.isFile() || !isPicture(output)))
    return QStringLiteral("%1: exists and is not a picture; not replacing it").arg(output);
  return {};
}

CommandLine readCommandLine(const QStringList& args, const QString& defaultModel, int& argc, char** argv) {
  QCommandLineParser parser;
  parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);  // -platform, like Qt's own
  parser.setApplicationDescription(
      "FlowBridge: a graph inspector and converter for neural-network models.\n"
      "Exit codes: 0 success; 1 usage error; 2 the model cannot be opened or the "
      "screenshot cannot be written.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption screenshot(
      "screenshot",
      "Open the model, lay it out, show its first view (the inputs at a readable zoom, as on opening it), "
      "write the window to <picture> (.png or .svg) and exit. The saved panel layout and Open Recent are "
      "neither read nor changed.",
      "picture");
  QCommandLineOption size("size", "Window size for --screenshot (default 1400x900).", "WxH");
  QCommandLineOption select("select",
                            "With --screenshot: select this node first (fills the Node panel) and centre "
                            "the picture on it at 100 %.",
                            "node");
  QCommandLineOption graphOnly("graph-only",
                               "With --screenshot: write the graph alone (no panels), at the first view "
                               "or centred on --select.");
  parser.addOption(screenshot);
  parser.addOption(size);
  parser.addOption(select);
  parser.addOption(graphOnly);
  QCommandLineOption opset("opset", "With --screenshot: mark what converting to opset <N> does to each node.", "N");
  QCommandLineOption preview("preview",
                             "With --screenshot and --opset: convert and show the converted graph "
                             "beside the source.");
  parser.addOption(opset);
  parser.addOption(preview);
  parser.addPositionalArgument("model", "Model to open (default: the bundled sample).", "[model]");

  CommandLine out;
  const QStringList ours = withoutQtOptions(args);
  const bool parsed = parser.parse(ours);
  if (parser.isSet("help") || parser.isSet("help-all") || parser.isSet("version")) {
    // Printed through a QCoreApplication, which needs no display (QApplication would abort without one).
    QCoreApplication core(argc, argv);
    if (parsed) parser.process(ours);  // prints the help (--help-all: with Qt's options) or the version, exits
    if (parser.isSet("version") && !parser.isSet("help")) parser.showVersion();
    parser.showHelp(kOk);
  }
  if (!parsed) {
    fail(parser.errorText());
    out.exitCode = kUsage;
    return out;
  }
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    fail(QStringLiteral("one model at a time (got %1)").arg(positional.join(QStringLiteral(", "))));
    out.exitCode = kUsage;
    return out;
  }
  AppOptions& o = out.options;
  o.model = positional.isEmpty() ? defaultModel : positional.first();
  if (!parser.isSet(screenshot)) {
    if (parser.isSet(size) || parser.isSet(select) || parser.isSet(graphOnly) || parser.isSet(opset) ||
        parser.isSet(preview)) {
      fail(QStringLiteral("--size, --select, --graph-only, --opset and --preview apply only with --screenshot"));
      out.exitCode = kUsage;
    }
    return out;
  }
  o.screenshot = parser.value(screenshot);
  o.select = parser.value(select);
  o.graphOnly = parser.isSet(graphOnly);
  if (parser.isSet(opset)) {
    bool ok = false;
    o.opset = parser.value(opset).toInt(&ok);
    if (!ok || o.opset < 1 || o.opset > 99) {
      fail(QStringLiteral("--opset %1: expected an opset number").arg(parser.value(opset)));
      out.exitCode = kUsage;
      return out;
    }
  }
  o.preview = parser.isSet(preview);
  if (o.preview && !o.opset) {
    fail(QStringLiteral("--preview needs --opset"));
    out.exitCode = kUsage;
    return out;
  }
  if (parser.isSet(size)) {
    static const QRegularExpression wxh(QStringLiteral("^(\\d{1,6})x(\\d{1,6})$"));
    const auto m = wxh.match(parser.value(size));
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < kMinSide || w > kMaxSide || h < kMinSide || h > kMaxSide) {
      fail(QStringLiteral("--size %1: expected WIDTHxHEIGHT, each %2 to %3 pixels")
               .arg(parser.value(size))
               .arg(kMinSide)
               .arg(kMaxSide));
      out.exitCode = kUsage;
      return out;
    }
    o.size = QSize(w, h);
  }
  if (parser.isSet(select) && o.select.isEmpty()) {
    fail(QStringLiteral("--select needs a node name"));
    out.exitCode = kUsage;
    return out;
  }
  if (const QString why = refuseScreenshotOutput(o.screenshot, o.model); !why.isEmpty()) {
    fail(why);
    out.exitCode = kFileError;
  }
  return out;
}

}  // namespace fb::app
