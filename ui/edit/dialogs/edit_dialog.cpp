#include "ui/edit/dialogs/edit_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "edit/apply_edits.h"
#include "edit/edit_script.h"
#include "util/printable.h"

namespace fb::ui {

namespace {

QString elideMiddle(const QString& s, int maxChars) {
  if (s.size() <= maxChars) return s;
  const int keep = std::max(1, (maxChars - 1) / 2);
  return s.left(keep) + QChar(0x2026) + s.right(keep);
}

}  // namespace

QString shownName(const std::string& s, int maxChars) {
  if (s.empty()) return QObject::tr("(unnamed)");
  return elideMiddle(QString::fromStdString(printable(s)), maxChars);
}

QString shownLine(const std::string& s, int maxChars) {
  return elideMiddle(QString::fromStdString(printable(s)), maxChars);
}

EditDialog::EditDialog(const ir::Model& model, const QString& title, QWidget* parent) : QDialog(parent), model_(model) {
  setWindowTitle(title);
  auto* outer = new QVBoxLayout(this);
  body_ = new QVBoxLayout;
  outer->addLayout(body_, 1);
  pause_ = new QTimer(this);
  pause_->setSingleShot(true);
  pause_->setInterval(150);
  connect(pause_, &QTimer::timeout, this, &EditDialog::revalidate);
}

void EditDialog::finishLayout() {
  auto* outer = static_cast<QVBoxLayout*>(layout());
  // Plain text only: reasons quote model strings, which must never be read as markup.
  reasonLabel_ = new QLabel(this);
  reasonLabel_->setObjectName(QStringLiteral("editReason"));
  reasonLabel_->setTextFormat(Qt::PlainText);
  reasonLabel_->setStyleSheet(QStringLiteral("color: #c62828;"));
  reasonLabel_->setWordWrap(true);
  scriptLabel_ = new QLabel(this);
  scriptLabel_->setObjectName(QStringLiteral("editScriptLine"));
  scriptLabel_->setTextFormat(Qt::PlainText);
  scriptLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  scriptLabel_->setWordWrap(true);
  scriptLabel_->setToolTip(tr("The edit as a line of an edit script (flowbridge-cli edit --script)"));
  outer->addWidget(reasonLabel_);
  outer->addWidget(scriptLabel_);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
    revalidate();  // the pause may not have run yet
    if (canAccept()) accept();
  });
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  outer->addWidget(buttons_);
  revalidate();
}

void EditDialog::scheduleRevalidate() {
  // OK stays off until the check has run on what the user typed.
  if (buttons_) buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
  pause_->start();
}

void EditDialog::revalidate() {
  pause_->stop();
  std::string why;
  std::vector<edit::Edit> list;
  if (auto r = formReason()) {
    why = *r;
  } else {
    list = edits();
    if (list.empty()) why = tr("nothing to change").toStdString();
    for (const auto& e : list) {
      try {
        if (auto r2 = edit::checkEdit(model_, e)) {
          why = *r2;
          break;
        }
      } catch (const std::exception& ex) {
        why = ex.what();
        break;
      }
    }
  }
  reason_ = why.empty() ? QString() : shownLine(why);
  if (!reasonLabel_) return;
  reasonLabel_->setText(reason_);
  reasonLabel_->setToolTip(reason_);
  QString script;
  if (why.empty())
    for (const auto& e : list) script += (script.isEmpty() ? "" : "\n") + shownLine(edit::formatEdit(e), 160);
  scriptLabel_->setText(script);
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(reason_.isEmpty());
}

std::optional<std::vector<edit::Edit>> EditDialog::run() {
  if (exec() != QDialog::Accepted) return std::nullopt;
  return edits();
}

}  // namespace fb::ui
