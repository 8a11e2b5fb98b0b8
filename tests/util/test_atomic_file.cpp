// AtomicFile and the output-path rule, as a unit: every output FlowBridge writes (models, reports, pictures,
// generated code) goes through them, so an output appears whole or not at all and never replaces an input.
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/helpers.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void writeAll(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

// Everything in `dir` but the names listed.
QStringList othersIn(const fs::path& dir, const QStringList& expected) {
  QStringList out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const QString name = QString::fromStdString(e.path().filename().string());
    if (!expected.contains(name)) out << name;
  }
  return out;
}

}  // namespace

class TestAtomicFile : public QObject {
  Q_OBJECT
 private slots:
  void commitReplacesTheTargetWhole() {
    const fs::path dir = test::scratchDir("atomic_commit").toStdString();
    const fs::path target = dir / "out.txt";
    writeAll(target, "old contents");
    {
      AtomicFile f(target.string());
      f.write("new ");
      f.write(std::string(100000, 'x'));
      // Until the commit the target is the old file, and the new bytes sit in a hidden file beside it.
      QCOMPARE(readAll(target), std::string("old contents"));
      QVERIFY(fs::exists(f.tempPath()));
      QCOMPARE(fs::path(f.tempPath()).parent_path(), dir);
      QVERIFY(fs::path(f.tempPath()).filename().string().rfind(".out.txt.tmp-", 0) == 0);
      f.commit();
    }
    QCOMPARE(readAll(target), "new " + std::string(100000, 'x'));
    QCOMPARE(othersIn(dir, {"out.txt"}), QStringList());
    // The permissions a new file gets here, not mkstemp's 0600.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    struct stat st {};
    QCOMPARE(::stat(target.c_str(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0666 & ~mask);
  }

  void aWriterThatGivesUpLeavesNothing() {
    const fs::path dir = test::scratchDir("atomic_abandon").toStdString();
    const fs::path target = dir / "out.onnx";
    std::string temp;
    {
      AtomicFile f(target.string());
      temp = f.tempPath();
      f.write("partial");
    }
    QVERIFY(!fs::exists(target));
    QVERIFY(!fs::exists(temp));
    QCOMPARE(othersIn(dir, {}), QStringList());

    writeAll(target, "kept");
    {
      AtomicFile f(target.string());
      f.write("replacement");
      temp = f.tempPath();
      f.discard();  // removes the temporary file at once, before the writer goes away
      QVERIFY(!fs::exists(temp));
    }
    QCOMPARE(readAll(target), std::string("kept"));
    QCOMPARE(othersIn(dir, {"out.onnx"}), QStringList());
  }

  void refusesToReplaceWhatIsNotARegularFile() {
    const fs::path dir = test::scratchDir("atomic_kinds").toStdString();
    fs::create_directory(dir / "folder");
    QVERIFY(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
    for (const char* name : {"folder", "fifo"}) {
      bool refused = false;
      try {
        AtomicFile f((dir / name).string());
      } catch (const OutputError& e) {
        refused = std::string(e.what()).find("refusing to replace it") != std::string::npos;
      }
      QVERIFY2(refused, name);
    }
    QCOMPARE(othersIn(dir, {"folder", "fifo"}), QStringList());

    // The target turned into a folder after the writer started: the commit refuses, and nothing is left.
    const fs::path late = dir / "late";
    {
      AtomicFile f(late.string());
      f.write("data");
      fs::create_directory(late);
      QVERIFY_THROWS_EXCEPTION(OutputError, f.commit());
    }
    QVERIFY(fs::is_directory(late));
    QCOMPARE(othersIn(dir, {"folder", "fifo", "late"}), QStringList());
  }

  void outputsNeverReplaceAnInput() {
    const fs::path dir = test::scratchDir("atomic_inputs").toStdString();
    const fs::path input = dir / "model.onnx", side = dir / "model.onnx.data";
    writeAll(input, "model");
    writeAll(side, "weights");
    fs::create_symlink(input, dir / "link.onnx");
    fs::create_hard_link(side, dir / "hard.data");
    const std::vector<std::string> inputs{input.string(), side.string()};
    for (const char* out : {"model.onnx", "model.onnx.data", "link.onnx", "hard.data"}) {
      bool refused = false;
      try {
        ensureWritableOutput((dir / out).string(), inputs);
      } catch (const OutputError& e) {
        refused = std::string(e.what()).find("which the input model reads") != std::string::npos;
      }
      QVERIFY2(refused, out);
    }
    // Another file, a new path, and a dangling link (the rename replaces the link, not its target) are fine.
    writeAll(dir / "other.onnx", "x");
    fs::create_symlink(dir / "missing", dir / "dangling.onnx");
    ensureWritableOutput((dir / "other.onnx").string(), inputs);
    ensureWritableOutput((dir / "new.onnx").string(), inputs);
    ensureWritableOutput((dir / "dangling.onnx").string(), inputs);
    QVERIFY_THROWS_EXCEPTION(OutputError, ensureWritableOutput(dir.string(), inputs));
    QCOMPARE(readAll(input), std::string("model"));
    QCOMPARE(readAll(side), std::string("weights"));
  }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
