#include "ui/conversion/conversion_summary.h"

#include <QObject>
#include <QStringList>

namespace fb::ui {

QString statusCounts(const convert::ConvertResult& r) {
  using S = convert::NodeStatus;
  return QObject::tr("%1 unchanged, %2 converted, %3 unsupported, %4 failed, %5 kept")
      .arg(r.count(S::Unchanged))
      .arg(r.count(S::Converted))
      .arg(r.count(S::Unsupported))
      .arg(r.count(S::Failed))
      .arg(r.count(S::Kept));
}

QString problemsOf(const convert::ConvertResult& r) {
  if (r.complete()) return {};
  using S = convert::NodeStatus;
  QStringList parts;
  const size_t unsupported = r.count(S::Unsupported), failed = r.count(S::Failed);
  if (unsupported + failed > 0)
    parts << QObject::tr("%1 unsupported and %2 failed nodes are kept as they were in the source")
                 .arg(unsupported)
                 .arg(failed);
  if (!r.error.empty()) parts << QString::fromStdString(r.error);
  if (!r.check.ok) {
    QString first = r.check.messages.empty() ? QString() : QString::fromStdString(r.check.messages.front().message);
    parts << (first.isEmpty() ? QObject::tr("the result failed the check")
                              : QObject::tr("the result failed the check (%1)").arg(first));
  }
  if (parts.isEmpty()) parts << QObject::tr("the conversion is incomplete");
  return parts.join(QStringLiteral("; "));
}

size_t nodeTotal(const std::map<std::string, size_t>& opCounts) {
  size_t n = 0;
  for (const auto& [op, count] : opCounts) n += count;
  return n;
}

}  // namespace fb::ui
