#include "ui/widgets/histogram_view.h"

#include <QPainter>
#include <algorithm>

namespace fb::ui {

HistogramView::HistogramView(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(90);
  hide();
}

void HistogramView::setHistogram(const eval::ValueHistogram& h, const QString& title) {
  h_ = h;
  title_ = title;
  setVisible(!h_.counts.empty());
  update();
}

void HistogramView::clear() {
  h_ = {};
  hide();
}

void HistogramView::paintEvent(QPaintEvent*) {
  if (h_.counts.empty()) return;
  QPainter p(this);
  const QFontMetrics fm(font());
  const int textH = fm.height();
  const QRect plot = rect().adjusted(4, textH + 2, -4, -textH - 2);
  p.drawText(QRect(4, 0, width() - 8, textH), Qt::AlignLeft | Qt::AlignVCenter, title_);
  const int64_t peak = *std::max_element(h_.counts.begin(), h_.counts.end());
  const double barW = double(plot.width()) / double(h_.counts.size());
  const QColor bar = palette().color(QPalette::Highlight);
  for (size_t k = 0; k < h_.counts.size(); ++k) {
    if (!h_.counts[k] || peak <= 0) continue;
    const int barH = std::max(1, int(double(plot.height()) * double(h_.counts[k]) / double(peak)));
    p.fillRect(QRectF(plot.left() + barW * double(k), plot.bottom() - barH + 1, std::max(1.0, barW - 1), barH), bar);
  }
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  p.setPen(palette().color(QPalette::Text));
  const QRect axis(4, height() - textH, width() - 8, textH);
  p.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, QString::number(h_.min, 'g', 4));
  p.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, QString::number(h_.max, 'g', 4));
  if (h_.nonFinite) p.drawText(axis, Qt::AlignHCenter | Qt::AlignVCenter, tr("%1 not finite").arg(h_.nonFinite));
}

}  // namespace fb::ui
