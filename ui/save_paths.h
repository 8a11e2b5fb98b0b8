#pragma once
// Where the app proposes to write things, and the file name the user's answer really means: dialogs start
// in the folder the last dialog of their kind was answered in (open, save, report, export: each remembers its own,
// across sessions), else in the model's folder, with a name derived from the model; a name typed without an
// extension gets one.
#include <QString>
#include <QStringList>
#include <functional>

class QWidget;

namespace fb::ui {

// `<folder of the model>/<model name>_opset<N>.onnx`; a trailing `_opset<M>` of the model's name is replaced
// rather than repeated. A model that is a folder (OneFlow) gets the file beside the folder.
QString suggestedConvertedPath(const QString& modelPath, int opset);

// `<folder of the model>/<model name>.<suffix>` (suffix without the dot).
QString suggestedExportPath(const QString& modelPath, const QString& suffix);

// `<folder of the model>/<model name>_<what>`, `what` reduced to letters, digits, '-' and '_' (a node name from the
// model is untrusted): the folder Extract Subgraph... proposes.
QString suggestedFolderPath(const QString& modelPath, const QString& what);

// The kinds of dialog that each remember their last folder.
enum class DialogKind { Open, Save, Report, Export };
// The folder the last dialog of `kind` was answered in (kept in QSettings); empty when there was none yet or it is
// gone.
QString lastFolder(DialogKind kind);
// Remembers the folder holding `chosen` (a file or folder the user picked in a dialog of `kind`).
void rememberFolder(DialogKind kind, const QString& chosen);
// `suggested` moved into lastFolder(kind), its name kept; unchanged when nothing is remembered.
QString inLastFolder(DialogKind kind, const QString& suggested);
// Forgets every remembered folder (tests that expect the first-time suggestions).
void forgetLastFolders();

// `path` unchanged when it ends with one of `suffixes` (case-insensitive, without dots), else `path.<fallback>`.
QString withSuffix(const QString& path, const QStringList& suffixes, const QString& fallback);

// The suffix a dialog's name filter stands for: "PNG (*.png)" -> "png"; empty when there is none.
QString suffixOfFilter(const QString& filter);

// Asks for a file to write. Returns the path (empty when cancelled); `selectedFilter` in/out like
// QFileDialog's. Tests put their own in place of the dialog.
using ChooseSavePath = std::function<QString(QWidget* parent, const QString& title, const QString& suggested,
                                             const QString& filters, QString* selectedFilter)>;
// QFileDialog in save mode, starting at `suggested`, that adds the selected filter's suffix itself (so its
// overwrite question is about the file that will really be written).
ChooseSavePath fileDialogChooser();

// Asks for a folder to write into, existing or new (a name typed in the dialog; the writer creates it). Returns the
// path, empty when cancelled. Tests put their own in place of the dialog.
using ChooseFolder = std::function<QString(QWidget* parent, const QString& title, const QString& suggested)>;
ChooseFolder folderDialogChooser();
// A folder picker (directories only): an existing folder, or one made with its "Create New Folder" button; it starts
// beside `suggested`, on it when it exists. Save converted... of generated code asks with it.
ChooseFolder directoryDialogChooser();

}  // namespace fb::ui
