// The code targets of ConversionController (ONNX -> PyTorch / OneFlow code): the same life cycle as an ONNX
// conversion (a preview belongs to its model and settings, stale results are dropped, an incomplete result is
// written only when the caller says so), with codegen::generatePython instead of the converter and a folder
// written by codegen::writeGeneratedFolder instead of an .onnx file.
#include <QDirIterator>
#include <QFileInfo>
#include <QtConcurrent>

#include "codegen/code_generator.h"
#include "ui/conversion/code_target.h"
#include "ui/model_readers.h"
#include "ui/background_pool.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_summary.h"
#include "ui/document.h"
#include "util/failure_text.h"

namespace fb::ui {
namespace {

// The generated code refers to the source's weight bytes (Weight::tensor shares them), so it keeps the source
// model alive with it: code_ and conversion_ point into one of these.
struct GeneratedFromModel {
  std::shared_ptr<const ir::Model> source;
  codegen::CodegenResult result;
};

int lineCount(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

bool ConversionController::canGenerateCode() const {
  const ir::Model* m = doc_->model();
  return m && convert::directionFor(*m) == "onnx";
}

void ConversionController::setCodeTarget(std::optional<codegen::Flavour> flavour) {
  // Without a model any target may be chosen; the model that opens decides whether code can be generated.
  const bool refused = flavour && doc_->model() && !canGenerateCode();
  if (refused) flavour.reset();
  if (flavour != codeTarget_) {
    codeTarget_ = flavour;
    invalidate();
    refresh();
  }
  if (refused) emit codeTargetChanged();
}

QString ConversionController::targetDescription() const {
  return codeTarget_ ? codeTargetName(*codeTarget_) : tr("opset %1").arg(opset_);
}

void ConversionController::generateCode() {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  if (!model || !codeTarget_) return;
  const quint64 generation = ++convertGeneration_;
  converting_ = true;
  emit conversionStarted();
  codegen::CodegenOptions options;
  options.flavour = *codeTarget_;
  options.keepUnconverted = true;  // like the ONNX preview: show what can be written, unsupported nodes as raise lines
  if (factsModel_ == model.get()) options.facts = facts_;
  using Outcome = std::pair<std::shared_ptr<GeneratedFromModel>, QString>;
  auto future = QtConcurrent::run(backgroundPool(), [model, options]() -> Outcome {
    try {
      auto out = std::make_shared<GeneratedFromModel>();
      out->source = model;
      out->result = codegen::generatePython(*model, options);
      return {out, {}};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromStdString(failureText(e, "generating code"))};
    }
  });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != convertGeneration_) return;  // cancelled, or superseded
    converting_ = false;
    Outcome out = watcher->result();
    if (!out.first || !out.first->result.code) {
      const QString why = out.first ? tr("no code was generated") : out.second;
      emit logMessage(tr("Error: generating %1 from %2 failed: %3").arg(targetDescription(), sourceName(), why));
      emit conversionFailed(why);
      return;
    }
    std::shared_ptr<const GeneratedFromModel> held = out.first;
    code_ = std::shared_ptr<const codegen::GeneratedCode>(held, held->result.code.get());
    conversion_ = std::shared_ptr<const convert::ConvertResult>(held, &held->result.conversion);
    const auto& r = *conversion_;
    QString line = tr("Generated %1 from %2: %3; model.py %4 lines, %5 weights; %6 ms")
                       .arg(targetDescription(), sourceName(), statusCounts(r))
                       .arg(lineCount(code_->modelPy))
                       .arg(code_->weights.size())
                       .arg(r.totalMs, 0, 'f', 0);
    const QString problems = codeProblemsOf(r);
    line += problems.isEmpty() ? tr("; complete") : tr("; incomplete: %1").arg(problems);
    emit logMessage(line);
    emit conversionFinished();
  });
  watcher->setFuture(future);
  addModelReader(doc_, QFuture<void>(future));
}

void ConversionController::saveCode(const QString& folder, IfIncomplete ifIncomplete) {
  std::shared_ptr<const codegen::GeneratedCode> code = code_;
  std::shared_ptr<const convert::ConvertResult> result = conversion_;
  auto refuse = [this, &folder](const QString& why) {
    emit logMessage(tr("Not saved: %1: %2").arg(folder, why));
    emit saveFailed(why);
  };
  if (!code || !result || !codeTarget_) {
    refuse(tr("no code generated at the current settings (run Preview conversion first)"));
    return;
  }
  const QString problems = codeProblemsOf(*result);
  if (!problems.isEmpty() && ifIncomplete == IfIncomplete::Refuse) {
    refuse(tr("the generated code is incomplete: %1").arg(problems));
    return;
  }
  if (folderHoldsSource(folder, doc_->path())) {
    refuse(tr("the folder holds the source model %1; choose another folder").arg(doc_->path()));
    return;
  }
  const codegen::Flavour flavour = *codeTarget_;
  const QString what = tr("%1 from %2, %3 nodes (%4)%5")
                           .arg(codeTargetName(flavour), sourceName())
                           .arg(result->nodes.size())
                           .arg(statusCounts(*result))
                           .arg(problems.isEmpty() ? QString() : tr("; INCOMPLETE: %1").arg(problems));
  auto future = QtConcurrent::run(backgroundPool(), [code, flavour, folder]() -> std::pair<bool, QString> {
    try {
      codegen::writeGeneratedFolder(*code, flavour, folder.toStdString());
      qint64 bytes = 0;
      int files = 0;
      for (QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        it.next();
        bytes += it.fileInfo().size();
        ++files;
      }
      return {true, QObject::tr("%1 files, %2 bytes").arg(files).arg(bytes)};
    } catch (const std::exception& e) {
      return {false, QString::fromStdString(failureText(e, "writing " + folder.toStdString()))};
    }
  });
  auto* watcher = new QFutureWatcher<std::pair<bool, QString>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, folder, what] {
    watcher->deleteLater();
    auto [ok, text] = watcher->result();
    if (ok) {
      emit logMessage(tr("Saved %1: %2; %3").arg(folder, what, text));
      emit saved(folder, text);
    } else {
      emit logMessage(tr("Error: cannot save %1: %2").arg(folder, text));
      emit saveFailed(text);
    }
  });
  watcher->setFuture(future);
}

}  // namespace fb::ui
