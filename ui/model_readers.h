#pragma once
// Jobs on other threads that read a document's model (a dry run, a conversion, a run, a verify, the preview's
// pairing): an edit changes the model in place, so Document waits for the jobs registered here before it does
// (beginEdit, after aboutToEditModel). UI thread only.
#include <QFuture>

class QObject;

namespace fb::ui {

void addModelReader(const QObject* document, QFuture<void> job);
// Waits for the document's registered jobs to end, and forgets them.
void waitForModelReaders(const QObject* document);

}  // namespace fb::ui
