// Up to opsets 18-26: every corpus model converted to 26 (IR 13) is accepted by ONNX Runtime 1.30 and computes
// what the source computes, and so does that model converted back down to 11. Small models exercise each
// up-adapter (Reduce* axes, Split equal split, DFT axis, GridSample modes, GroupNormalization 18 -> 21) at
// 18, 20, 21 and 26. The structural check for opsets above 17 rejects what does not fit the own schema table.
#include <QtTest>

#include "convert/converter.h"
#include "schema/opsets_18_26/structure_check.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

QString problems(const convert::ConvertResult& r) {
  QString why = QString::fromStdString(r.error);
  for (const auto& n : r.nodes)
    if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
      why += QString::fromStdString(" " + n.nodeName + " (" + n.opType + "): " + n.message);
  for (const auto& m : r.check.messages) why += QString::fromStdString(" check: " + m.node + ": " + m.message);
  return why;
}

convert::ConvertResult convertTo(const ir::Model& m, int64_t opset) {
  convert::ConvertOptions o;
  o.targetOpset = opset;
  return convert::convertModel(m, o);
}

const char* const kReduceWithAxesInput[] = {"ReduceL1",   "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                                            "ReduceMean", "ReduceMin", "ReduceProd",   "ReduceSumSquare"};

// At 18+ no Reduce* but ReduceSum-13 may carry an axes attribute, and no Split may lack both split and num_outputs.
void verifyOpset18Forms(const ir::Graph& g) {
  for (const auto& n : g.nodes()) {
    for (const char* op : kReduceWithAxesInput)
      if (n->opType == op) QVERIFY2(!n->hasAttr("axes"), op);
    if (n->opType == "Split") QVERIFY(n->input(1) || n->hasAttr("num_outputs"));
    for (const ir::Graph* sub : n->subgraphs()) verifyOpset18Forms(*sub);
  }
}

QString& smallDir() {
  static QString d;
  return d;
}

}  // namespace

