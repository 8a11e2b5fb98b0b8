// The Code dock sets model.py in a fixed-pitch font (issue 26, point 8). The system's fixed font is only the
// family name "monospace", and fontconfig resolves that to a font it does not mark fixed pitch on machines with
// common font packages (fonts-noto-mono's Noto Sans Mono, fonts-droid-fallback's Droid Sans Fallback). The test
// checks the resolved face (QFontInfo) twice: with the machine's own fontconfig (CI installs those packages,
// packaging/install-deps.sh), and in a child process whose fontconfig maps "monospace" to proportional fonts
// only, so the case is covered whatever fonts the machine has.
#include <QtTest>

#include <QDockWidget>
#include <QFontDatabase>
#include <QFontInfo>
#include <QProcess>

#include "support/helpers.h"
#include "ui/conversion/code_preview.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/main_window.h"
#include "ui/widgets/code_view.h"

using namespace fb;

namespace {

// Set in the child process: its fontconfig resolves "monospace" to a proportional font.
const char* kProportionalAliasVar = "FB_TEST_MONOSPACE_IS_PROPORTIONAL";

// A fontconfig configuration with the system's fonts in which "monospace" prefers proportional faces.
QString writeProportionalMonospaceConfig(const QString& dir) {
  const QString path = dir + "/fonts.conf";
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(QStringLiteral(R"(<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <cachedir>%1/cache</cachedir>
  <cachedir>/var/cache/fontconfig</cachedir>
  <alias binding="strong">
    <family>monospace</family>
    <prefer><family>Noto Sans Mono</family><family>Droid Sans Fallback</family><family>DejaVu Sans</family></prefer>
  </alias>
</fontconfig>
)")
              .arg(dir)
              .toUtf8());
  return path;
}

}  // namespace

class CodeFontTest : public QObject {
  Q_OBJECT
 private slots:
  void codeDockFontIsFixedPitch() {
    if (qEnvironmentVariableIsSet(kProportionalAliasVar)) {
      // Otherwise this run would prove nothing.
      const QFontInfo system(QFontDatabase::systemFont(QFontDatabase::FixedFont));
      QVERIFY2(!system.fixedPitch(), qPrintable(system.family()));
    }
    ui::MainWindow w;
    ui::CodeView* code = w.conversion()->codePreview()->view();
    QVERIFY(code);
    const QFontInfo resolved(code->font());
    qInfo("Code dock font: %s (asked for %s)", qPrintable(resolved.family()),
          qPrintable(code->font().families().join(QStringLiteral(", "))));
    QVERIFY2(resolved.fixedPitch(), qPrintable(resolved.family()));
    // What is drawn, not only what the font database says: narrow and wide letters take the same room.
    const QFontMetrics metrics(code->font());
    QCOMPARE(metrics.horizontalAdvance(QStringLiteral("iiii")), metrics.horizontalAdvance(QStringLiteral("MMMM")));
  }

  void codeDockFontIsFixedPitchWhenMonospaceIsProportional() {
    const QString dir = test::scratchDir("code_font_fontconfig");
    const QString config = writeProportionalMonospaceConfig(dir);
    QVERIFY(!config.isEmpty());
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FONTCONFIG_FILE"), config);
    env.insert(QString::fromLatin1(kProportionalAliasVar), QStringLiteral("1"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("codeDockFontIsFixedPitch")});
    QVERIFY(child.waitForFinished(60000));
    const QByteArray output = child.readAll();
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, output.constData());
  }
};

QTEST_MAIN(CodeFontTest)
#include "test_ui_code_font.moc"
