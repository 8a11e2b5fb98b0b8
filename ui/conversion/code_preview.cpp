#include "ui/conversion/code_preview.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "codegen/code_generator.h"
#include "ir/node.h"
#include "ui/conversion/code_target.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/document.h"
#include "ui/widgets/code_view.h"

namespace fb::ui {

CodePreview::CodePreview(QMainWindow* window, Document* source, ConversionController* controller, QObject* parent)
    : QObject(parent),
      window_(window),
      doc_(source),
      controller_(controller),
      view_(new CodeView),
      legend_(new QLabel) {
  legend_->setWordWrap(true);
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(legend_);
  layout->addWidget(view_, 1);
  dock_ = new QDockWidget(tr("Code (generated)"), window);
  dock_->setObjectName(QStringLiteral("CodeDock"));
  dock_->setWidget(box);
  window->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();

  connect(controller_, &ConversionController::conversionFinished, this, &CodePreview::showGenerated);
  connect(controller_, &ConversionController::conversionInvalidated, this, &CodePreview::clear);
  connect(doc_, &Document::modelChanged, this, [this] {
    clear();
    dock_->hide();
  });
  connect(doc_, &Document::selectionChanged, this, &CodePreview::followSelection);
  connect(view_, &CodeView::lineChosen, this, &CodePreview::chooseLine);
  clear();
}

void CodePreview::clear() {
  nodeAtLine_.clear();
  view_->setCode(QString());
  legend_->setText(
      tr("No generated code for the current model and settings: pick PyTorch or OneFlow code as the "
         "target and Preview conversion"));
}

void CodePreview::showGenerated() {
  const auto code = controller_->generatedCode();
  if (!code || !controller_->codeTarget()) return;  // an ONNX conversion: the graph Preview shows it
  nodeAtLine_.clear();
  for (const auto& [id, lines] : code->nodeLines)
    for (int line : lines) nodeAtLine_.insert(line, id);
  // A weight's declaration stands for the node that uses it first in forward.
  auto firstStatement = [&code](quint64 id) {
    const auto it = code->nodeLines.find(id);
    return it == code->nodeLines.end() || it->second.empty() ? std::numeric_limits<int>::max() : it->second.front();
  };
  for (const auto& [id, lines] : code->weightLines)
    for (int line : lines)
      if (const auto at = nodeAtLine_.constFind(line);
          at == nodeAtLine_.constEnd() || firstStatement(id) < firstStatement(*at))
        nodeAtLine_.insert(line, id);
  view_->setCode(QString::fromStdString(code->modelPy));
  const auto lines = std::count(code->modelPy.begin(), code->modelPy.end(), '\n');
  legend_->setText(tr("%1: model.py, %2 lines, class %3, %4 weights. Select a node to see its lines; click a line "
                      "to select its node.")
                       .arg(codeTargetName(*controller_->codeTarget()))
                       .arg(lines)
                       .arg(QString::fromStdString(code->className))
                       .arg(code->weights.size()));
  dock_->show();
  dock_->raise();
  if (!sized_) {
    // The right column is shared with Node/Tensor/Model: give the code most of its height and a readable width.
    // Once the dock is in the layout (the next turn of the event loop).
    sized_ = true;
    QTimer::singleShot(0, dock_, [this] {
      window_->resizeDocks({dock_}, {window_->height() * 3 / 5}, Qt::Vertical);
      window_->resizeDocks({dock_}, {qMax(dock_->width(), window_->width() * 2 / 5)}, Qt::Horizontal);
    });
  }
  followSelection();
}

void CodePreview::followSelection() {
  const auto code = controller_->generatedCode();
  const ir::Node* n = doc_->focusNode();
  // All of the node's lines: its statements in forward and the declarations of its weights in __init__; the view
  // goes to the first statement.
  QList<int> lines;
  int statement = 0;
  if (code && n) {
    if (auto it = code->nodeLines.find(n->id()); it != code->nodeLines.end() && !it->second.empty()) {
      lines = QList<int>(it->second.begin(), it->second.end());
      statement = it->second.front();
    }
    if (auto it = code->weightLines.find(n->id()); it != code->weightLines.end())
      lines += QList<int>(it->second.begin(), it->second.end());
    std::sort(lines.begin(), lines.end());
  }
  if (choosing_)
    view_->highlightLines(lines);
  else
    view_->showLines(lines, statement);
}

void CodePreview::chooseLine(int line) {
  const quint64 id = nodeAtLine(line);
  if (!id) return;  // a line of the module's frame (imports, class, return): the selection stays
  const ir::Node* n = doc_->findNode(id);
  if (!n) return;
  choosing_ = true;
  doc_->showNode(n);
  choosing_ = false;
}

}  // namespace fb::ui
