#pragma once
// Ctrl+F: search node names, op types and tensor names of the current graph; Enter goes to the next match.
#include <QWidget>

class QLineEdit;
class QListView;
class QLabel;

namespace fb::ui {

class Document;
class FindResultsModel;

class FindPanel : public QWidget {
  Q_OBJECT
 public:
  explicit FindPanel(Document* doc, QWidget* parent = nullptr);
  void focusSearch();
  void setQuery(const QString& text);
  // Selects the next match (wrapping); returns false when there is none.
  bool goToNext();
  FindResultsModel* results() const { return results_; }
  int currentMatch() const { return current_; }

 private:
  void runSearch();
  void goTo(int row);
  Document* doc_;
  QLineEdit* edit_;
  QLabel* status_;
  QListView* list_;
  FindResultsModel* results_;
  int current_ = -1;
};

}  // namespace fb::ui
