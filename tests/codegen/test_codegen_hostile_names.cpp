// Model strings never become Python code. tests/codegen/hostile_names.py writes models whose every string (node,
// value, weight, graph, input, output, function and domain names, dim_params, attribute strings, doc strings,
// metadata, the file name) is a payload that creates a file named PWNED when it runs. Each is converted to both
// flavours by the CLI and here in-process (the path the app's Save code takes), and every folder written is
// compiled, imported, built, loaded and, where the model converts fully, run: no payload may run, and exit 0
// must always mean a module that compiles and builds.
#include <QtTest>

#include <algorithm>
#include <filesystem>

#include "codegen/code_generator.h"
#include "codegen/identifiers.h"
#include "codegen/python_text.h"
#include "formats/model_io.h"
#include "support/helpers.h"

using namespace fb;

namespace {

QString python() { return QStringLiteral("/usr/bin/python3"); }
QString script() { return QStringLiteral(FB_SOURCE_DIR "/tests/codegen/hostile_names.py"); }

struct Run {
  int exitCode = -1;
  QString out;
};
Run runPython(const QStringList& args, int timeoutMs) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(python(), args);
  Run r;
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.out = "timed out\n";
  }
  r.out += QString::fromUtf8(p.readAll());
  if (p.exitStatus() == QProcess::NormalExit) r.exitCode = p.exitCode();
  return r;
}

// Every byte string of up to two bytes over a set of interesting bytes, and the dangerous code points.
std::vector<std::string> hostileTexts() {
  std::vector<std::string> out;
  const std::string bytes(
      "\x00\x09\x0a\x0b\x0c\x0d\x1c\x1d\x1e\x1f\x22\x23\x27\x3a\x3d\x5c\x7f\x80\x85\xa0\xbf\xc0\xc2\xe2\xed\xf4\xf5"
      "\xff",
      28);
  for (char a : bytes) {
    out.emplace_back(1, a);
    for (char b : bytes) out.push_back(std::string{'x', a, b, 'y'});
  }
  for (const char* s :
       {"\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa9", "\xef\xbb\xbf",
        "\xf3\xa0\x80\x81", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe0\x80\xaf", "coding: utf-7", "coding=latin-1",
        "'''", "\"\"\"", "\\", "\\'", "\xe4\xb8\xad\xe6\x96\x87", "+AAo-"})
    out.emplace_back(s);
  return out;
}

std::string hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string h;
  for (unsigned char c : s) h += digits[c >> 4], h += digits[c & 15];
  return h;
}

}  // namespace

