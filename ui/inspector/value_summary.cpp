#include "ui/inspector/value_summary.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

#include "eval/verify/value_stats.h"

namespace fb::ui {

namespace {

constexpr int kFirstValues = 8;

}  // namespace

QList<QPair<QString, QString>> summaryRows(const eval::Value& x) {
  QList<QPair<QString, QString>> rows;
  if (!x.isTensor()) {
    rows.append({QObject::tr("value"), QString::fromStdString(eval::describe(x))});
    return rows;
  }
  const eval::Tensor& t = x.tensor();
  rows.append({QObject::tr("type"), QString::fromStdString(eval::describe(t))});
  QStringList first;
  const int64_t shown = std::min<int64_t>(t.size(), kFirstValues);
  if (t.isString()) {
    for (int64_t k = 0; k < shown; ++k)
      first << QString::fromStdString(t.stringValues()[static_cast<size_t>(k)]).left(40);
    rows.append({QObject::tr("first values"), first.join(", ")});
    return rows;
  }
  const eval::ValueStats st = eval::statsOf(t);
  rows.append({QObject::tr("min"), QString::number(st.min, 'g', 6)});
  rows.append({QObject::tr("max"), QString::number(st.max, 'g', 6)});
  rows.append({QObject::tr("mean"), QString::number(st.mean, 'g', 6)});
  if (st.nanCount) rows.append({QObject::tr("NaN"), QString::number(st.nanCount)});
  if (st.infCount) rows.append({QObject::tr("infinite"), QString::number(st.infCount)});
  for (int64_t k = 0; k < shown; ++k) first << QString::number(t.doubleAt(k), 'g', 5);
  rows.append({QObject::tr("first values"), first.join(", ") + (t.size() > kFirstValues ? ", ..." : "")});
  return rows;
}

}  // namespace fb::ui