class TestConvertOpset26Up : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(test::oracleInstalled(), "run tests/oracle/install.sh first");
    smallDir() = test::scratchDir("opset26_up_small");
    QProcess p;
    p.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/opset26_up/make_models.py", smallDir()});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
  }

  void irVersionFollowsOpset() {
    const std::pair<int64_t, int64_t> pairs[] = {{17, 8},  {18, 8},  {19, 9},  {20, 9},  {21, 10},
                                                 {22, 10}, {23, 11}, {24, 12}, {25, 13}, {26, 13}};
    for (auto [opset, ir] : pairs) QCOMPARE(schema::irVersionForOpset(opset), ir);
  }

  void corpusUpTo26AndBack_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }
  void corpusUpTo26AndBack() {
    QFETCH(QString, file);
    const QString path = test::corpusModel(file);
    const QString dir = test::scratchDir("opset26_up/" + QFileInfo(file).completeBaseName());
    auto source = loadModel(path.toStdString());
    auto up = convertTo(*source, 26);
    QVERIFY2(up.complete() && up.model, qPrintable(file + " -> 26:" + problems(up)));
    QCOMPARE(up.model->opsetVersion(""), int64_t(26));
    QCOMPARE(up.model->irVersion, int64_t(13));
    verifyOpset18Forms(up.model->graph());
    const QString to26 = dir + "/to26.onnx";
    onnxfmt::writeOnnxFile(*up.model, to26.toStdString());
    auto reread = loadModel(to26.toStdString());
    auto down = convertTo(*reread, 11);
    QVERIFY2(down.complete() && down.model, qPrintable(file + " -> 26 -> 11:" + problems(down)));
    QCOMPARE(down.model->irVersion, int64_t(6));
    const QString to11 = dir + "/to26_to11.onnx";
    onnxfmt::writeOnnxFile(*down.model, to11.toStdString());
    auto run = test::runOracle(path, {to26, to11}, static_cast<int>(qHash(file) % 1000) + 1);
    QVERIFY2(run.ran, qPrintable(run.diagnostics));
    QCOMPARE(run.report.value("results").toArray().size(), 2);
    QVERIFY2(run.ok(), qPrintable(file + ": outputs differ from the source:" + run.failures()));
  }

  // Each up-adapter, at the first opset that needs it and at 26; ONNX Runtime runs every result.
  void adaptersUp_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QList<int>>("targets");
    QTest::addColumn<QString>("note");
    QTest::newRow("reduce axes") << "reducemean_attr_13" << QList<int>{18, 26} << "axes attribute -> input";
    QTest::newRow("reduce all") << "reduce_all_13" << QList<int>{18, 26} << "";
    QTest::newRow("split equal") << "split_equal_13" << QList<int>{18, 26} << "equal split -> split sizes input";
    QTest::newRow("dft axis") << "dft_axis_17" << QList<int>{20, 26} << "axis=1 attribute -> input";
    QTest::newRow("dft default axis") << "dft_default_17" << QList<int>{20, 26} << "axis=1 attribute -> input";
    QTest::newRow("gridsample bilinear") << "gridsample_bilinear_16" << QList<int>{20, 22} << "'bilinear' -> 'linear'";
    QTest::newRow("gridsample bicubic") << "gridsample_bicubic_16" << QList<int>{20, 22} << "'bicubic' -> 'cubic'";
    QTest::newRow("groupnorm 18 -> 21") << "groupnorm_18" << QList<int>{21, 26} << "per channel";
  }
  void adaptersUp() {
    QFETCH(QString, name);
    QFETCH(QList<int>, targets);
    QFETCH(QString, note);
    const QString src = smallDir() + "/" + name + ".onnx";
    auto source = loadModel(src.toStdString());
    QStringList written;
    for (int target : targets) {
      convert::ConvertOptions o;
      o.targetOpset = target;
      auto dry = convert::dryRun(*source, o);
      QVERIFY2(dry.count(convert::NodeStatus::Unsupported) + dry.count(convert::NodeStatus::Failed) == 0,
               qPrintable(problems(dry)));
      auto r = convert::convertModel(*source, o);
      QVERIFY2(r.complete() && r.model, qPrintable(problems(r)));
      QCOMPARE(r.model->irVersion, schema::irVersionForOpset(target));
      QString notes;
      for (const auto& n : r.nodes) notes += QString::fromStdString(n.message) + "|";
      if (!note.isEmpty()) QVERIFY2(notes.contains(note), qPrintable(notes));
      verifyOpset18Forms(r.model->graph());
      written << smallDir() + "/" + name + "_to" + QString::number(target) + ".onnx";
      onnxfmt::writeOnnxFile(*r.model, written.last().toStdString());
    }
    auto run = test::runOracle(src, written);
    QVERIFY2(run.ok(), qPrintable(name + ":" + run.failures()));
  }

  // Down between two opsets above 17: kept where the versions in between changed only types (ONNX Runtime
  // agrees), unsupported with the reason otherwise.
  void betweenNewOpsets() {
    auto source = loadModel((smallDir() + "/reducemean_attr_13.onnx").toStdString());
    auto up = convertTo(*source, 26);
    QVERIFY2(up.complete(), qPrintable(problems(up)));
    auto at20 = convertTo(*up.model, 20);
    QVERIFY2(at20.complete(), qPrintable(problems(at20)));
    QCOMPARE(at20.model->irVersion, int64_t(9));
    const QString out = smallDir() + "/reducemean_26_to20.onnx";
    onnxfmt::writeOnnxFile(*at20.model, out.toStdString());
    auto run = test::runOracle(smallDir() + "/reducemean_attr_13.onnx", {out});
    QVERIFY2(run.ok(), qPrintable(run.failures()));

    auto gn = loadModel((smallDir() + "/groupnorm_18.onnx").toStdString());
    auto gn21 = convertTo(*gn, 21);
    QVERIFY2(gn21.complete(), qPrintable(problems(gn21)));
    auto back = convertTo(*gn21.model, 19);
    QVERIFY(!back.model);
    QString why = problems(back);
    QVERIFY2(why.contains("GroupNormalization-21") && why.contains("convert to 17 or below"), qPrintable(why));
  }

  // The structural check judges opset-18+ nodes by the own table, not by libonnx's opset-17 schemas.
  void structuralCheck() {
    auto source = loadModel((smallDir() + "/reducemean_attr_13.onnx").toStdString());
    auto up = convertTo(*source, 18);
    QVERIFY2(up.complete(), qPrintable(problems(up)));
    QVERIFY(schema::opsets_18_26::checkStructure(*up.model).ok);
    // The opset-13 model relabelled as 18 without conversion: ReduceMean-18 has no axes attribute.
    auto relabelled = source->clone();
    relabelled->setOpsetVersion("", 18);
    relabelled->irVersion = 8;
    auto bad = schema::opsets_18_26::checkStructure(*relabelled);
    QVERIFY(!bad.ok);
    QVERIFY2(QString::fromStdString(bad.messages.front().message).contains("ReduceMean-18 has no attribute 'axes'"),
             bad.messages.front().message.c_str());
    // Arity and attribute kinds.
    for (const auto& node : relabelled->graph().nodes()) node->removeAttr("axes");
    QVERIFY(schema::opsets_18_26::checkStructure(*relabelled).ok);
    ir::Node* n = relabelled->graph().nodes().front().get();
    QCOMPARE(n->opType, std::string("ReduceMean"));
    n->setAttr(ir::Attribute::makeString("noop_with_empty_axes", "yes"));
    auto kind = schema::opsets_18_26::checkStructure(*relabelled);
    QVERIFY(!kind.ok);
    QVERIFY2(QString::fromStdString(kind.messages.front().message).contains("noop_with_empty_axes"),
             kind.messages.front().message.c_str());
    // A new op below its first opset, and an IR version too old for the opset.
    n->removeAttr("noop_with_empty_axes");
    n->opType = "Gelu";
    relabelled->irVersion = 8;
    relabelled->setOpsetVersion("", 19);
    auto early = schema::opsets_18_26::checkStructure(*relabelled);
    QVERIFY(!early.ok);
    QString all;
    for (const auto& m : early.messages) all += QString::fromStdString(m.message) + "|";
    QVERIFY2(all.contains("first in opset 20"), qPrintable(all));
    QVERIFY2(all.contains("IR version 8 is older than opset 19 needs (9)"), qPrintable(all));
    // Element types of a new op: Mish-18 takes float types only.
    relabelled->setOpsetVersion("", 18);
    n->opType = "Mish";
    n->removeAttr("keepdims");
    auto mish = schema::opsets_18_26::checkStructure(*relabelled);
    QVERIFY2(mish.ok, mish.messages.empty() ? "" : mish.messages.front().message.c_str());
    relabelled->graph().findValue("x")->type.elemType = ir::DataType::Int32;
    auto ints = schema::opsets_18_26::checkStructure(*relabelled);
    QVERIFY(!ints.ok);
    QVERIFY2(QString::fromStdString(ints.messages.front().message).contains("Mish-18 does not accept int32"),
             ints.messages.front().message.c_str());
  }

  // A OneFlow conversion still targets 7-17; an ONNX target above 26 is refused.
  void targetRange() {
    auto source = loadModel((smallDir() + "/reduce_all_13.onnx").toStdString());
    convert::ConvertOptions o;
    o.targetOpset = 27;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, convert::convertModel(*source, o));
    o.targetOpset = 18;
    o.direction = "oneflow";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, convert::convertModel(*source, o));
  }

  // The CLI takes --opset up to 26.
  void cliConvertTo26() {
    const QString out = smallDir() + "/cli_to26.onnx";
    auto r = test::runCli({"convert", smallDir() + "/reducemean_attr_13.onnx", "-o", out, "--opset", "26"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto m = loadModel(out.toStdString());
    QCOMPARE(m->opsetVersion(""), int64_t(26));
    QCOMPARE(m->irVersion, int64_t(13));
  }
};

QTEST_GUILESS_MAIN(TestConvertOpset26Up)
#include "test_convert_opset26_up.moc"
