#pragma once
#include <QMainWindow>
#include <memory>

class QPlainTextEdit;

namespace fb::ir {
class Model;
}

namespace fb::ui {

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;
  // Returns false (and shows why) when the file cannot be read; the previous model stays open.
  bool openFile(const QString& path);
  QString lastError() const { return lastError_; }

 private:
  QPlainTextEdit* summary_;
  std::unique_ptr<ir::Model> model_;
  QString lastError_;
};

}  // namespace fb::ui
