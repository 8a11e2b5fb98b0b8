// OneFlow files built to hurt the readers (the security issue's points 3, 4, 7 and 10): a format B `out`, `meta` or
// pickled_data that is a symlink out of the model's folder, a graph file found in a folder that links out of it,
// pickles whose shared references multiply the walk (2^40 paths in under a kilobyte), sparse multi-gigabyte `meta`,
// graph and pickled_data files, and pickled shapes whose byte count overflows. Every read runs in a child process
// under a time limit (and, outside sanitizer builds, an address-space limit), so that a reader that hangs or eats
// memory fails the test instead of hanging CI.
#include <QtTest>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>

#include "formats/oneflow/flow_save_reader.h"
#include "formats/oneflow/oneflow_reader.h"
#include "formats/oneflow/weight_folder.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
#define FB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FB_TEST_ASAN 1
#endif
#endif

namespace {

// --- pickles, byte by byte (protocol 2; only opcodes OneFlow's files use) ---
std::string u32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (8 * i));
  return s;
}
std::string str(const std::string& s) { return "X" + u32(static_cast<uint32_t>(s.size())) + s; }
std::string long8(uint64_t v) {  // LONG1 with 8 bytes
  std::string s = "\x8a\x08";
  for (int i = 0; i < 8; ++i) s += static_cast<char>(v >> (8 * i));
  return s;
}
std::string global(const std::string& module, const std::string& name) { return "c" + module + "\n" + name + "\n"; }
std::string put(uint32_t i) { return "r" + u32(i); }
std::string get(uint32_t i) { return "j" + u32(i); }
std::string envelope(const std::string& data) {
  return std::string("\x80\x02}(") + str("protocol_version") + "K\x01" + str("data") + data + "u.";
}
// A oneflow.Tensor whose state is {key: value}.
std::string tensorObject(const std::string& key, const std::string& value) {
  return global("oneflow", "Tensor") + ")\x81}(" + str(key) + value + "ub";
}
// Format C: numpy's _frombuffer(bytes, dtype('f4'), shape, 'C').
std::string floatArrayTensor(const std::vector<uint64_t>& dims, const std::string& bytes) {
  std::string shape = "(";
  for (uint64_t d : dims) shape += long8(d);
  shape += "t";
  const std::string dtype = global("numpy", "dtype") + "(" + str("f4") + "\x89\x88tR";
  return tensorObject("data", global("numpy.core.numeric", "_frombuffer") + "(B" +
                                  u32(static_cast<uint32_t>(bytes.size())) + bytes + dtype + shape + str("C") + "tR");
}
std::string folderTensor(const std::string& rel) { return tensorObject("path", str(rel)); }
std::string dict(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string s = "}(";
  for (const auto& [k, v] : entries) s += str(k) + v;
  return s + "u";
}
// A list holding the previous level twice, `levels` times over `leaf`: 2^levels paths to the leaf. As python's
// pickle writes shared lists: the previous level inline, then a memo reference to it.
std::string doubling(const std::string& leaf, uint32_t levels) {
  std::string s = leaf + put(0);
  for (uint32_t i = 1; i <= levels; ++i) s = "](" + s + get(i - 1) + "e" + put(i);
  return s;
}

void writeFile(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}
void writeSparse(const fs::path& p, uint64_t size) {
  writeFile(p, "");
  fs::resize_file(p, size);  // a hole: no disk used
}
const std::string kFourFloats("\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40", 16);  // 1 2 3 4
const std::string kSecret("SECRET-BYTES-16!", 16);
const std::string kMeta4 = "shape {\n  dim: 4\n}\ndata_type: kFloat\n";

// What a read did, run in a child process: refused (InputError), accepted, or killed.
struct Outcome {
  bool refused = false, accepted = false;
  int signal = 0;  // the child died of it (SIGALRM: out of time; SIGKILL/SIGSEGV: out of memory)
  std::string file, message;
  qint64 ms = 0;
  QString text() const {
    if (accepted) return "accepted";
    if (refused) return QString::fromStdString(file + ": " + message);
    if (signal) return QString("killed by signal %1 after %2 ms").arg(signal).arg(ms);
    return QString("another exception after %1 ms").arg(ms) + QString::fromStdString(message);
  }
};

