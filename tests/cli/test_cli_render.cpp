// flowbridge-cli render: SVG/PNG/DOT pictures through Graphviz, and its errors (exit 2, no output file).
#include <QtTest>

#include <QXmlStreamReader>

#include "support/helpers.h"
#include "support/proto_builders.h"

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

  // 20k nodes feeding one: their block is far wider than dot's longest edge (65535 points), which Graphviz reports
  // on stderr ("Edge length ... larger than maximum") while the command succeeds. Such a layout is placed by
  // FlowBridge's own layered layout instead, and stderr stays empty.
  void fanIn20kDrawsWithoutGraphvizMessages() {
    const QString dir = test::scratchDir("render_fan_in");
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    auto typed = [](onnx::ValueInfoProto* v, const char* name) {
      v->set_name(name);
      auto* tt = v->mutable_type()->mutable_tensor_type();
      tt->set_elem_type(onnx::TensorProto::FLOAT);
      tt->mutable_shape()->add_dim()->set_dim_value(1);
    };
    typed(g->add_input(), "x");
    for (int i = 0; i < 20000; ++i) {
      auto* n = g->add_node();
      n->set_op_type("Relu");
      n->set_name("relu" + std::to_string(i));
      n->add_input("x");
      n->add_output("r" + std::to_string(i));
    }
    auto* sum = g->add_node();
    for (int i = 0; i < 20000; ++i) sum->add_input("r" + std::to_string(i));
    sum->set_op_type("Sum");
    sum->set_name("sum");
    sum->add_output("y");
    typed(g->add_output(), "y");
    test::saveProto(m, (dir + "/fan_in.onnx").toStdString());
    auto r = test::runCli({"render", dir + "/fan_in.onnx", "-o", dir + "/fan_in.svg"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(QFileInfo(dir + "/fan_in.svg").size() > 0);
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
#include "test_cli_render.moc"
