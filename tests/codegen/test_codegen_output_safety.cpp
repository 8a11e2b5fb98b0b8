// `convert --to pytorch|oneflow` leaves nothing but a complete generated folder (issue points 8 and 9): the folder
// it generated is replaced (its marker), other folders are not; `-o dir/` is the folder dir; a report that cannot
// be written, or that would land in the output folder, stops the command before anything is written; an interrupt
// leaves no temporary folder; names with control characters or bytes that are not UTF-8 are escaped or replaced;
// running out of memory is said in words.
#include <QtTest>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "support/helpers.h"
#include "support/proto_builders.h"

extern char** environ;

using namespace fb;

namespace {

const char* kMarker = ".flowbridge-generated";

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

// Every entry under `dir`, hidden ones included, relative to it.
QStringList entriesUnder(const QString& dir) {
  QStringList out;
  for (QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                       QDirIterator::Subdirectories);
       it.hasNext();)
    out << QDir(dir).relativeFilePath(it.next());
  out.sort();
  return out;
}

onnx::ValueInfoProto* addFloat(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
                               int64_t dim) {
  auto* v = list->Add();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(dim);
  return v;
}

// y = x + w, w holding `elements` floats in the side file `<model>.bin` (sparse: cheap to make, and the generated
// weights.pt is as large as w).
QString bigWeightsModel(const QString& dir, int64_t elements) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("big");
  addFloat(g->mutable_input(), "x", 1);
  addFloat(g->mutable_output(), "y", elements);
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(elements);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  for (auto [k, v] : {std::pair<std::string, std::string>{"location", "big.bin"},
                      {"offset", "0"},
                      {"length", std::to_string(elements * 4)}}) {
    auto* e = w->add_external_data();
    e->set_key(k);
    e->set_value(v);
  }
  auto* n = g->add_node();
  n->set_op_type("Add");
  n->set_name("add");
  n->add_input("x");
  n->add_input("w");
  n->add_output("y");
  const QString path = dir + "/big.onnx";
  test::saveProto(m, path.toStdString());
  std::ofstream(QString(dir + "/big.bin").toStdString()).close();
  if (::truncate(QString(dir + "/big.bin").toLocal8Bit().constData(), elements * 4) != 0) qFatal("cannot size big.bin");
  return path;
}

// Relu nodes named `names`, one after the other; `unsupportedName`, when given, names a last node of a custom
// domain, which no code target has.
QString namedNodesModel(const QString& path, const std::vector<std::string>& names,
                        const std::string& unsupportedName = {}) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("tests");
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("named");
  addFloat(g->mutable_input(), "x", 4);
  std::string prev = "x";
  for (size_t i = 0; i < names.size(); ++i) {
    auto* n = g->add_node();
    n->set_op_type("Relu");
    n->set_name(names[i]);
    n->add_input(prev);
    prev = "v" + std::to_string(i);
    n->add_output(prev);
  }
  if (!unsupportedName.empty()) {
    auto* domain = m.add_opset_import();
    domain->set_domain("com.example");
    domain->set_version(1);
    auto* n = g->add_node();
    n->set_op_type("Mystery");
    n->set_domain("com.example");  // no code for custom domains
    n->set_name(unsupportedName);
    n->add_input(prev);
    prev = "mystery";
    n->add_output(prev);
    addFloat(g->mutable_output(), prev, 4)->mutable_type()->mutable_tensor_type()->mutable_shape()->clear_dim();
  } else {
    addFloat(g->mutable_output(), prev, 4);
  }
  test::saveProto(m, path.toStdString());
  return path;
}

struct Exit {
  bool signaled = false;
  int code = -1;  // exit code, or the signal
};

Exit waitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