Outcome bounded(const std::function<std::string()>& read, unsigned seconds = 20) {
  int fds[2];
  if (::pipe(fds) != 0) qFatal("pipe");
  QElapsedTimer timer;
  timer.start();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(seconds);
#ifndef FB_TEST_ASAN
    const rlimit as{rlim_t{2} << 30, rlim_t{2} << 30};
    ::setrlimit(RLIMIT_AS, &as);
#endif
    std::string report;
    int code = 3;
    try {
      report = "A" + read();
      code = 0;
    } catch (const InputError& e) {
      report = "R" + e.file() + '\n' + e.what();
      code = 2;
    } catch (const std::exception& e) {
      report = std::string("O") + e.what();
    }
    [[maybe_unused]] auto n = ::write(fds[1], report.data(), report.size());
    ::_exit(code);
  }
  ::close(fds[1]);
  std::string report;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) report.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Outcome o;
  o.ms = timer.elapsed();
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  if (!report.empty() && report[0] == 'R') {
    o.refused = true;
    const auto nl = report.find('\n');
    o.file = report.substr(1, nl - 1);
    o.message = report.substr(nl + 1);
  } else if (!report.empty() && report[0] == 'A') {
    o.accepted = true;
    o.message = report.substr(1);
  } else {
    o.message = report.empty() ? "" : " (" + report.substr(1) + ")";
  }
  return o;
}

// The tensors' names and bytes, as one text (what an accepted read gives back).
std::string describe(const std::map<std::string, ir::Tensor>& tensors) {
  std::string s;
  for (const auto& [name, t] : tensors) {
    auto b = t.bytes();
    s += name + "=" + std::string(reinterpret_cast<const char*>(b.data()), b.size()) + ";";
  }
  return s;
}

}  // namespace

class OneflowHostileSaves : public QObject {
  Q_OBJECT
  fs::path dir_;

  // A refusal of `file` whose message holds `reason`, in time.
  static void expectRefused(const Outcome& o, const fs::path& file, const QString& reason, qint64 maxMs = 5000) {
    QVERIFY2(o.refused, qPrintable(o.text()));
    QVERIFY2(QString::fromStdString(o.file) == QString::fromStdString(file.string()), qPrintable(o.text()));
    QVERIFY2(QString::fromStdString(o.message).contains(reason), qPrintable(o.text()));
    QVERIFY2(o.message.find('\n') == std::string::npos, qPrintable(o.text()));
    QVERIFY2(o.ms < maxMs, qPrintable(o.text() + QString(" after %1 ms").arg(o.ms)));
  }

 private slots:
  void initTestCase() {
    dir_ = test::scratchDir("oneflow_hostile_saves").toStdString();
    writeFile(dir_ / "secret" / "out", kSecret);
    writeFile(dir_ / "secret" / "meta", kMeta4);
  }

