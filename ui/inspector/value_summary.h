#pragma once
// What the Tensor panel says about a value a run computed, as (property, text) rows: its type, minimum, maximum,
// mean, NaN and infinity counts and first values. The one-value section and the side-by-side one (a source's value
// beside its conversion's) are made of the same rows.
#include <QList>
#include <QPair>
#include <QString>

#include "eval/runtime/value.h"

namespace fb::ui {

QList<QPair<QString, QString>> summaryRows(const eval::Value& x);

}  // namespace fb::ui
