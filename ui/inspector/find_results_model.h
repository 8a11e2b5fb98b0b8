#pragma once
// Matches of a search over node names, op types and tensor names in a graph and every subgraph in it
// (If/Loop/Scan bodies); matches inside a body name it ("in If_0/then_branch").
#include <QAbstractListModel>
#include <vector>

namespace fb::ir {
class Graph;
class Node;
class Value;
}  // namespace fb::ir

namespace fb::ui {

class FindResultsModel : public QAbstractListModel {
  Q_OBJECT
 public:
  struct Match {
    const ir::Node* node = nullptr;    // a node matched by name or op type
    const ir::Value* value = nullptr;  // a tensor matched by name
    QString text;
  };
  explicit FindResultsModel(QObject* parent = nullptr);
  // Case-insensitive substring search; at most `limit` matches (the count of all is kept).
  void search(const ir::Graph* g, const QString& text, int limit = 2000);
  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  const Match& matchAt(int row) const { return matches_[row]; }
  int totalMatches() const { return total_; }

 private:
  std::vector<Match> matches_;
  int total_ = 0;
};

}  // namespace fb::ui
