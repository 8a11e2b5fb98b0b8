#include "ui/conversion/code_target.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>

#include "codegen/code_generator.h"

namespace fb::ui {

QString codeTargetName(codegen::Flavour f) {
  return f == codegen::Flavour::OneFlow ? QObject::tr("OneFlow code") : QObject::tr("PyTorch code");
}

QString targetLabel(const convert::ConvertResult& r) {
  if (r.direction == codegen::directionName(codegen::Flavour::PyTorch))
    return codeTargetName(codegen::Flavour::PyTorch);
  if (r.direction == codegen::directionName(codegen::Flavour::OneFlow))
    return codeTargetName(codegen::Flavour::OneFlow);
  return QString::number(r.targetOpset);
}

convert::ConvertResult dryRunCode(const ir::Model& model, codegen::Flavour flavour,
                                  std::shared_ptr<const schema::ShapeFacts> facts) {
  codegen::CodegenOptions o;
  o.flavour = flavour;
  o.facts = std::move(facts);
  return std::move(codegen::dryRunPython(model, o).conversion);
}

QString codeProblemsOf(const convert::ConvertResult& r) {
  const size_t unsupported = r.count(convert::NodeStatus::Unsupported), failed = r.count(convert::NodeStatus::Failed);
  if (unsupported + failed == 0 && r.error.empty()) return {};
  if (!r.error.empty()) return QString::fromStdString(r.error);
  return QObject::tr("%1 unsupported and %2 failed nodes are `raise NotImplementedError` lines")
      .arg(unsupported)
      .arg(failed);
}

QString suggestedCodeFolder(const QString& modelPath, codegen::Flavour flavour) {
  const QFileInfo info(QDir::cleanPath(modelPath));
  QString stem = info.isDir() ? info.fileName() : info.completeBaseName();
  if (stem.isEmpty()) stem = QStringLiteral("model");
  return QDir(info.absoluteDir().absolutePath())
      .filePath(
          stem + '_' +
          QString::fromUtf8(codegen::flavourName(flavour).data(), qsizetype(codegen::flavourName(flavour).size())));
}

bool folderHoldsSource(const QString& folder, const QString& sourcePath) {
  if (sourcePath.isEmpty()) return false;
  auto resolved = [](const QString& p) {
    const QFileInfo info(p);
    const QString canonical = info.canonicalFilePath();  // empty when it does not exist
    return QDir::cleanPath(canonical.isEmpty() ? info.absoluteFilePath() : canonical);
  };
  const QString dir = resolved(folder), source = resolved(sourcePath);
  return source == dir || source.startsWith(dir + '/') || dir == QStringLiteral("/");
}

}  // namespace fb::ui
