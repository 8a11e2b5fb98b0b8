// test_codegen_train on resnet50 (issue 25's proof; ~35 s on a loaded machine, so a `_large` test): make_corpus.py's
// raw export (BatchNormalization kept, 53 nodes) converted to both flavours; one SGD step in train mode moves every
// BatchNorm's running statistics as torchvision's resnet50 does on the same batch, eval mode leaves them alone and
// `.double()` runs in float64 with torchvision's output (tests/codegen/train_mode_check.py).
#include <QtTest>

#include "codegen/codegen_test_helpers.h"
#include "support/corpus_export.h"

using namespace fb;

class TestCodegenTrainLarge : public QObject {
  Q_OBJECT
 private slots:
  void resnet50BatchNormTrainsAsTorchvisionDoes() {
    QString why;
    const QString model = test::corpusExport(QStringLiteral("resnet50"), QStringLiteral("13"), why, 600000, true);
    QVERIFY2(!model.isEmpty(), qPrintable(why));
    const QStringList folders = test::convertToBothFlavours(model, test::scratchDir("codegen_train_large/resnet50"));
    QCOMPARE(folders.size(), 2);
    QCOMPARE(test::readText(folders[0] + "/model.py").count("training=self.training, momentum=0.1, eps="), 53);
    QCOMPARE(test::readText(folders[1] + "/model.py").count("self.training, 0.1, "), 53);
    QString report;
    QVERIFY2(
        test::runPython(
            QStringList{FB_SOURCE_DIR "/tests/codegen/train_mode_check.py", "batchnorm", "resnet50"} + folders, report),
        qPrintable(report));
    QCOMPARE(report.count("\"ok\": true"), 2);
  }
};

QTEST_GUILESS_MAIN(TestCodegenTrainLarge)
#include "test_codegen_train_large.moc"
