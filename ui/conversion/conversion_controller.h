#pragma once
// The conversion side of the inspector: the chosen target opset and passes, the dry run that colours the
// source graph (rerun on every change), the full conversion for the preview, and saving its result.
// All core work runs on worker threads; results arrive through signals. A newer request makes older
// results stale: they are dropped when they arrive (that is also what Cancel does, since a conversion
// cannot be interrupted halfway). A conversion belongs to the model and settings it was made with: any change
// of model, target opset or passes drops it (and a run still under way), so what is saved is always what the
// current settings produce.
#include <QFuture>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

#include "codegen/flavour.h"
#include "convert/converter.h"
#include "ui/conversion/model_diff.h"

namespace fb::codegen {
struct GeneratedCode;
}

namespace fb::ui {

class Document;

class ConversionController : public QObject {
  Q_OBJECT
 public:
  explicit ConversionController(Document* doc, QObject* parent = nullptr);
  ~ConversionController() override;

  int targetOpset() const { return opset_; }
  void setTargetOpset(int opset);
  // nullopt: the default pipeline; an empty list: no passes.
  const std::optional<QStringList>& passes() const { return passes_; }
  void setPasses(const std::optional<QStringList>& passes);
  // The target is ONNX at targetOpset() (nullopt) or Python code in one flavour (ONNX sources only). The code
  // target's dry run, preview and save live in conversion_controller_code.cpp.
  std::optional<codegen::Flavour> codeTarget() const { return codeTarget_; }
  void setCodeTarget(std::optional<codegen::Flavour> flavour);
  bool canGenerateCode() const;
  // "opset 9", "PyTorch code": what the current settings convert to, for messages.
  QString targetDescription() const;
  // The code generated for the current model and settings (null before Preview, after any change, for ONNX).
  std::shared_ptr<const codegen::GeneratedCode> generatedCode() const { return code_; }

  // Latest dry run of the open model at the current settings (null before the first one).
  const convert::ConvertResult* dryRun() const { return dryRun_.get(); }
  std::optional<convert::NodeStatus> statusOf(uint64_t nodeId) const;
  // The dry run's verdict on a node (status, reason, warnings); nullptr when it has none.
  const convert::NodeReport* reportOf(uint64_t nodeId) const;
  // The options convert() uses for the open model at the current settings (ONNX targets).
  convert::ConvertOptions options() const;
  // Runs the dry run again (called on model and settings changes).
  void refresh();
  // After an edit of the model in place, the dry run is run by the revalidation on its own copy of the model:
  // dryRunJob() gives the job at the current settings with a ticket (a newer dry run of this controller makes the
  // ticket stale), adoptDryRun() shows the job's result unless the ticket went stale meanwhile.
  std::pair<quint64, std::function<std::shared_ptr<const convert::ConvertResult>(const ir::Model&)>> dryRunJob();
  void adoptDryRun(std::shared_ptr<const convert::ConvertResult> result, quint64 ticket);

  // Full conversion of the open model for the preview.
  void convert();
  void cancel();
  bool isConverting() const { return converting_; }
  // The conversion of the open model at the current settings (null before Preview or after any change).
  const convert::ConvertResult* conversion() const { return conversion_.get(); }
  bool hasConversion() const { return converted_ != nullptr || code_ != nullptr; }
  std::shared_ptr<const ir::Model> convertedModel() const { return converted_; }
  // The passes of the current settings, as the Log names them ("default passes", "none", a list).
  QString passesDescription() const { return passesName(); }
  // What the conversion did, by node id: sourceDiff of the source model's nodes (removed, modified), previewDiff of
  // the converted model's (added, modified). The preview shows convertedModel() itself, so its nodes have these ids.
  DiffKind sourceDiff(uint64_t nodeId) const { return sourceDiff_.value(nodeId, DiffKind::Same); }
  DiffKind previewDiff(uint64_t nodeId) const { return previewDiff_.value(nodeId, DiffKind::Same); }
  const QHash<quint64, DiffKind>& previewDiffs() const { return previewDiff_; }
  // "model.onnx at opset 11": what the preview of the current conversion is called in messages.
  QString previewName() const;

  // What save() does with a conversion that left unsupported or failed nodes or failed the check (the CLI's
  // --continue-on-error): refuse, or write it with those nodes as they were.
  enum class IfIncomplete { Refuse, Write };
  // Writes the current conversion (atomically; never over the source). `externalData` forces a side file.
  // The outcome is a saved/saveFailed signal and a line in the log.
  void save(const QString& path, bool externalData, IfIncomplete ifIncomplete = IfIncomplete::Refuse);

 signals:
  void dryRunFinished();
  // The target follows each newly opened model (its own opset, so nothing is marked until the user picks one).
  void targetOpsetChanged(int opset);
  // The code target changed other than through setCodeTarget (a OneFlow model cannot be a code source).
  void codeTargetChanged();
  void conversionStarted();
  void conversionFinished();
  void conversionFailed(const QString& message);
  // The conversion was dropped because the model, target or passes changed: nothing to show or save.
  void conversionInvalidated();
  void saved(const QString& path, const QString& summary);
  void saveFailed(const QString& message);
  // A line for the Log panel: what was converted and saved, with counts and paths.
  void logMessage(const QString& text);

 private:
  // Log lines for what the passes left as it was and why (the constant-folding budget), after the summary line.
  void logPassWarnings(const convert::ConvertResult& r);
  void invalidate();
  void showDryRun(std::shared_ptr<const convert::ConvertResult> result);
  QString sourceName() const;
  QString passesName() const;
  void generateCode();
  void saveCode(const QString& folder, IfIncomplete ifIncomplete);

  Document* doc_;
  int opset_ = 17;
  std::optional<QStringList> passes_;
  std::shared_ptr<const convert::ConvertResult> dryRun_;
  // Shape facts of the open model: they do not depend on the target, so every dry run after the first reuses them.
  std::shared_ptr<const schema::ShapeFacts> facts_;
  const ir::Model* factsModel_ = nullptr;
  QHash<quint64, convert::NodeStatus> statuses_;
  QHash<quint64, int> reportIndex_;  // node id -> index into dryRun_->nodes
  std::shared_ptr<const convert::ConvertResult> conversion_;
  std::shared_ptr<const ir::Model> converted_;
  std::shared_ptr<const ir::Model> convertedFrom_;
  QHash<quint64, DiffKind> sourceDiff_, previewDiff_;
  quint64 dryGeneration_ = 0, convertGeneration_ = 0;
  quint64 modelEdits_ = 0;  // edits of the model in place: shape facts computed before one are stale
  bool converting_ = false;
  bool refreshAfterTypes_ = false;  // the dry run waits for the document's background types
  std::optional<codegen::Flavour> codeTarget_;
  std::shared_ptr<const codegen::GeneratedCode> code_;
};

}  // namespace fb::ui
