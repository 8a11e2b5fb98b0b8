#pragma once
// The Code dock: the model.py a code target's Preview generated, in a read-only code view beside the graph,
// linked to the source graph both ways through the generator's node -> lines maps. Selecting a node in the graph
// highlights all its lines (its statements in forward and its weights' declarations in __init__) and scrolls to its
// first statement; moving the cursor to a line selects the node it was written for
// (opening its subgraph and expanding its block when needed). Like the graph Preview, it shows only what the
// current model and settings produce: any change clears it.
#include <QHash>
#include <QObject>

class QMainWindow;
class QDockWidget;
class QLabel;

namespace fb::ui {

class CodeView;
class ConversionController;
class Document;

class CodePreview : public QObject {
  Q_OBJECT
 public:
  CodePreview(QMainWindow* window, Document* source, ConversionController* controller, QObject* parent = nullptr);

  QDockWidget* dock() const { return dock_; }
  CodeView* view() const { return view_; }
  QLabel* legend() const { return legend_; }
  // The source node a 1-based line of model.py was written for (0 when none).
  quint64 nodeAtLine(int line) const { return nodeAtLine_.value(line, 0); }

 private:
  void showGenerated();
  void clear();
  void followSelection();
  void chooseLine(int line);

  QMainWindow* window_;
  Document* doc_;
  ConversionController* controller_;
  CodeView* view_;
  QLabel* legend_;
  QDockWidget* dock_;
  QHash<int, quint64> nodeAtLine_;
  bool choosing_ = false;
  bool sized_ = false;  // the dock got room once; after that the user's sizes stay  // the selection changes because a
                        // line was chosen: highlight, leave the cursor
};

}  // namespace fb::ui
