// Save converted... for the code targets: the generated code is a folder (model.py, run.py, the weights), so
// a folder chooser asks where, starting beside the model (or where the last save went). The same rules as for ONNX
// files: only the preview of the current settings is written, an incomplete one only after an explicit Yes (its
// unsupported nodes are `raise NotImplementedError` lines), and a folder FlowBridge generated (its marker file) is
// replaced only after a Yes. The controller refuses folders that hold the source or other files, with the reason in a
// message.
#include <QDir>
#include <QFileInfo>

#include "codegen/code_generator.h"
#include "ui/conversion/code_target.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_summary.h"
#include "ui/conversion/convert_panel.h"
#include "ui/document.h"

namespace fb::ui {

void ConvertPanel::saveGeneratedCode() {
  const auto flavour = controller_->codeTarget();
  if (!flavour || !controller_->generatedCode()) return;
  const QString name = codeTargetName(*flavour);
  // A folder chooser: the answer is the folder to write into (a new or empty one, or the one written last time).
  const QString chosen = chooseFolder_(this, tr("Choose or create the folder for the %1").arg(name),
                                       inLastFolder(DialogKind::Save, suggestedCodeFolder(doc_->path(), *flavour)));
  if (chosen.isEmpty()) return;
  rememberFolder(DialogKind::Save, chosen);
  const QString folder = QDir::cleanPath(QFileInfo(chosen).absoluteFilePath());
  // Settings may have changed while the dialog was open: only the code of the current ones is saved.
  const convert::ConvertResult* r = controller_->conversion();
  if (!r || !controller_->generatedCode() || controller_->codeTarget() != flavour) {
    emit logMessage(tr("Not saved: %1: the settings changed; run Preview conversion again").arg(folder));
    return;
  }
  // Only a folder with FlowBridge's marker is offered for replacing; any other non-empty folder (even one with a
  // model.py and a run.py) is refused by the controller with the reason.
  if (codegen::isGeneratedFolder(folder.toStdString()) &&
      !confirm(QStringLiteral("replaceQuestion"), tr("Save %1").arg(name),
               tr("%1 holds code FlowBridge generated before (it has the %2 marker). Replace the whole folder?")
                   .arg(folder, QString::fromUtf8(codegen::kGeneratedFolderMarker)))) {
    emit logMessage(tr("Not saved: %1: the folder holds generated code and was kept").arg(folder));
    return;
  }
  auto ifIncomplete = ConversionController::IfIncomplete::Refuse;
  if (const QString problems = codeProblemsOf(*r); !problems.isEmpty()) {
    const QString question =
        tr("The %1 is incomplete: %2.\n\nNodes: %3.\n\nThe command line refuses to write it without "
           "--continue-on-error. Write %4 anyway, with a `raise NotImplementedError` line for each of those nodes?")
            .arg(name, problems, statusCounts(*r), folder);
    if (!confirm(QStringLiteral("saveIncompleteQuestion"), tr("Save incomplete code?"), question)) {
      emit logMessage(tr("Not saved: %1: the generated code is incomplete (%2)").arg(folder, problems));
      return;
    }
    ifIncomplete = ConversionController::IfIncomplete::Write;
  }
  controller_->save(folder, false, ifIncomplete);
}

}  // namespace fb::ui
