#include "ui/main_window.h"

#include <QFileDialog>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>

#include "formats/model_io.h"
#include "inspect/model_summary.h"
#include "ir/model.h"
#include "util/error.h"

namespace fb::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), summary_(new QPlainTextEdit(this)) {
  summary_->setReadOnly(true);
  setCentralWidget(summary_);
  auto* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    QString p = QFileDialog::getOpenFileName(this, tr("Open model"), {}, tr("Models (*.onnx);;All files (*)"));
    if (!p.isEmpty()) openFile(p);
  });
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  resize(1200, 800);
  setWindowTitle("FlowBridge");
}

MainWindow::~MainWindow() = default;

bool MainWindow::openFile(const QString& path) {
  try {
    auto m = loadModel(path.toStdString());
    summary_->setPlainText(QString::fromStdString(toText(summarize(*m))));
    model_ = std::move(m);
    setWindowTitle("FlowBridge - " + path);
    lastError_.clear();
    return true;
  } catch (const std::exception& e) {
    lastError_ = QString::fromStdString(e.what());
    statusBar()->showMessage(tr("Cannot open %1: %2").arg(path, lastError_));
    return false;
  }
}

}  // namespace fb::ui
