#pragma once
// Writing what editing made, atomically (a temporary file renamed over the target): the edited model as
// `flowbridge-cli edit MODEL --script S -o OUT` writes it (the same ONNX writer, so the bytes are the same), and the
// edit script (core/edit/edit_script.h).
#include <QString>
#include <vector>

#include "edit/edit.h"
#include "ir/model.h"

namespace fb::ui {

// False with a one-line reason naming the file. Writes over a file the model reads its bytes from (the opened
// file: the caller asked first) only when `replaceOpened`; else such a path is refused.
bool writeEditedModel(const ir::Model& m, const QString& path, bool replaceOpened, QString* error);

// Whether `path` is (or links to) a file the model was read from.
bool isOpenedFile(const ir::Model& m, const QString& path);

bool writeEditScript(const std::vector<edit::Edit>& edits, const QString& path, QString* error);

}  // namespace fb::ui