class TestCodegenHostileNames : public QObject {
  Q_OBJECT
 private slots:
  // The three escaping functions, checked by Python itself: each literal evaluates to the text (bytes that are not
  // UTF-8 as Python's backslashreplace shows them), each comment stays one comment on one line showing nothing
  // hidden, each identifier is a short ASCII identifier.
  void escapingFunctionsAgreeWithPython() {
    const QString dir = test::scratchDir("codegen_hostile_escaping");
    QFile f(dir + "/cases.py");
    QVERIFY(f.open(QIODevice::WriteOnly));
    std::string src = "CASES = [\n";
    for (const std::string& t : hostileTexts()) {
      src += "    (bytes.fromhex('" + hex(t) + "'), " + codegen::pyStringLiteral(t) + "),  # " +
             codegen::pyCommentText(t) + "\n";
      const std::string id = codegen::pyIdentifier(t);
      QVERIFY2(
          !id.empty() && id.size() <= codegen::kMaxIdentifierLength && !(id[0] >= '0' && id[0] <= '9') && id[0] != '_',
          id.c_str());
      QVERIFY(std::all_of(id.begin(), id.end(),
                          [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); }));
      QVERIFY(codegen::isCleanCodeLine("x = " + codegen::pyStringLiteral(t)));
    }
    src += "]\nDOC = \"\"\"";
    for (const std::string& t : hostileTexts()) src += codegen::pyDocstringText(t) + "|";
    src += "\"\"\"\n";
    f.write(src.data(), static_cast<qint64>(src.size()));
    f.close();
    const QString check =
        "import sys\n"
        "raw = open(sys.argv[1], 'rb').read()\n"
        "text = raw.decode('utf-8')\n"
        "assert '\\x00' not in text and '\\r' not in text\n"
        "assert len(text.splitlines()) == text.count('\\n'), 'a hidden line break'\n"
        "assert not any(0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069 for c in text), 'a bidi control'\n"
        "ns = {}\n"
        "exec(compile(text, 'cases.py', 'exec'), ns)\n"
        "assert len(ns['CASES']) == " +
        QString::number(hostileTexts().size()) +
        ", len(ns['CASES'])\n"
        "for b, s in ns['CASES']:\n"
        "    assert s == b.decode('utf-8', 'backslashreplace'), (b, s)\n"
        "assert ns['DOC'].count('|') == len(ns['CASES'])\n"
        "print('ok')\n";
    Run r = runPython({"-c", check, dir + "/cases.py"}, 60000);
    QVERIFY2(r.exitCode == 0 && r.out.trimmed() == "ok", qPrintable(r.out));
    // Names that are equal once reduced stay distinct, and 100k characters give a short identifier.
    codegen::NameTable names;
    QCOMPARE(names.claim(codegen::identifierForValue("a.b")), std::string("a_b"));
    QCOMPARE(names.claim(codegen::identifierForValue("a/b")), std::string("a_b_1"));
    QCOMPARE(names.claim(codegen::identifierForValue("print")), std::string("print_1"));
    QCOMPARE(names.claim(codegen::identifierForValue("None")), std::string("None_"));
    QCOMPARE(codegen::identifierForValue(std::string(100000, 'a')).size(), codegen::kMaxIdentifierLength);
    QCOMPARE(codegen::identifierForValue("/" + std::string(100000, 'C') + "_output_0").size(),
             codegen::kMaxIdentifierLength);
    QCOMPARE(codegen::classNameFor("none"), std::string("NoneModel"));
    QCOMPARE(codegen::classNameFor("f"), std::string("FModel"));
    QCOMPARE(codegen::classNameFor("inputs"), std::string("Inputs"));
    QCOMPARE(codegen::classNameFor("INPUTS"), std::string("INPUTSModel"));
    QCOMPARE(codegen::classNameFor("main_graph"), std::string("MainGraph"));
  }

  void payloadsNeverRunAndExitZeroMeansAWorkingModule() {
    const QString root = test::scratchDir("codegen_hostile");
    QElapsedTimer timer;
    timer.start();
    Run made =
        runPython({script(), "make", "--out", root + "/cases", "--corpus", QStringLiteral(FB_CORPUS_DIR)}, 300000);
    QVERIFY2(made.exitCode == 0, qPrintable(made.out));

    // In-process, as the app's Save code does: the same generator, folders named <model index>-<flavour>.
    const std::filesystem::path models = std::filesystem::path(root.toStdString()) / "cases" / "models";
    const std::filesystem::path inproc = std::filesystem::path(root.toStdString()) / "inproc";
    std::filesystem::create_directories(inproc);
    size_t generated = 0;
    for (const auto& entry : std::filesystem::directory_iterator(models)) {
      const std::string file = entry.path().filename().string();
      const int index = std::stoi(file.substr(0, 3));
      std::unique_ptr<ir::Model> model;
      try {
        model = loadModel(entry.path().string());
      } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("cannot load %1: %2").arg(index).arg(e.what())));
      }
      for (auto flavour : {codegen::Flavour::PyTorch, codegen::Flavour::OneFlow}) {
        codegen::CodegenOptions opts;
        opts.flavour = flavour;
        opts.keepUnconverted = true;
        auto dry = codegen::dryRunPython(*model, opts);
        auto r = codegen::generatePython(*model, opts);
        QVERIFY2(r.code, qPrintable(QString("model %1: no code with keepUnconverted").arg(index)));
        QCOMPARE(dry.conversion.complete(), r.conversion.complete());
        const std::string dir =
            (inproc / (QString::asprintf("%03d-", index).toStdString() + std::string(codegen::flavourName(flavour))))
                .string();
        codegen::writeGeneratedFolder(*r.code, flavour, dir);
        ++generated;
      }
    }
    QVERIFY(generated >= 400);

    Run checked = runPython({script(), "check", "--cli", QStringLiteral(FB_CLI_PATH), "--cases", root + "/cases",
                             "--scratch", root + "/scratch", "--folders", QString::fromStdString(inproc.string())},
                            1800000);
    qInfo().noquote() << checked.out.right(3000);
    QVERIFY2(checked.exitCode == 0, qPrintable(checked.out.right(6000)));
    QRegularExpression summary(
        "payloads: (\\d+); models: (\\d+); conversions: (\\d+); folders verified: (\\d+); failures: 0");
    auto m = summary.match(checked.out);
    QVERIFY2(m.hasMatch(), qPrintable(checked.out.right(3000)));
    QVERIFY(m.captured(1).toInt() >= 120);
    QVERIFY(m.captured(2).toInt() >= 240);
    QVERIFY(m.captured(3).toInt() >= 2 * m.captured(2).toInt());
    QVERIFY(m.captured(4).toInt() >= static_cast<int>(generated));
    qInfo() << "hostile-name corpus:" << timer.elapsed() / 1000.0 << "s";
  }
};

QTEST_GUILESS_MAIN(TestCodegenHostileNames)
#include "test_codegen_hostile_names.moc"
