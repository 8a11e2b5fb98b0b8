#pragma once
// For the tests of shapes as Python ints (test_codegen_shapes, test_codegen_shapes_large): generate a model's code,
// write its folder, run tests/codegen/check_static_shapes.py on it.
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

#include "codegen/code_generator.h"
#include "formats/model_io.h"

namespace fb::test {

inline std::unique_ptr<codegen::CodegenResult> generate(const QString& model, codegen::Flavour flavour) {
  auto source = loadModel(model.toStdString());
  codegen::CodegenOptions opts;
  opts.flavour = flavour;
  return std::make_unique<codegen::CodegenResult>(codegen::generatePython(*source, opts));
}

inline QString write(const codegen::CodegenResult& r, codegen::Flavour flavour, const QString& dir) {
  const QString out = dir + "/" + QString::fromLatin1(codegen::flavourName(flavour).data());
  codegen::writeGeneratedFolder(*r.code, flavour, out.toStdString());
  return out;
}

// Runs a Python script; its output (the JSON report last).
inline QString runPython(const QStringList& args, bool& ok) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", args);
  ok = p.waitForFinished(600000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
  return QString::fromUtf8(p.readAll());
}

// torch.jit.script of the generated PyTorch module (and with `reexport`, torch.onnx.export with dynamic axes) run
// at sizes 1 and 3 against ONNX Runtime on the source; "" when all agree, else the report.
inline QString scriptAndReexport(const QString& model, const QString& dir, bool reexport) {
  auto r = generate(model, codegen::Flavour::PyTorch);
  if (!r->complete()) return "not every node converted";
  const QString code = write(*r, codegen::Flavour::PyTorch, dir);
  QStringList args{FB_SOURCE_DIR "/tests/codegen/check_static_shapes.py", "--model", model, "--work", dir + "/check"};
  if (reexport) args << "--export" << dir + "/reexport.onnx";
  bool ok = false;
  const QString report = runPython(args << code, ok);
  if (!ok || !report.contains("\"script_3\": {\"ok\": true")) return report;
  if (reexport && !report.contains("\"export_3\": {\"ok\": true")) return report;
  return {};
}

}  // namespace fb::test
