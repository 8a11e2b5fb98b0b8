#pragma once
// Puts live validation of edits into a main window: the Revalidator, the Problems dock (a line saying how the model
// stands, the table of problems; a click shows the node) and outlines on the source graph's problem nodes.
#include <QHash>
#include <QObject>

#include "ui/edit/problem.h"

class QDockWidget;
class QLabel;
class QMainWindow;
class QTableView;

namespace fb::ui {

class Document;
class GraphScene;
class ProblemsModel;
class Revalidator;
class StatusOverlay;

class ProblemsDock : public QObject {
  Q_OBJECT
 public:
  ProblemsDock(QMainWindow* window, Document* doc, GraphScene* scene);

  Revalidator* revalidator() const { return revalidator_; }
  ProblemsModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QLabel* summary() const { return summary_; }
  QDockWidget* dock() const { return dock_; }
  StatusOverlay* overlay() const { return overlay_; }
  // The worst problem on a node, as its outline shows it; nullptr when it has none.
  const Problem::Severity* severityOf(quint64 nodeId) const;

 private:
  void show();

  Document* doc_;
  Revalidator* revalidator_;
  ProblemsModel* model_;
  QTableView* table_;
  QLabel* summary_;
  QDockWidget* dock_;
  StatusOverlay* overlay_ = nullptr;
  QHash<quint64, Problem::Severity> worst_;
};

}  // namespace fb::ui
