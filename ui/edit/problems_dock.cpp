#include "ui/edit/problems_dock.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/document.h"
#include "ui/edit/problems_model.h"
#include "ui/edit/revalidator.h"
#include "ui/graph/status_overlay.h"
#include "ui/theme/colors.h"

namespace fb::ui {

ProblemsDock::ProblemsDock(QMainWindow* window, Document* doc, GraphScene* scene)
    : QObject(window),
      doc_(doc),
      revalidator_(new Revalidator(doc, this)),
      model_(new ProblemsModel(this)),
      table_(new QTableView),
      summary_(new QLabel),
      dock_(new QDockWidget(tr("Problems"), window)) {
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  summary_->setWordWrap(true);
  summary_->setText(tr("No edits checked yet: after each edit the model is checked again here."));
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  dock_->setObjectName("ProblemsDock");
  dock_->setWidget(body);
  window->addDockWidget(Qt::BottomDockWidgetArea, dock_);

  // Outlines around the conversion's halos, so both marks show on a node.
  StatusOverlay::Style style;
  style.dataKey = StatusOverlay::kProblemHaloKey;
  style.margin = 9;
  style.filled = false;
  overlay_ = new StatusOverlay(
      scene,
      [this](uint64_t id) {
        const Problem::Severity* s = severityOf(id);
        if (!s) return QColor();
        return statusColor(*s == Problem::Severity::Error ? convert::NodeStatus::Failed
                                                          : convert::NodeStatus::Unsupported);
      },
      style, this);

  connect(revalidator_, &Revalidator::started, this, [this] { summary_->setText(tr("Checking the edited model...")); });
  connect(revalidator_, &Revalidator::finished, this, &ProblemsDock::show);
  // A click on a problem selects its node wherever it is (a subgraph is opened, a collapsed block expanded).
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    const quint64 id = index.data(ProblemsModel::NodeIdRole).value<quint64>();
    if (const ir::Node* n = id ? doc_->findNode(id) : nullptr) doc_->showNode(n);
  });
}

const Problem::Severity* ProblemsDock::severityOf(quint64 nodeId) const {
  auto it = worst_.constFind(nodeId);
  return it == worst_.constEnd() ? nullptr : &*it;
}

void ProblemsDock::show() {
  const QList<Problem>& problems = revalidator_->problems();
  worst_.clear();
  for (const Problem& p : problems) {
    if (!p.nodeId) continue;
    auto it = worst_.find(p.nodeId);
    if (it == worst_.end())
      worst_.insert(p.nodeId, p.severity);
    else
      *it = std::min(*it, p.severity);  // Error sorts before Warning
  }
  const bool hadProblems = model_->rowCount() > 0;
  model_->setProblems(problems);
  // The dock starts hidden (tabbed with the Log): the first problem brings it out.
  if (!hadProblems && !problems.isEmpty() && dock_->isHidden()) {
    dock_->show();
    dock_->raise();
  }
  overlay_->refresh();
  const int errors = model_->errorCount(), warnings = int(problems.size()) - errors;
  if (!revalidator_->hasResult())
    summary_->setText(tr("No edits checked yet: after each edit the model is checked again here."));
  else if (problems.isEmpty())
    summary_->setText(tr("The edited model passes the check and the dry run for the current target."));
  else
    summary_->setText(tr("%1 errors, %2 warnings in the edited model").arg(errors).arg(warnings));
}

}  // namespace fb::ui
