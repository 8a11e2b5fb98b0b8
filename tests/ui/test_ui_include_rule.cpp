// ui/ is arranged by feature with includes pointing one way (issue 23, point 4). The rule is written once, as the
// layer table at the top of ui/CMakeLists.txt; this test reads that table and checks every #include "ui/..." of
// every ui/ source against it: a file may include its own folder and folders on lower layers, nothing on a higher
// layer and no other folder on its own layer. Every folder of ui/ must be placed in the table, and every folder the
// table names must exist. A small tree with rule breaks shows the check catches them.
#include <QtTest>

#include <QDirIterator>
#include <QRegularExpression>

#include "support/helpers.h"

namespace {

// A unit of ui/: a folder ("graph/"), the shell ("main_window"), or the rest of ui/'s top level ("ui/*").
QString unitOf(const QString& pathInUi) {
  const qsizetype slash = pathInUi.indexOf('/');
  if (slash >= 0) return pathInUi.left(slash + 1);
  return pathInUi.startsWith(QStringLiteral("main_window.")) ? QStringLiteral("main_window") : QStringLiteral("ui/*");
}

// The layer table of ui/CMakeLists.txt: `#   <layer> | <units> | <what they hold>` lines. Empty on a malformed table.
QHash<QString, int> readRule(const QString& cmakeLists, QString* problem) {
  QFile f(cmakeLists);
  if (!f.open(QIODevice::ReadOnly)) {
    *problem = QStringLiteral("cannot read %1").arg(cmakeLists);
    return {};
  }
  static const QRegularExpression row(QStringLiteral("^#\\s+(\\d+)\\s+\\|([^|]+)\\|"));
  QHash<QString, int> layers;
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
  for (const QString& line : lines) {
    if (!line.startsWith('#')) break;  // the table is in the comment at the top
    const auto m = row.match(line);
    if (!m.hasMatch()) continue;
    for (const QString& unit : m.captured(2).split(' ', Qt::SkipEmptyParts)) {
      if (layers.contains(unit)) {
        *problem = QStringLiteral("%1 is placed twice").arg(unit);
        return {};
      }
      layers.insert(unit, m.captured(1).toInt());
    }
  }
  if (layers.isEmpty()) *problem = QStringLiteral("no layer table in %1").arg(cmakeLists);
  return layers;
}

// Every #include "ui/..." (or <ui/...>) of every source under `uiDir` that the rule forbids, one line each.
QStringList violations(const QString& uiDir, const QHash<QString, int>& layers) {
  static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*[\"<]ui/([^\">]+)[\">]"));
  QStringList out;
  const QDir root(uiDir);
  for (QDirIterator it(uiDir, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
    const QString file = root.relativeFilePath(it.next());
    const QString from = unitOf(file);
    QFile f(it.filePath());
    if (!f.open(QIODevice::ReadOnly)) {
      out << QStringLiteral("ui/%1: cannot read").arg(file);
      continue;
    }
    int lineNo = 0;
    for (const QByteArray& line : f.readAll().split('\n')) {
      ++lineNo;
      const auto m = include.match(QString::fromUtf8(line));
      if (!m.hasMatch()) continue;
      const QString to = unitOf(m.captured(1));
      const QString where = QStringLiteral("ui/%1:%2: includes ui/%3").arg(file).arg(lineNo).arg(m.captured(1));
      if (!layers.contains(from))
        out << QStringLiteral("%1, but ui/CMakeLists.txt places no %2").arg(where, from);
      else if (!layers.contains(to))
        out << QStringLiteral("%1, but ui/CMakeLists.txt places no %2").arg(where, to);
      else if (from == to)
        continue;
      else if (layers[to] > layers[from])
        out << QStringLiteral("%1: %2 (layer %3) is above %4 (layer %5)")
                   .arg(where, to)
                   .arg(layers[to])
                   .arg(from)
                   .arg(layers[from]);
      else if (layers[to] == layers[from])
        out << QStringLiteral("%1: %2 and %3 are both on layer %4").arg(where, to, from).arg(layers[to]);
    }
  }
  out.sort();
  return out;
}

void write(const QString& path, const QByteArray& text) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

}  // namespace

