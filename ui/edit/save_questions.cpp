#include "ui/edit/save_questions.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace fb::ui {

AskUnsavedEdits unsavedEditsMessageBox() {
  return [](QWidget* parent, const QString& modelName, int edits) {
    QMessageBox box(
        QMessageBox::Warning, QObject::tr("Unsaved edits"),
        QObject::tr("%1 has %n unsaved edit(s). Save them first?", nullptr, edits).arg(QFileInfo(modelName).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("unsavedEditsQuestion"));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    switch (box.exec()) {
      case QMessageBox::Save:
        return UnsavedEditsAnswer::Save;
      case QMessageBox::Discard:
        return UnsavedEditsAnswer::Discard;
      default:
        return UnsavedEditsAnswer::Cancel;
    }
  };
}

ConfirmOverwriteOpened overwriteOpenedMessageBox() {
  return [](QWidget* parent, const QString& path) {
    QMessageBox box(QMessageBox::Warning, QObject::tr("Save"),
                    QObject::tr("Replace %1, the file this model was opened from, with the edited model?").arg(path),
                    QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("overwriteOpenedQuestion"));
    QPushButton* replace = box.addButton(QObject::tr("Replace"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == replace;
  };
}

}  // namespace fb::ui
