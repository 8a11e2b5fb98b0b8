#include "ui/save_paths.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

namespace fb::ui {
namespace {

// The model's folder and the stem its outputs are named after.
std::pair<QString, QString> folderAndStem(const QString& modelPath) {
  const QFileInfo info(QDir::cleanPath(modelPath));  // "resnet18_of/" names the folder, not a file inside it
  QString stem = info.isDir() ? info.fileName() : info.completeBaseName();
  if (stem.isEmpty()) stem = QStringLiteral("model");
  return {info.absoluteDir().absolutePath(), stem};
}

QString settingsKey(DialogKind kind) {
  switch (kind) {
    case DialogKind::Open:
      return QStringLiteral("dialogFolders/open");
    case DialogKind::Save:
      return QStringLiteral("dialogFolders/save");
    case DialogKind::Report:
      return QStringLiteral("dialogFolders/report");
    case DialogKind::Export:
      return QStringLiteral("dialogFolders/export");
  }
  return {};
}

}  // namespace

QString lastFolder(DialogKind kind) {
  const QString folder = QSettings().value(settingsKey(kind)).toString();
  return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}

void rememberFolder(DialogKind kind, const QString& chosen) {
  if (chosen.isEmpty()) return;
  // A chosen folder is remembered by where it lies too: the next dialog shows it among its siblings.
  QSettings().setValue(settingsKey(kind), QFileInfo(QDir::cleanPath(chosen)).absolutePath());
}

QString inLastFolder(DialogKind kind, const QString& suggested) {
  const QString folder = lastFolder(kind);
  return folder.isEmpty() ? suggested : QDir(folder).filePath(QFileInfo(QDir::cleanPath(suggested)).fileName());
}

void forgetLastFolders() { QSettings().remove(QStringLiteral("dialogFolders")); }

QString suggestedConvertedPath(const QString& modelPath, int opset) {
  auto [folder, stem] = folderAndStem(modelPath);
  static const QRegularExpression trailingOpset(QStringLiteral("_opset\\d+$"));
  stem.remove(trailingOpset);
  return QDir(folder).filePath(QStringLiteral("%1_opset%2.onnx").arg(stem).arg(opset));
}

QString suggestedExportPath(const QString& modelPath, const QString& suffix) {
  auto [folder, stem] = folderAndStem(modelPath);
  return QDir(folder).filePath(stem + '.' + suffix);
}

QString suggestedFolderPath(const QString& modelPath, const QString& what) {
  auto [folder, stem] = folderAndStem(modelPath);
  static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_-]+"));
  QString tail = what;
  tail.replace(unsafe, QStringLiteral("_"));
  tail = tail.left(60);
  return QDir(folder).filePath(tail.isEmpty() ? stem : stem + '_' + tail);
}

QString withSuffix(const QString& path, const QStringList& suffixes, const QString& fallback) {
  if (path.isEmpty()) return path;
  const QString suffix = QFileInfo(path).suffix();
  for (const QString& s : suffixes)
    if (suffix.compare(s, Qt::CaseInsensitive) == 0) return path;
  return path + '.' + fallback;
}

QString suffixOfFilter(const QString& filter) {
  static const QRegularExpression pattern(QStringLiteral("\\*\\.(\\w+)"));
  const auto m = pattern.match(filter);
  return m.hasMatch() ? m.captured(1).toLower() : QString();
}

ChooseSavePath fileDialogChooser() {
  return [](QWidget* parent, const QString& title, const QString& suggested, const QString& filters,
            QString* selectedFilter) -> QString {
    QFileDialog dialog(parent, title);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setNameFilters(filters.split(QStringLiteral(";;")));
    if (selectedFilter && !selectedFilter->isEmpty()) dialog.selectNameFilter(*selectedFilter);
    dialog.setDirectory(QFileInfo(suggested).absolutePath());
    dialog.selectFile(QFileInfo(suggested).fileName());
    dialog.setDefaultSuffix(suffixOfFilter(dialog.selectedNameFilter()));
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog,
                     [&dialog](const QString& f) { dialog.setDefaultSuffix(suffixOfFilter(f)); });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
    if (selectedFilter) *selectedFilter = dialog.selectedNameFilter();
    return dialog.selectedFiles().first();
  };
}

ChooseFolder folderDialogChooser() {
  return [](QWidget* parent, const QString& title, const QString& suggested) -> QString {
    // A save dialog rather than a folder picker: the suggested folder usually does not exist yet.
    QFileDialog dialog(parent, title);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setOption(QFileDialog::DontConfirmOverwrite);
    dialog.setDirectory(QFileInfo(suggested).absolutePath());
    dialog.selectFile(QFileInfo(suggested).fileName());
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
    return dialog.selectedFiles().first();
  };
}

ChooseFolder directoryDialogChooser() {
  return [](QWidget* parent, const QString& title, const QString& suggested) -> QString {
    QFileDialog dialog(parent, title);
    dialog.setFileMode(QFileDialog::Directory);
    dialog.setOption(QFileDialog::ShowDirsOnly);
    const QFileInfo target(QDir::cleanPath(suggested));
    dialog.setDirectory(target.absolutePath());
    // The folder made last time is offered again.
    if (target.isDir()) dialog.selectFile(target.fileName());
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
    return dialog.selectedFiles().first();
  };
}

}  // namespace fb::ui
