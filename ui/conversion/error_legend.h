#pragma once
// The preview's legend after Verify: the colour scale of relative error, a slider for the threshold above which a
// node counts as divergent, the summary, and a button that shows the first divergent node on both sides.
#include <QColor>
#include <QWidget>

class QLabel;
class QSlider;
class QPushButton;

namespace fb::ui {

class VerifyController;

// Green up to a tenth of the threshold, through yellow at the threshold to red at a thousand times it (log scale).
QColor errorColor(double relativeError, double threshold);

class ErrorLegend : public QWidget {
  Q_OBJECT
 public:
  ErrorLegend(VerifyController* verify, QWidget* parent = nullptr);
  QSlider* slider() const { return slider_; }
  QPushButton* firstButton() const { return first_; }
  QLabel* summary() const { return summary_; }

 signals:
  void showFirstDivergence();

 private:
  void refresh();
  VerifyController* verify_;
  QLabel* scale_;
  QLabel* summary_;
  QSlider* slider_;
  QPushButton* first_;
};

}  // namespace fb::ui