class TestUiIncludeRule : public QObject {
  Q_OBJECT

  const QString ui_ = QStringLiteral(FB_SOURCE_DIR "/ui");

 private slots:
  void ruleIsWrittenForEveryFolder() {
    QString problem;
    const QHash<QString, int> layers = readRule(ui_ + "/CMakeLists.txt", &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(layers.contains("main_window") && layers.contains("ui/*"));
    QVERIFY(layers["main_window"] > layers["ui/*"]);
    for (const QString& d : QDir(ui_).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
      QVERIFY2(layers.contains(d + "/"), qPrintable("ui/CMakeLists.txt's layer table does not place ui/" + d + "/"));
    for (const QString& unit : layers.keys())
      if (unit.endsWith('/'))
        QVERIFY2(QDir(ui_ + "/" + unit).exists(), qPrintable("the layer table names a missing ui/" + unit));
    QVERIFY(layers.size() >= 8);
  }

  void includesFollowTheRule() {
    QString problem;
    const QHash<QString, int> layers = readRule(ui_ + "/CMakeLists.txt", &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QStringList bad = violations(ui_, layers);
    QVERIFY2(bad.isEmpty(), qPrintable("\n" + bad.join('\n')));
  }

  // The check itself: a tree that breaks the rule in each way it can, under the real table.
  void aRuleBreakIsCaught() {
    QString problem;
    const QHash<QString, int> layers = readRule(ui_ + "/CMakeLists.txt", &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QString tree = fb::test::scratchDir("ui_include_rule") + "/ui";
    // Allowed: down the layers, within a folder, any core header.
    write(tree + "/conversion/fine.cpp",
          "#include \"ui/conversion/fine.h\"\n#include \"ui/preview/preview_link.h\"\n#include "
          "\"ui/graph/graph_scene.h\"\n"
          "#include \"ui/document.h\"\n#include \"ui/theme/colors.h\"\n#include \"ir/graph.h\"\n#include <QWidget>\n");
    write(tree + "/main_window.cpp", "#include \"ui/conversion/fine.h\"\n#include \"ui/main_window.h\"\n");
    QCOMPARE(violations(tree, layers), QStringList());
    // Up a layer, sideways on one layer, from the base to the shell, and into a folder the table does not place.
    write(tree + "/graph/scene.cpp",
          "#include \"ui/graph/scene.h\"\n  #  include <ui/conversion/conversion_controller.h>\n");
    write(tree + "/inspector/panel.h", "#pragma once\n#include \"ui/export/scene_export.h\"\n");
    write(tree + "/document.cpp", "#include \"ui/main_window.h\"\n");
    write(tree + "/theme/colors.cpp", "#include \"ui/document.h\"\n");
    write(tree + "/widgets/panel.cpp", "#include \"ui/models/report.h\"\n");
    const QStringList bad = violations(tree, layers);
    QCOMPARE(bad.size(), 5);
    QVERIFY(bad[0].startsWith("ui/document.cpp:1: includes ui/main_window.h: main_window"));
    QVERIFY(bad[1].startsWith("ui/graph/scene.cpp:2: includes ui/conversion/conversion_controller.h: conversion/"));
    QVERIFY(bad[2].startsWith(
        "ui/inspector/panel.h:2: includes ui/export/scene_export.h: export/ and inspector/ are both"));
    QVERIFY(bad[3].startsWith("ui/theme/colors.cpp:1: includes ui/document.h: ui/* and theme/ are both"));
    QVERIFY(bad[4].contains("places no models/"));
  }
};

QTEST_GUILESS_MAIN(TestUiIncludeRule)
#include "test_ui_include_rule.moc"
