#pragma once
// The font for code: one whose every character is as wide as the next, checked rather than trusted. The
// system's fixed font is only a family name ("monospace"), and fontconfig can resolve that to a font it does not
// mark as fixed pitch (Noto Sans Mono, which has a few double-width glyphs; Droid Sans Fallback, a proportional
// font): the code would then be set proportionally.
#include <QFont>

namespace fb::ui {

// The system's fixed font when it resolves to a fixed-pitch face, else the first fixed-pitch family installed
// (well-known ones first), at the system font's size. Falls back to the system's choice when no family is fixed
// pitch.
QFont fixedPitchFont();

}  // namespace fb::ui
