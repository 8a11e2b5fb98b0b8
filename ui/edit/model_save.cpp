#include "ui/edit/model_save.h"

#include <QFileInfo>
#include <QObject>
#include <cstdio>
#include <filesystem>

#include "edit/edit_script.h"
#include "formats/onnx/onnx_writer.h"
#include "util/atomic_file.h"

namespace fb::ui {

bool isOpenedFile(const ir::Model& m, const QString& path) {
  std::error_code ec;
  for (const auto& source : m.sourceFiles)
    if (std::filesystem::equivalent(path.toStdString(), source, ec) && !ec) return true;
  return false;
}

bool writeEditedModel(const ir::Model& m, const QString& path, bool replaceOpened, QString* error) {
  const std::string target = path.toStdString();
  try {
    if (!isOpenedFile(m, path)) {
      onnxfmt::writeOnnxFile(m, target);
      return true;
    }
    if (!replaceOpened) {
      if (error) *error = QObject::tr("%1: it is the file the model was opened from").arg(path);
      return false;
    }
    // The writer refuses the model's own files (it may still read weights from them): it writes a file beside the
    // target, which is then renamed over it. The model's mapped bytes stay valid (they belong to the old file).
    const QFileInfo info(path);
    const std::string beside =
        (info.absolutePath() + QStringLiteral("/.") + info.fileName() + QStringLiteral(".flowbridge-save"))
            .toStdString();
    const onnxfmt::WriteResult written = onnxfmt::writeOnnxFile(m, beside);
    if (!written.sideFilePath.empty()) {
      std::remove(beside.c_str());
      std::remove(written.sideFilePath.c_str());
      if (error)
        *error = QObject::tr("%1: a model with its weights in a side file cannot replace the opened file; use Save As")
                     .arg(path);
      return false;
    }
    if (std::rename(beside.c_str(), target.c_str()) != 0) {
      std::remove(beside.c_str());
      if (error) *error = QObject::tr("%1: cannot replace it").arg(path);
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

bool writeEditScript(const std::vector<edit::Edit>& edits, const QString& path, QString* error) {
  try {
    AtomicFile out(path.toStdString());
    out.write("# FlowBridge edit script: flowbridge-cli edit MODEL --script THIS -o OUT.onnx replays it\n");
    out.write(edit::formatScript(edits));
    out.commit();
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

}  // namespace fb::ui
