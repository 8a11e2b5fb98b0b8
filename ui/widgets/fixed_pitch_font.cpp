#include "ui/widgets/fixed_pitch_font.h"

#include <QFontDatabase>
#include <QFontInfo>
#include <QStringList>

namespace fb::ui {

namespace {

bool resolvesFixedPitch(const QFont& font) { return QFontInfo(font).fixedPitch(); }

}  // namespace

QFont fixedPitchFont() {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  // The hints matter where the family is only an alias: they steer the match to a monospace face.
  font.setStyleHint(QFont::Monospace, QFont::PreferMatch);
  font.setFixedPitch(true);
  if (resolvesFixedPitch(font)) return font;
  // Families common on Linux, macOS and Windows first, so the choice does not depend on alphabetical order.
  static const QStringList wellKnown = {QStringLiteral("DejaVu Sans Mono"),
                                        QStringLiteral("Noto Mono"),
                                        QStringLiteral("Liberation Mono"),
                                        QStringLiteral("Ubuntu Mono"),
                                        QStringLiteral("Cascadia Mono"),
                                        QStringLiteral("Consolas"),
                                        QStringLiteral("Menlo"),
                                        QStringLiteral("Courier New"),
                                        QStringLiteral("Noto Sans Mono")};
  QStringList candidates = wellKnown;
  for (const QString& family : QFontDatabase::families())
    if (!candidates.contains(family)) candidates << family;
  for (const QString& family : candidates) {
    if (!QFontDatabase::isFixedPitch(family)) continue;
    QFont candidate = font;
    candidate.setFamilies({family});
    if (resolvesFixedPitch(candidate)) return candidate;
  }
  return font;
}

}  // namespace fb::ui
