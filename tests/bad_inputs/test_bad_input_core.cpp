// The hardening rules of issue 11 that the CLI suite (bad_inputs) cannot reach from outside: a file truncated
// while mapped, the constant-folding budget and its override, containment checked on the opened descriptor,
// escaping of control characters.
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "eval/eval_budget.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "support/helpers.h"
#include "passes/pass_graph.h"
#include "util/error.h"
#include "util/input_file.h"
#include "util/mapped_file.h"
#include "util/printable.h"

using namespace fb;
namespace fs = std::filesystem;

class BadInputCore : public QObject {
  Q_OBJECT
  std::string dir_;

  // ConstantOfShape(shape) -> ReduceSum: folding the first node materializes prod(shape) elements.
  static std::unique_ptr<ir::Model> constantOfShape(const std::vector<int64_t>& shape) {
    test::GraphBuilder b(13);
    auto* s = b.ints("shape", shape);
    ir::Tensor one = ir::Tensor::fromValues<float>("v", ir::DataType::Float, {1}, {1.0f});
    b.node("ConstantOfShape", {s}, {"big"}, {ir::Attribute::makeTensor("value", one)});
    b.node("ReduceSum", {b.g().findValue("big")}, {"y"}, {ir::Attribute::makeInt("keepdims", 0)});
    b.output("y", {});
    return std::move(b.model);
  }

  static std::vector<std::string> foldingWarnings(const passes::PassManagerResult& r) {
    for (const auto& p : r.perPass)
      if (p.name == "constant_folding") return p.total.warnings;
    return {};
  }

 private slots:
  void initTestCase() { dir_ = test::scratchDir("bad_input_core").toStdString(); }

  void truncatedWhileMappedIsAnErrorNotSigbus() {
    // 1 MiB of weights: large enough for the zero-copy path, which leaves them in the map.
    test::GraphBuilder b(13);
    b.init("w", {256, 1024}, std::vector<float>(256 * 1024, 2.0f));
    b.node("Relu", {b.g().findValue("w")}, {"y"});
    b.output("y", {256, 1024});
    const std::string path = dir_ + "/truncated.onnx";
    onnxfmt::writeOnnxFile(*b.model, path);
    auto m = onnxfmt::readOnnxFile(path);
    const ir::Tensor* w = m->graph().findValue("w")->initializer();
    QVERIFY(w);
    QCOMPARE(::truncate(path.c_str(), 512), 0);
    double sum = 0;
    for (float v : w->values<float>()) sum += v;  // reads pages the file no longer has
    QVERIFY(sum < 256.0 * 1024 * 2.0);            // the lost pages read as zeros
    try {
      throwIfMappedFileDamaged();
      QFAIL("no error after reading a truncated map");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
      QVERIFY2(std::string(e.what()).find("truncated") != std::string::npos, e.what());
    }
    // Writing what was read from it is refused too.
    QVERIFY_THROWS_EXCEPTION(InputError, onnxfmt::writeOnnxFile(*m, dir_ + "/from_truncated.onnx"));
    QVERIFY(!fs::exists(dir_ + "/from_truncated.onnx"));
  }

  void foldingStopsAtTheBudget() {
    // 1.6e9 elements: 12.8 GB as doubles. Must stay a node, with a warning, and cost no memory.
    auto m = constantOfShape({40000, 40000});
    auto r = test::runPasses(*m, {"constant_folding"});
    QCOMPARE(test::countOp(*m, "ConstantOfShape"), size_t(1));
    const auto warnings = foldingWarnings(r);
    QCOMPARE(warnings.size(), size_t(1));
    QVERIFY2(warnings[0].find("budget") != std::string::npos, warnings[0].c_str());
  }

