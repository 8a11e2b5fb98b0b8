#include "ui/conversion/error_legend.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>
#include <cmath>

#include "ui/conversion/verify_controller.h"

namespace fb::ui {

QColor errorColor(double relativeError, double threshold) {
  if (!(relativeError > threshold / 10)) return QColor(0x2e, 0xa0, 0x43);  // agrees (NaN-free and small)
  // 0 at a tenth of the threshold, 1 at the threshold, 4 at a thousand times it.
  const double t = std::isinf(relativeError) ? 4.0 : std::clamp(std::log10(relativeError / threshold) + 1, 0.0, 4.0);
  if (t <= 1) return QColor::fromRgbF(float(0.18 + 0.77 * t), float(0.63 + 0.17 * t), float(0.26 - 0.2 * t));
  const double u = (t - 1) / 3;  // yellow -> red
  return QColor::fromRgbF(0.95f, float(0.80 - 0.65 * u), float(0.06 + 0.04 * u));
}

namespace {
constexpr int kMinExponent = -7;  // slider positions are log10 of the threshold
constexpr int kMaxExponent = 0;
}  // namespace

ErrorLegend::ErrorLegend(VerifyController* verify, QWidget* parent)
    : QWidget(parent),
      verify_(verify),
      scale_(new QLabel(this)),
      summary_(new QLabel(this)),
      slider_(new QSlider(Qt::Horizontal, this)),
      first_(new QPushButton(tr("First divergence"), this)) {
  slider_->setRange(kMinExponent, kMaxExponent);
  slider_->setValue(int(std::lround(std::log10(verify_->threshold()))));
  slider_->setToolTip(tr("Relative error above which a node counts as divergent"));
  slider_->setMaximumWidth(160);
  first_->setShortcut(QKeySequence(Qt::Key_F8));
  first_->setToolTip(tr("Show the first divergent node on both sides (F8)"));
  summary_->setWordWrap(true);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(scale_);
  row->addWidget(new QLabel(tr("threshold"), this));
  row->addWidget(slider_);
  row->addWidget(first_);
  row->addStretch(1);
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(0, 0, 0, 0);
  box->addLayout(row);
  box->addWidget(summary_);
  connect(slider_, &QSlider::valueChanged, this, [this](int e) { verify_->setThreshold(std::pow(10.0, e)); });
  connect(verify_, &VerifyController::thresholdChanged, this, &ErrorLegend::refresh);
  connect(first_, &QPushButton::clicked, this, &ErrorLegend::showFirstDivergence);
  refresh();
}

void ErrorLegend::refresh() {
  setVisible(verify_->hasResult());
  if (!verify_->hasResult()) return;
  const double t = verify_->threshold();
  auto swatch = [](const QColor& c) { return QString("<span style='color:%1'>&#9632;</span>").arg(c.name()); };
  scale_->setText(tr("relative error %1 &le; %2 %3 %4 %5 &ge; %6")
                      .arg(swatch(errorColor(0, t)))
                      .arg(t / 10, 0, 'g', 1)
                      .arg(swatch(errorColor(t, t)))
                      .arg(swatch(errorColor(t * 30, t)))
                      .arg(swatch(errorColor(t * 1000, t)))
                      .arg(t * 1000, 0, 'g', 1));
  summary_->setText(verify_->summary());
  first_->setEnabled(verify_->firstDivergentPreviewNode() != nullptr);
}

}  // namespace fb::ui
