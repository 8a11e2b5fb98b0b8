#pragma once
// For UI tests: answers the modal message box named `expected` with `button` (NoButton: its default, by Enter)
// once it shows, after recording its name, text and whether No is its default.
#include <QApplication>
#include <QMessageBox>
#include <QString>
#include <QTimer>
#include <QtTest>

namespace fb::test {

struct MessageBoxAnswer {
  QString expected;
  QString objectName, text;
  bool answered = false;
  bool defaultIsNo = false;
  void arm(const QString& name, QMessageBox::StandardButton button) {
    expected = name;
    QTimer::singleShot(0, [this, button] { poll(button, 0); });
  }
  void poll(QMessageBox::StandardButton button, int tries) {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box || box->objectName() != expected) {
      if (tries < 1000) QTimer::singleShot(10, [this, button, tries] { poll(button, tries + 1); });
      return;
    }
    objectName = box->objectName();
    text = box->text();
    answered = true;
    defaultIsNo = box->defaultButton() == box->button(QMessageBox::No);
    if (button == QMessageBox::NoButton)
      QTest::keyClick(box, Qt::Key_Return);
    else
      box->button(button)->click();
  }
};

}  // namespace fb::test