  void foldingBudgetCanBeOverridden() {
    // 600 x 600 = 2.9 MB as doubles: folded by default, not with a 1 MiB budget.
    auto folded = constantOfShape({600, 600});
    test::runPasses(*folded, {"constant_folding"});
    QCOMPARE(test::countOp(*folded, "ConstantOfShape"), size_t(0));

    ::setenv("FLOWBRIDGE_FOLD_BUDGET_MB", "1", 1);
    auto kept = constantOfShape({600, 600});
    auto r = test::runPasses(*kept, {"constant_folding"});
    ::unsetenv("FLOWBRIDGE_FOLD_BUDGET_MB");
    QCOMPARE(test::countOp(*kept, "ConstantOfShape"), size_t(1));
    QCOMPARE(foldingWarnings(r).size(), size_t(1));
    QCOMPARE(eval::defaultEvalBudget().maxArrayBytes, uint64_t{64} << 20);
  }

  void budgetIsChargedBeforeAllocating() {
    eval::BudgetScope scope({1 << 20, 2 << 20});
    eval::chargeArray(100000);                                              // 800 KB
    QVERIFY_THROWS_EXCEPTION(eval::OverBudget, eval::chargeArray(200000));  // 1.6 MB > 1 MiB per array
    eval::chargeArray(120000);
    QVERIFY_THROWS_EXCEPTION(eval::OverBudget, eval::chargeArray(100000));          // over 2 MiB in total
    QVERIFY_THROWS_EXCEPTION(eval::OverBudget, eval::chargeArray(UINT64_MAX / 2));  // no wrap-around
  }

  void containmentIsCheckedOnTheOpenedFile() {
    const std::string root = dir_ + "/model_dir";
    fs::create_directories(root);
    const std::string outside = dir_ + "/outside.bin";
    std::ofstream(outside) << "secret";
    std::ofstream(root + "/inside.bin") << "ok";
    fs::remove(root + "/link.bin");
    fs::create_symlink(outside, root + "/link.bin");
    QCOMPARE(InputFile::open(root + "/inside.bin", root).readAll(), std::string("ok"));
    QVERIFY_THROWS_EXCEPTION(InputError, InputFile::open(root + "/link.bin", root));
    QVERIFY_THROWS_EXCEPTION(InputError, InputFile::open(root + "/../outside.bin", root));
    QVERIFY_THROWS_EXCEPTION(InputError, MappedFile::open(root + "/link.bin", root));
    // Without a folder to stay in, the same link is an ordinary file.
    QCOMPARE(InputFile::open(root + "/link.bin").readAll(), std::string("secret"));
  }

  void fifoIsRefusedWithoutBlocking() {
    const std::string fifo = dir_ + "/fifo.onnx";
    fs::remove(fifo);
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QElapsedTimer t;
    t.start();
    QVERIFY_THROWS_EXCEPTION(InputError, onnxfmt::readOnnxFile(fifo));
    QVERIFY_THROWS_EXCEPTION(InputError, InputFile::open(fifo));
    QVERIFY(t.elapsed() < 5000);
  }

  void controlCharactersAreEscaped() {
    QCOMPARE(printable("a\x1b[2Jb\nc\rd\x7f"), std::string("a\\x1b[2Jb\\nc\\rd\\x7f"));
    QCOMPARE(printable("caf\xc3\xa9"), std::string("caf\xc3\xa9"));  // UTF-8 stays readable
    // C1 controls (U+009B is CSI to a terminal), line separators, bidi overrides and bytes that are not UTF-8.
    QCOMPARE(printable("a\xc2\x9b"
                       "2Jb\xe2\x80\xa8"
                       "c\xe2\x80\xae"
                       "d\x9b"
                       "e\xff"),
             std::string("a\\x9b2Jb\\u2028c\\u202ed\\x9be\\xff"));
    QCOMPARE(printableLines("one\x07\ntwo\n"), std::string("one\\x07\ntwo\n"));
  }
};

QTEST_GUILESS_MAIN(BadInputCore)
#include "test_bad_input_core.moc"