  // Point 3: the descriptor check of the ONNX reader (InputFile) for every file a format B or C save opens. A link
  // that stays inside the model's folder is followed, as for ONNX external data.
  void formatBFilesLinkedOutOfTheFolderAreRefused() {
    const fs::path b = dir_ / "b_links";
    writeFile(b / "pickled_data",
              envelope(dict({{"in", folderTensor("tensor_1")}, {"linked_in", folderTensor("tensor_2")}})));
    writeFile(b / "tensor_1" / "meta", kMeta4);
    writeFile(b / "tensor_1" / "out", kFourFloats);
    writeFile(b / "tensor_2" / "meta", kMeta4);
    fs::create_symlink("../tensor_1/out", b / "tensor_2" / "out");
    const auto inside = bounded([&] { return describe(oneflow::readFlowSave(b.string())); });
    QVERIFY2(inside.accepted, qPrintable(inside.text()));
    QCOMPARE(inside.message, "in=" + kFourFloats + ";linked_in=" + kFourFloats + ";");

    const fs::path outLink = dir_ / "b_out_link";
    writeFile(outLink / "pickled_data", envelope(dict({{"w", folderTensor("tensor_7")}})));
    writeFile(outLink / "tensor_7" / "meta", kMeta4);
    fs::create_symlink(dir_ / "secret" / "out", outLink / "tensor_7" / "out");
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(outLink.string())); }),
                  outLink / "tensor_7" / "out", "tensor 'w': out: resolves outside the model's folder");

    const fs::path metaLink = dir_ / "b_meta_link";
    writeFile(metaLink / "pickled_data", envelope(dict({{"w", folderTensor("tensor_7")}})));
    writeFile(metaLink / "tensor_7" / "out", kFourFloats);
    fs::create_symlink(dir_ / "secret" / "meta", metaLink / "tensor_7" / "meta");
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(metaLink.string())); }),
                  metaLink / "tensor_7" / "meta", "tensor 'w': meta: resolves outside the model's folder");

    const fs::path pickleLink = dir_ / "b_pickle_link";
    writeFile(dir_ / "secret" / "pickled_data", envelope(dict({{"w", folderTensor("tensor_7")}})));
    fs::create_directories(pickleLink);
    fs::create_symlink(dir_ / "secret" / "pickled_data", pickleLink / "pickled_data");
    fs::create_symlink(dir_ / "secret", pickleLink / "tensor_7");
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(pickleLink.string())); }),
                  pickleLink / "pickled_data", "resolves outside the model's folder");
  }

  // A format C file (or a format B folder) found beside a graph belongs to the graph's folder.
  void savesFoundBesideAGraphStayInItsFolder() {
    const fs::path model = dir_ / "model_c";
    writeFile(dir_ / "secret" / "weights.of", envelope(dict({{"w", floatArrayTensor({4}, kSecret)}})));
    fs::create_directories(model);
    fs::create_symlink(dir_ / "secret" / "weights.of", model / "weights.of");
    expectRefused(bounded([&] {
                    oneflow::WeightFolder w((model / "weights.of").string(), model.string());
                    return std::string();
                  }),
                  model / "weights.of", "resolves outside the model's folder");
    // Named on its own, the same file is read where it is.
    const auto named = bounded([&] { return describe(oneflow::readFlowSave((model / "weights.of").string())); });
    QVERIFY2(named.accepted && named.message == "w=" + kSecret + ";", qPrintable(named.text()));

    // A graph file found in the folder the user named must not leave it either.
    const fs::path folder = dir_ / "model_job_link";
    writeFile(dir_ / "secret" / "job.pb", "not a job");
    fs::create_directories(folder);
    fs::create_symlink(dir_ / "secret" / "job.pb", folder / "job.pb");
    expectRefused(bounded([&] {
                    oneflow::readOneflow(folder.string());
                    return std::string();
                  }),
                  folder / "job.pb", "resolves outside the model's folder");
    const auto direct = bounded([&] {
      oneflow::readOneflow((folder / "job.pb").string());
      return std::string();
    });
    QVERIFY2(direct.refused && direct.message.find("outside") == std::string::npos, qPrintable(direct.text()));
  }

  // Point 4: shared references are walked once; what they multiply is charged to a budget.
  void picklesWhoseSharedReferencesMultiplyAreRefused() {
    const fs::path names = dir_ / "doubling_tensor.of";
    writeFile(names, envelope(doubling(floatArrayTensor({4}, kFourFloats), 40)));
    QVERIFY(fs::file_size(names) < 1024);
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(names.string())); }), names,
                  "names more than 262144 tensors");

    // The same without a tensor: nothing to name, only paths to walk.
    const fs::path paths = dir_ / "doubling_none.of";
    writeFile(paths, envelope(doubling("N", 60)));
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(paths.string())); }), paths,
                  "the saved object holds no tensors");

    // One 1 MiB key shared by 40 nested dicts: a 40 MiB tensor name, from a 1 MiB file.
    const std::string key(1 << 20, 'k');
    std::string nested = floatArrayTensor({4}, kFourFloats);
    for (int i = 0; i < 39; ++i) nested = "}" + get(0) + nested + "s";
    const fs::path longNames = dir_ / "long_names.of";
    writeFile(longNames, envelope("}" + str(key) + put(0) + nested + "s"));
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(longNames.string())); }), longNames,
                  "tensor names take more than 33554432 bytes");

    // What a real save shares is kept under every name: a tied weight, a sub-dict saved twice.
    const fs::path tied = dir_ / "tied.of";
    writeFile(tied, envelope("}(" + str("enc") + "}(" + str("w") + floatArrayTensor({4}, kFourFloats) + put(1) + "u" +
                             put(2) + str("dec") + get(1) + str("copy") + get(2) + "u"));
    const auto shared = bounded([&] { return describe(oneflow::readFlowSave(tied.string())); });
    QVERIFY2(shared.accepted, qPrintable(shared.text()));
    QCOMPARE(shared.message, "copy.w=" + kFourFloats + ";dec=" + kFourFloats + ";enc.w=" + kFourFloats + ";");
  }

  // Point 7: each kind of file has a size limit, checked before anything is read (sparse files: no disk used).
  void oversizedFilesAreRefusedAtOnce() {
    const uint64_t threeGiB = uint64_t{3} << 30;
    const fs::path a = dir_ / "sparse_meta_a";
    writeFile(a / "snapshot_done", "");
    writeFile(a / "m.w" / "out", kFourFloats);
    writeSparse(a / "m.w" / "meta", threeGiB);
    expectRefused(bounded([&] {
                    oneflow::WeightFolder(a.string()).load("m.w", "w", {4}, 2);
                    return std::string();
                  }),
                  a / "m.w" / "meta", "variable 'm.w': meta: 3221225472 bytes, more than a OneFlow meta file can hold",
                  2000);

    const fs::path b = dir_ / "sparse_meta_b";
    writeFile(b / "pickled_data", envelope(dict({{"w", folderTensor("tensor_1")}})));
    writeFile(b / "tensor_1" / "out", kFourFloats);
    writeSparse(b / "tensor_1" / "meta", threeGiB);
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(b.string())); }), b / "tensor_1" / "meta",
                  "tensor 'w': meta: 3221225472 bytes, more than a OneFlow meta file can hold", 2000);

    const fs::path pickled = dir_ / "sparse_pickled_data";
    writeSparse(pickled / "pickled_data", uint64_t{300} << 20);
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(pickled.string())); }), pickled / "pickled_data",
                  "more than a format B pickled_data file can hold", 2000);

    for (const char* graph : {"job.pb", "saved_model.pb"}) {
      const fs::path folder = dir_ / (std::string("sparse_") + graph);
      writeSparse(folder / graph, threeGiB);
      expectRefused(bounded([&] {
                      oneflow::readOneflow(folder.string());
                      return std::string();
                    }),
                    folder / graph, "3221225472 bytes, more than a OneFlow graph file can hold", 2000);
    }
  }

  // Point 10: a shape whose byte count wraps around must not pass the size check.
  void shapesWhoseByteCountOverflowsAreRefused() {
    const fs::path c = dir_ / "overflow.of";
    writeFile(c, envelope(dict({{"w", floatArrayTensor({uint64_t{1} << 32, uint64_t{1} << 32}, "")}})));
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(c.string())); }), c,
                  "tensor 'w': the array shape [4294967296,4294967296] of float overflows");

    const fs::path b = dir_ / "overflow_b";
    writeFile(b / "pickled_data", envelope(dict({{"w", folderTensor("tensor_1")}})));
    writeFile(b / "tensor_1" / "meta", "shape { dim: 4294967296 dim: 4294967296 }\ndata_type: kFloat\n");
    writeFile(b / "tensor_1" / "out", "");
    expectRefused(bounded([&] { return describe(oneflow::readFlowSave(b.string())); }), b / "tensor_1" / "meta",
                  "tensor 'w': shape [4294967296,4294967296] of float overflows");
  }
};

QTEST_GUILESS_MAIN(OneflowHostileSaves)
#include "test_oneflow_hostile_saves.moc"
