#pragma once
// The Python code targets of the Convert dock (ONNX -> PyTorch / OneFlow code): their names in the app, the
// dry run the source graph is coloured by, and where the generated folder is proposed.
#include <QString>
#include <memory>

#include "codegen/flavour.h"
#include "convert/converter.h"

namespace fb::ui {

// "PyTorch code" / "OneFlow code".
QString codeTargetName(codegen::Flavour f);

// What a dry run or conversion result converted to, for the Convert panel: "9" for ONNX opset 9, "PyTorch code".
QString targetLabel(const convert::ConvertResult& r);

// The statuses of every node for code generation (codegen::dryRunPython), as a conversion report like the ONNX
// dry run's, so the same halos and table show them. `facts` are the model's shape facts, when known.
convert::ConvertResult dryRunCode(const ir::Model& model, codegen::Flavour flavour,
                                  std::shared_ptr<const schema::ShapeFacts> facts);

// What makes generated code incomplete (unsupported or failed nodes, which become `raise NotImplementedError`
// lines), as one sentence; empty when every node was written.
QString codeProblemsOf(const convert::ConvertResult& r);

// `<folder of the model>/<model name>_pytorch` (or `_oneflow`): a folder beside the model.
QString suggestedCodeFolder(const QString& modelPath, codegen::Flavour flavour);

// Whether writing the generated folder at `folder` would replace or contain the source model: the folder is the
// model, or holds it (writeGeneratedFolder replaces a previous generated folder as a whole). Symlinks resolved.
bool folderHoldsSource(const QString& folder, const QString& sourcePath);

}  // namespace fb::ui
