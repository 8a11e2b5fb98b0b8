// flowbridge-cli render: SVG/PNG/DOT pictures through Graphviz, and its errors (exit 2, no output file).
#include <QtTest>

#include <QXmlStreamReader>

#include "support/helpers.h"

using namespace fb;

class RenderTest : public QObject {
  Q_OBJECT
 private slots:
  void svgOfEveryCorpusModel_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }
  void svgOfEveryCorpusModel() {
    QFETCH(QString, file);
    const QString out = test::scratchDir("render_svg") + "/" + QFileInfo(file).baseName() + ".svg";
    auto r = test::runCli({"render", test::corpusModel(file), "-o", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    // Well-formed XML whose root is <svg>, with one <g class="node"> per drawn box.
    QXmlStreamReader xml(svg);
    QString root;
    int nodeGroups = 0;
    QSet<QString> texts;
    while (!xml.atEnd()) {
      if (xml.readNext() == QXmlStreamReader::StartElement) {
        if (root.isEmpty()) root = xml.name().toString();
        if (xml.name() == QLatin1String("g") && xml.attributes().value("class") == QLatin1String("node")) ++nodeGroups;
        if (xml.name() == QLatin1String("text")) texts.insert(xml.readElementText());
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    const auto facts = test::manifest().value(file).toObject();
    // Corpus models are small enough to be drawn fully expanded: at least one box per node.
    QVERIFY2(nodeGroups >= facts.value("nodes").toInt(), qPrintable(QString::number(nodeGroups)));
    // Every op type of the model appears as a label.
    for (const QString& op : facts.value("ops").toObject().keys()) QVERIFY2(texts.contains(op), qPrintable(op));
  }

  void pngAndDot() {
    const QString dir = test::scratchDir("render_formats");
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    auto r = test::runCli({"render", model, "-o", dir + "/sq.png"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile png(dir + "/sq.png");
    QVERIFY(png.open(QIODevice::ReadOnly));
    QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QVERIFY(png.size() > 10000);
    r = test::runCli({"render", model, "-o", dir + "/sq.dot", "--horizontal"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile dot(dir + "/sq.dot");
    QVERIFY(dot.open(QIODevice::ReadOnly));
    const QByteArray text = dot.readAll();
    QVERIFY(text.startsWith("digraph"));
    QVERIFY(text.contains("pos="));
    QVERIFY(text.contains("Conv"));
  }

  void collapsedBlocksForBigGraphs() {
    // With a small box budget the picture shows name-scope blocks with their node counts instead.
    const QString out = test::scratchDir("render_blocks") + "/tf.svg";
    auto r = test::runCli({"render", test::corpusModel("mobilenet_v2_op13_raw.onnx"), "-o", out, "--max-boxes", "30"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    QVERIFY(svg.contains(" nodes</text>"));
    QVERIFY(svg.count("class=\"node\"") < 404);
  }

  void badInputs() {
    const QString dir = test::scratchDir("render_bad");
    QFile corrupt(dir + "/corrupt.onnx");
    QVERIFY(corrupt.open(QIODevice::WriteOnly));
    corrupt.write("this is not a protobuf at all \xff\xff\xff\xff");
    corrupt.close();
    auto r = test::runCli({"render", corrupt.fileName(), "-o", dir + "/out.svg"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("corrupt.onnx"));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(dir + "/out.svg"));
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 1);  // no temporary left behind

    r = test::runCli({"render", test::corpusModel("super_resolution_op11.onnx"), "-o", dir + "/out.jpeg"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("out.jpeg"));
    QVERIFY(!QFile::exists(dir + "/out.jpeg"));

    r = test::runCli({"render", dir + "/missing.onnx", "-o", dir + "/out.svg"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("missing.onnx"));
  }
};

QTEST_GUILESS_MAIN(RenderTest)
#include "test_render.moc"
