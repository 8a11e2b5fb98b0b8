#pragma once
// For the tests of `run`, `compare`, `extract` and `convert --verify`: seeded inputs written as .npy files, ONNX
// Runtime (tests/oracle/run_npy.mjs) run on them, and the CLI with the test hooks (app/flowbridge-cli/test_hooks.h).
#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

#include "eval/io/npy_file.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "support/helpers.h"
#include "oracle/oracle.h"

namespace fb::test {

struct NpyInputs {
  QStringList cliArgs;  // --input NAME=FILE ...
  QStringList files;    // in the order of the inputs a run needs (what run_npy.mjs takes)
};

// Seeded inputs for `model` (symbolic dims 1), one .npy file per input in `dir`.
inline NpyInputs writeSeededInputs(const QString& model, const QString& dir, uint64_t seed = 7) {
  auto m = loadModel(model.toStdString());
  const auto inputs = eval::makeInputs(*m, {}, {}, seed);
  NpyInputs r;
  int k = 0;
  for (const auto& name : eval::requiredInputs(*m)) {
    const QString file = dir + QString("/in_%1.npy").arg(k++);
    eval::writeNpyFile(file.toStdString(), inputs.values.at(name).tensor());
    r.cliArgs << "--input" << QString::fromStdString(name) + "=" + file;
    r.files << file;
  }
  return r;
}

// ONNX Runtime's outputs of `model` on `inputs`: OUTDIR/<k>.npy. Empty string on success, else the diagnostics.
inline QString runOnnxRuntime(const QString& model, const QString& outDir, const QStringList& inputs) {
  QProcess p;
  p.start("node", QStringList{oracleDir() + "/run_npy.mjs", model, outDir} + inputs);
  if (!p.waitForFinished(600000)) {
    p.kill();
    p.waitForFinished();
    return "ONNX Runtime timed out";
  }
  if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
    return "ONNX Runtime failed: " + QString::fromUtf8(p.readAllStandardError()).left(400);
  return {};
}

// `flowbridge-cli run` and ONNX Runtime on the same seeded inputs: FlowBridge's outputs in DIR/fb/<name>.npy,
// ONNX Runtime's in DIR/ort/<k>.npy. `error` is empty when both ran.
struct CliAndOrtRun {
  CliResult cli;
  QString error;
};
inline CliAndOrtRun runCliAndOnnxRuntime(const QString& model, const QString& dir, int timeoutMs = 300000) {
  const auto inputs = writeSeededInputs(model, dir);
  CliAndOrtRun r;
  r.cli = runCli(QStringList{"run", model, "--save-outputs", dir + "/fb"} + inputs.cliArgs, timeoutMs);
  if (r.cli.exitCode != 0)
    r.error = "flowbridge-cli run: exit " + QString::number(r.cli.exitCode) + ": " + QString::fromUtf8(r.cli.err);
  else
    r.error = runOnnxRuntime(model, dir + "/ort", inputs.files);
  return r;
}

// Output k (named `name`) of both runs of runCliAndOnnxRuntime: {ONNX Runtime's, FlowBridge's}.
inline std::pair<eval::Tensor, eval::Tensor> outputsOfBothRuns(const QString& dir, const QString& name, size_t k) {
  return {eval::readNpyFile((dir + QString("/ort/%1.npy").arg(k)).toStdString()),
          eval::readNpyFile((dir + "/fb/" + name + ".npy").toStdString())};
}

#ifdef FB_CLI_TEST_HOOKS_PATH
// flowbridge-cli-test-hooks with FLOWBRIDGE_TEST_BREAK_HANDLER=`brokenOp`.
inline CliResult runCliWithBrokenHandler(const QString& brokenOp, const QStringList& args) {
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("FLOWBRIDGE_TEST_BREAK_HANDLER", brokenOp);
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(FB_CLI_TEST_HOOKS_PATH), args);
  CliResult r;
  if (!p.waitForFinished(600000)) {
    p.kill();
    p.waitForFinished();
    r.exitCode = -2;
  } else {
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
  }
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}
#endif

}  // namespace fb::test
