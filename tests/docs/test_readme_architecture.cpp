// The README's architecture section is what a newcomer reads first: its folder map must name every folder of
// core/ and ui/ as it is on disk, and every folder it names must exist.
#include <QtTest>

#include <QDir>
#include <QRegularExpression>

class TestReadmeArchitecture : public QObject {
  Q_OBJECT

  static QString architectureSection() {
    QFile f(FB_SOURCE_DIR "/README.md");
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype begin = text.indexOf("\n## Architecture\n");
    if (begin < 0) return {};
    const qsizetype end = text.indexOf("\n## ", begin + 1);
    return text.mid(begin, end < 0 ? -1 : end - begin);
  }

  static QStringList foldersUnder(const QString& top) {
    QStringList out;
    for (const QString& d : QDir(FB_SOURCE_DIR "/" + top).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
      out << top + "/" + d + "/";
    return out;
  }

 private slots:
  void comesBeforeUsage() {
    QFile f(FB_SOURCE_DIR "/README.md");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype arch = text.indexOf("\n## Architecture\n");
    QVERIFY2(arch > 0, "README.md has no '## Architecture' section");
    // What it is and the two set-up commands come first, then the architecture, then usage.
    QVERIFY(text.indexOf("packaging/setup.sh run") < arch);
    QVERIFY(text.indexOf("packaging/setup.sh test") < arch);
    QVERIFY(text.indexOf("\n## Desktop inspector") > arch);
    QVERIFY(text.indexOf("\n## Command line") > arch);
  }

  void namesEveryFolderOfCoreAndUi() {
    const QString section = architectureSection();
    QVERIFY(!section.isEmpty());
    const QStringList folders = foldersUnder("core") + foldersUnder("ui");
    QVERIFY(folders.size() >= 15);
    for (const QString& folder : folders)
      QVERIFY2(section.contains("`" + folder), qPrintable("README's folder map does not name " + folder));
  }

  void namesNoFolderThatIsGone() {
    const QString section = architectureSection();
    static const QRegularExpression named("`((?:core|ui)/[a-z_]+/)");
    int count = 0;
    for (auto it = named.globalMatch(section); it.hasNext(); ++count) {
      const QString folder = it.next().captured(1);
      QVERIFY2(QDir(FB_SOURCE_DIR "/" + folder).exists(), qPrintable("README's folder map names a missing " + folder));
    }
    QVERIFY(count >= 15);
  }
};

QTEST_GUILESS_MAIN(TestReadmeArchitecture)
#include "test_readme_architecture.moc"