pid_t spawnCli(const QStringList& args) {
  std::vector<std::string> storage{FB_CLI_PATH};
  for (const auto& a : args) storage.push_back(a.toStdString());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  if (posix_spawn(&pid, FB_CLI_PATH, &actions, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// A command run through sh, for limits (prlimit) and ignored signals (SIGXFSZ) the child inherits.
test::CliResult runShell(const QString& script) {
  QProcess p;
  p.start("/bin/sh", {"-c", script});
  test::CliResult r;
  if (!p.waitForFinished(300000)) {
    p.kill();
    p.waitForFinished();
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

QString quoted(const QString& s) { return "'" + QString(s).replace("'", "'\\''") + "'"; }

bool isOneErrorLine(const QByteArray& err, const QString& mentions) {
  return err.count('\n') == 1 && err.startsWith("flowbridge-cli: error: ") && QString::fromUtf8(err).contains(mentions);
}

}  // namespace

class CodegenOutputSafety : public QObject {
  Q_OBJECT
  QString model_;

 private slots:
  void initTestCase() { model_ = test::corpusModel("super_resolution_op11.onnx"); }

  // The README's promise: converting again into the folder it generated replaces it; the marker says which folder
  // that is.
  void replacesTheFolderItGenerated() {
    const QString dir = test::scratchDir("codegen_safety_again");
    const QString out = dir + "/out";
    auto r = test::runCli({"convert", model_, "--to", "pytorch", "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(readAll(out + "/" + kMarker).startsWith("FlowBridge generated code\n"));
    writeFile(out + "/model.py", "edited");
    r = test::runCli({"convert", model_, "--to", "pytorch", "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(readAll(out + "/model.py").contains("class "));
    QCOMPARE(entriesUnder(dir),
             QStringList({"out", "out/" + QString(kMarker), "out/model.py", "out/run.py", "out/weights.pt"}));
  }

  // A folder with a model.py and a run.py but no marker is somebody's project: refused, left as it was.
  void refusesAFolderWithoutTheMarker() {
    const QString dir = test::scratchDir("codegen_safety_foreign");
    const QString out = dir + "/project";
    QVERIFY(QDir().mkpath(out));
    writeFile(out + "/model.py", "mine");
    writeFile(out + "/run.py", "mine too");
    auto r = test::runCli({"convert", model_, "--to", "pytorch", "-o", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneErrorLine(r.err, "did not generate"), r.err.constData());
    QCOMPARE(entriesUnder(dir), QStringList({"project", "project/model.py", "project/run.py"}));
    QCOMPARE(readAll(out + "/model.py"), QByteArray("mine"));
  }

  // `-o newdir/` is the folder newdir; missing parents are created, and removed again when the write fails.
  void trailingSlashAndMissingParents() {
    const QString dir = test::scratchDir("codegen_safety_slash");
    auto r = test::runCli({"convert", model_, "--to", "oneflow", "-o", dir + "/newdir/"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo(dir + "/newdir/model.py").isFile());
    QVERIFY(QFileInfo(dir + "/newdir/weights/snapshot_done").isFile());
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"newdir"});
    r = test::runCli({"convert", model_, "--to", "oneflow", "-o", dir + "/newdir/"});
    QVERIFY2(r.exitCode == 0, r.err.constData());  // replaces its own folder, trailing slash or not

    // A write that fails (files past 64 KiB refused) leaves neither the folder nor the parents made for it.
    const QString deep = dir + "/a/b/c/";
    r = runShell("trap '' XFSZ; exec prlimit --fsize=65536 " + quoted(FB_CLI_PATH) + " convert " + quoted(model_) +
                 " --to pytorch -o " + quoted(deep));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneErrorLine(r.err, "File too large"), r.err.constData());
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"newdir"});
  }

  // --report is checked before anything is generated: into the output folder (which is replaced as a whole),
  // onto the input, or where it cannot be written, it stops the command with one line and nothing written.
  void reportIsCheckedFirst_data() {
    QTest::addColumn<QString>("report");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("inside the output folder") << "@/out/model.py"
                                              << "output folder";
    QTest::newRow("the output folder itself") << "@/out"
                                              << "output folder";
    QTest::newRow("the input") << "@/model.onnx"
                               << "input";
    QTest::newRow("in a missing folder") << "@/missing/report.json"
                                         << "report.json";
    QTest::newRow("an existing folder") << "@/folder"
                                        << "folder";
  }
  void reportIsCheckedFirst() {
    QFETCH(QString, report);
    QFETCH(QString, mentions);
    const QString dir = test::scratchDir("codegen_safety_report");
    QVERIFY(QFile::copy(model_, dir + "/model.onnx"));
    QVERIFY(QDir().mkpath(dir + "/folder"));
    const QStringList before = entriesUnder(dir);
    const QByteArray input = readAll(dir + "/model.onnx");
    auto r = test::runCli(
        {"convert", dir + "/model.onnx", "--to", "pytorch", "-o", dir + "/out", "--report", report.replace("@", dir)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneErrorLine(r.err, mentions), r.err.constData());
    QCOMPARE(entriesUnder(dir), before);
    QCOMPARE(readAll(dir + "/model.onnx"), input);
  }

  // A report beside the folder is written with it.
  void reportBesideTheFolder() {
    const QString dir = test::scratchDir("codegen_safety_report_ok");
    auto r = test::runCli({"convert", model_, "--to", "pytorch", "-o", dir + "/out", "--report", dir + "/report.json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonParseError e;
    QJsonDocument::fromJson(readAll(dir + "/report.json"), &e);
    QCOMPARE(e.error, QJsonParseError::NoError);
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList({"out", "report.json"}));
  }

  // Names from the model reach the terminal escaped: no escape sequence, carriage return or bell gets through.
  void controlCharactersInNamesAreEscaped() {
    const QString dir = test::scratchDir("codegen_safety_control");
    const std::string evil = "\x1b[2J\x1b[31mEVIL\rname\nnext\x07";
    const QString model = namedNodesModel(dir + "/evil.onnx", {evil}, evil + "det");
    for (const QStringList& args : {QStringList{"convert", model, "--to", "pytorch", "-o", dir + "/out"},
                                    QStringList{"check", model, "--to", "pytorch"}}) {
      auto r = test::runCli(args);
      QVERIFY2(r.exitCode == 3, r.err.constData());
      const QByteArray all = r.out + r.err;
      QVERIFY2(all.contains("\\x1b[2J"), all.constData());
      for (char c : {'\x1b', '\r', '\x07'}) QVERIFY2(!all.contains(c), all.constData());
      for (const QByteArray& line : r.err.split('\n'))
        QVERIFY2(line.isEmpty() || line.startsWith("flowbridge-cli: "), line.constData());
    }
  }

  // Bytes that are not UTF-8 in a node name: the report and --json are valid JSON (U+FFFD in their place), exit 0.
  void nonUtf8NamesGiveValidJson() {
    const QString dir = test::scratchDir("codegen_safety_utf8");
    const QString model = namedNodesModel(dir + "/latin1.onnx", {"caf\xe9", "\xff\xfe"});
    auto r = test::runCli({"convert", model, "--to", "pytorch", "-o", dir + "/out", "--report", dir + "/report.json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonParseError e;
    const QJsonDocument report = QJsonDocument::fromJson(readAll(dir + "/report.json"), &e);
    QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
    QVERIFY(readAll(dir + "/report.json").contains("caf\xef\xbf\xbd"));
    r = test::runCli({"check", model, "--to", "oneflow", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonDocument::fromJson(r.out, &e);
    QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
    QVERIFY(r.out.contains("\xef\xbf\xbd"));
  }

  // SIGINT or SIGTERM at any moment of a conversion to code: the process dies by that signal and leaves no
  // temporary folder or file; the target is absent or complete.
  void interruptsLeaveNothingBehind() {
    const QString dir = test::scratchDir("codegen_safety_interrupt");
    const QString model = bigWeightsModel(dir, 48 << 20);  // a 192 MB weights.pt
    const QString work = dir + "/work";
    QVERIFY(QDir().mkpath(work));
    const QString out = work + "/out";
    QElapsedTimer t;
    t.start();
    Exit whole = waitFor(spawnCli({"convert", model, "--to", "pytorch", "-o", out}));
    const qint64 fullMs = t.elapsed();
    QVERIFY(!whole.signaled && whole.code == 0);
    const QStringList complete = entriesUnder(work);
    QVERIFY(complete.contains("out/weights.pt"));
    const qint64 weightsBytes = QFileInfo(out + "/weights.pt").size();
    QDir(out).removeRecursively();

    int interruptedWhileWriting = 0;
    for (int run = 0; run < 10; ++run) {
      const int sig = run % 2 ? SIGTERM : SIGINT;
      const pid_t pid = spawnCli({"convert", model, "--to", "pytorch", "-o", out});
      QVERIFY(pid > 0);
      // From the start to the end of an uninterrupted run, the second half (where the folder is written) densest.
      const qint64 delayMs = fullMs * (run < 3 ? run + 1 : 3 + (run - 2) * 3) / 30;
      QTest::qSleep(int(delayMs));
      bool tempSeen = false;
      for (const QString& e : QDir(work).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden))
        tempSeen |= e.contains(".tmp-");
      interruptedWhileWriting += tempSeen;
      ::kill(pid, sig);
      const Exit exit = waitFor(pid);
      const QStringList left = entriesUnder(work);
      if (exit.signaled) {
        QCOMPARE(exit.code, sig);
        QVERIFY2(left.isEmpty() || left == complete, qPrintable(left.join(", ")));
      } else {
        QCOMPARE(exit.code, 0);  // finished before the signal came
        QCOMPARE(left, complete);
      }
      if (!left.isEmpty()) QCOMPARE(QFileInfo(out + "/weights.pt").size(), weightsBytes);
      QDir(out).removeRecursively();
    }
    // The runs must have hit the writing, or this test says nothing.
    QVERIFY2(interruptedWhileWriting >= 3, qPrintable(QString::number(interruptedWhileWriting)));
  }

  // Interrupted while replacing its previous folder: the previous or the new one is there, whole, and nothing else.
  void interruptWhileReplacingKeepsAFolder() {
    const QString dir = test::scratchDir("codegen_safety_interrupt_replace");
    const QString model = bigWeightsModel(dir, 16 << 20);
    const QString work = dir + "/work";
    QVERIFY(QDir().mkpath(work));
    const QString out = work + "/out";
    QElapsedTimer t;
    t.start();
    QCOMPARE(waitFor(spawnCli({"convert", model, "--to", "pytorch", "-o", out})).code, 0);
    const qint64 fullMs = t.elapsed();
    const QStringList complete = entriesUnder(work);
    QCOMPARE(waitFor(spawnCli({"convert", model, "--to", "pytorch", "-o", out})).code, 0);  // replaces it
    for (int run = 0; run < 6; ++run) {
      const pid_t pid = spawnCli({"convert", model, "--to", "pytorch", "-o", out});
      QTest::qSleep(int(fullMs * (4 + run) / 10));
      ::kill(pid, run % 2 ? SIGTERM : SIGINT);
      waitFor(pid);
      QCOMPARE(entriesUnder(work), complete);
    }
  }

  // Out of memory is said in words naming the file and the step, not as std::bad_alloc.
  void outOfMemoryIsSaidInWords() {
    const QString dir = test::scratchDir("codegen_safety_memory");
    // 20M floats as float_data (typed, not raw bytes): reading them takes 80 MB beyond the mapped file.
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    constexpr int64_t kElements = 20'000'000;
    addFloat(g->mutable_input(), "x", 1);
    addFloat(g->mutable_output(), "y", kElements);
    auto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(kElements);
    w->mutable_float_data()->Resize(int(kElements), 0.5f);
    auto* n = g->add_node();
    n->set_op_type("Add");
    n->add_input("x");
    n->add_input("w");
    n->add_output("y");
    const QString model = dir + "/typed.onnx";
    test::saveProto(m, model.toStdString());
    // 300 MiB of address space: the program and the mapped file fit, the decoded weights do not.
    auto r = runShell("exec prlimit --as=314572800 " + quoted(FB_CLI_PATH) + " convert " + quoted(model) +
                      " --to pytorch -o " + quoted(dir + "/out") + " --report " + quoted(dir + "/report.json"));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneErrorLine(r.err, model + ": out of memory while "), r.err.constData());
    QVERIFY2(!r.err.contains("bad_alloc") && !r.err.contains("length_error"), r.err.constData());
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"typed.onnx"});
  }
};

QTEST_GUILESS_MAIN(CodegenOutputSafety)
#include "test_codegen_output_safety.moc"
