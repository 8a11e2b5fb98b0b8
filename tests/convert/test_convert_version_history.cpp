// No silent change of meaning, by construction: every difference between two versions (opsets 1-17) of an
// ONNX op that libonnx's schemas show (an attribute that appears, disappears or changes its default; an
// input or output that appears, becomes optional or changes type) must have an entry in
// core/convert/onnx_onnx/version_history.cpp, and the entries must be honoured by the compatible version
// step (RoiAlign's coordinate_transformation_mode, Selu's defaults, Reshape's allowzero...).
#include <QtTest>

#include <onnx/defs/schema.h>

#include <map>
#include <set>

#include "convert/converter.h"
#include "convert/handler_registry.h"
#include "convert/onnx_onnx/version_history.h"
#include "schema/onnx_schema.h"

using namespace fb;
using convert::onnx_onnx::AttributeHistory;
using convert::onnx_onnx::SignatureChange;

namespace {

std::map<std::string, std::vector<const onnx::OpSchema*>> defaultDomainHistory() {
  static const std::vector<onnx::OpSchema> all = onnx::OpSchemaRegistry::get_all_schemas_with_history();
  std::map<std::string, std::vector<const onnx::OpSchema*>> out;
  for (const auto& s : all)
    if (s.domain().empty() && s.since_version() <= 17) out[s.Name()].push_back(&s);
  for (auto& [_, v] : out)
    std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->since_version() < b->since_version(); });
  return out;
}

// "absent", "required", "no default", or the default's text.
std::string attributeState(const onnx::OpSchema& s, const std::string& name) {
  auto it = s.attributes().find(name);
  if (it == s.attributes().end()) return "absent";
  if (it->second.required) return "required";
  auto d = schema::schemaDefault(s, name);
  if (!d) return "no default";
  // Exact: the kind and every digit (Selu's defaults differ in the seventh).
  char buf[64];
  std::string v = "kind " + std::to_string(int(d->type)) + ":";
  if (d->type == ir::AttrType::Float) {
    std::snprintf(buf, sizeof buf, "%.9g", double(d->f));
    v += buf;
  } else {
    v += d->valueToString(1000);
  }
  return "default " + v;
}

std::string signature(const onnx::OpSchema& s) {
  std::string out;
  for (const auto& f : s.inputs()) out += f.GetName() + ":" + std::to_string(int(f.GetOption())) + " ";
  out += "->";
  for (const auto& f : s.outputs())
    out += " " + f.GetName() + ":" + std::to_string(int(f.GetOption())) + ":" + f.GetTypeStr();
  return out;
}

struct Model {
  std::unique_ptr<ir::Model> m = std::make_unique<ir::Model>();
  explicit Model(int64_t opset) {
    m->setOpsetVersion("", opset);
    m->irVersion = 7;
  }
  ir::Value* input(const std::string& name, ir::DataType t, std::vector<int64_t> dims) {
    ir::Value* v = m->graph().getOrCreateValue(name);
    ir::Shape s;
    for (auto d : dims) s.push_back(ir::Dim::of(d));
    v->type = ir::TypeInfo::tensor(t, s);
    m->graph().addInput(v);
    return v;
  }
};

const convert::NodeReport& only(const convert::ConvertResult& r) { return r.nodes.at(0); }

}  // namespace

class TestConvertVersionHistory : public QObject {
  Q_OBJECT

 private slots:
  // Every (op, attribute) whose presence or default differs between versions 1-17 has an entry, and every
  // entry names such a difference (a stale entry would hide a typo).
  void everyAttributeDifferenceIsRecorded() {
    std::set<std::pair<std::string, std::string>> differing;
    QStringList missing;
    for (const auto& [op, versions] : defaultDomainHistory()) {
      std::set<std::string> names;
      for (auto* s : versions)
        for (const auto& [n, _] : s->attributes()) names.insert(n);
      for (const auto& name : names) {
        std::set<std::string> states;
        QStringList row;
        for (auto* s : versions) {
          states.insert(attributeState(*s, name));
          row << QString("%1: %2").arg(s->since_version()).arg(QString::fromStdString(attributeState(*s, name)));
        }
        if (states.size() < 2) continue;
        differing.insert({op, name});
        if (!convert::onnx_onnx::attributeHistory(op, name))
          missing
              << QString("%1.%2 (%3)").arg(QString::fromStdString(op), QString::fromStdString(name), row.join(", "));
      }
    }
    QVERIFY2(missing.isEmpty(), qPrintable("attributes whose versions differ, with no entry in version_history.cpp:\n" +
                                           missing.join('\n')));
    QStringList stale;
    for (const auto& h : convert::onnx_onnx::attributeHistories())
      if (!differing.count({h.op, h.attribute})) stale << QString::fromStdString(h.op + "." + h.attribute);
    QVERIFY2(stale.isEmpty(), qPrintable("entries for attributes whose versions do not differ: " + stale.join(", ")));
    QVERIFY(differing.size() > 100);  // the schemas really were read
  }

  // Implicit entries must be usable: a value the versions without the attribute mean, and the attribute's
  // default in the versions that have it is either that value or spelled out by `implicit`.
  void implicitEntriesAreConsistent() {
    auto history = defaultDomainHistory();
    for (const auto& h : convert::onnx_onnx::attributeHistories()) {
      if (h.handling != AttributeHistory::Handling::Implicit) continue;
      QVERIFY2(h.meansImplicit, qPrintable(QString::fromStdString(h.op + "." + h.attribute)));
      if (h.implicit)
        QVERIFY2(h.meansImplicit(*h.implicit), qPrintable(QString::fromStdString(h.op + "." + h.attribute)));
      for (auto* s : history[h.op]) {
        if (s->since_version() < 7) continue;  // below every target: only a source
        auto d = schema::schemaDefault(*s, h.attribute);
        if (!d) continue;
        // Versions with a default that means otherwise need the implicit value to spell out, unless every
        // version has the attribute (then the generic default-change rule applies).
        bool everywhere = true;
        for (auto* o : history[h.op]) everywhere = everywhere && o->attributes().count(h.attribute);
        if (!everywhere && !h.meansImplicit(*d))
          QVERIFY2(
              h.implicit,
              qPrintable(QString::fromStdString(h.op + "." + h.attribute + ": default " + d->valueToString() +
                                                " differs from the older behaviour and no value spells that out")));
      }
    }
  }

  // Every change of inputs/outputs between consecutive versions has an entry; adapter entries have an
  // adapter on both sides of the change.
  void everySignatureChangeIsRecorded() {
    convert::ConvertOptions warmup;  // registers the handlers
    convert::dryRun(ir::Model(), warmup);
    const auto& registry = convert::HandlerRegistry::forDirection("onnx");
    std::set<std::tuple<std::string, int64_t, int64_t>> seen;
    QStringList missing;
    for (const auto& [op, versions] : defaultDomainHistory())
      for (size_t i = 1; i < versions.size(); ++i)
        if (signature(*versions[i - 1]) != signature(*versions[i])) {
          seen.insert({op, versions[i - 1]->since_version(), versions[i]->since_version()});
          bool found = false;
          for (const auto& c : convert::onnx_onnx::signatureChanges())
            found = found || (c.op == op && c.fromVersion == versions[i - 1]->since_version() &&
                              c.toVersion == versions[i]->since_version());
          if (!found)
            missing << QString("%1 %2 -> %3: %4  =>  %5")
                           .arg(QString::fromStdString(op))
                           .arg(versions[i - 1]->since_version())
                           .arg(versions[i]->since_version())
                           .arg(QString::fromStdString(signature(*versions[i - 1])),
                                QString::fromStdString(signature(*versions[i])));
        }
    QVERIFY2(missing.isEmpty(),
             qPrintable("input/output changes with no entry in version_history.cpp:\n" + missing.join('\n')));
    for (const auto& c : convert::onnx_onnx::signatureChanges()) {
      QVERIFY2(seen.count({c.op, c.fromVersion, c.toVersion}),
               qPrintable(QString::fromStdString("stale entry " + c.op)));
      if (c.handling != SignatureChange::Handling::Adapter) continue;
      int64_t below = std::max<int64_t>(c.fromVersion, 7), above = std::max<int64_t>(c.toVersion, 7);
      QVERIFY2(registry.find("", c.op, below) && registry.find("", c.op, above),
               qPrintable(
                   QString::fromStdString("no adapter on both sides of " + c.op + " " + std::to_string(c.toVersion))));
    }
  }

  // RoiAlign-16 defaults to half_pixel; RoiAlign-10 behaves as output_half_pixel.
  void roiAlignCoordinateModeKeepsItsMeaning() {
    auto build = [](int64_t opset, std::optional<std::string> mode) {
      auto md = std::make_unique<Model>(opset);
      auto* x = md->input("x", ir::DataType::Float, {1, 1, 4, 4});
      auto* rois = md->input("rois", ir::DataType::Float, {1, 4});
      auto* idx = md->input("idx", ir::DataType::Int64, {1});
      auto& g = md->m->graph();
      ir::Node* n = g.addNode("RoiAlign", {x, rois, idx}, {g.getOrCreateValue("y")});
      n->name = "roi";
      if (mode) n->setAttr(ir::Attribute::makeString("coordinate_transformation_mode", *mode));
      g.addOutput(g.findValue("y"));
      return md;
    };
    convert::ConvertOptions down;
    down.targetOpset = 13;
    down.passes = std::vector<std::string>{};
    // Default (half_pixel) and explicit half_pixel: no equivalent in RoiAlign-10.
    for (auto mode : {std::optional<std::string>{}, std::optional<std::string>{"half_pixel"}}) {
      auto md = build(16, mode);
      auto r = convert::dryRun(*md->m, down);
      QCOMPARE(only(r).status, convert::NodeStatus::Unsupported);
      QVERIFY2(only(r).message.find("coordinate_transformation_mode") != std::string::npos, only(r).message.c_str());
      QCOMPARE(only(r).lowestOpset.value_or(0), int64_t{16});
    }
    // output_half_pixel is what RoiAlign-10 does: the attribute goes.
    {
      auto md = build(16, "output_half_pixel");
      auto r = convert::convertModel(*md->m, down);
      QCOMPARE(only(r).status, convert::NodeStatus::Converted);
      QVERIFY(r.model);
      QVERIFY(!r.model->graph().nodes().front()->hasAttr("coordinate_transformation_mode"));
    }
    // Up: RoiAlign-10 gets output_half_pixel spelled out, or opset 16's default would shift every sample.
    {
      auto md = build(10, std::nullopt);
      convert::ConvertOptions up;
      up.targetOpset = 16;
      up.passes = std::vector<std::string>{};
      auto r = convert::convertModel(*md->m, up);
      QCOMPARE(only(r).status, convert::NodeStatus::Converted);
      QVERIFY(r.model);
      QCOMPARE(r.model->graph().nodes().front()->attrString("coordinate_transformation_mode", ""),
               std::string("output_half_pixel"));
    }
  }

  // Where both versions have the attribute and only the default moved (Selu 1 -> 6), the source's default
  // is spelled out.
  void changedDefaultIsSpelledOut() {
    Model md(1);
    auto& g = md.m->graph();
    auto* x = md.input("x", ir::DataType::Float, {3});
    g.addNode("Selu", {x}, {g.getOrCreateValue("y")});
    g.addOutput(g.findValue("y"));
    convert::ConvertOptions o;
    o.targetOpset = 7;
    o.passes = std::vector<std::string>{};
    o.check = false;
    auto r = convert::convertModel(*md.m, o);
    QCOMPARE(only(r).status, convert::NodeStatus::Converted);
    const ir::Node& n = *r.model->graph().nodes().front();
    QVERIFY(n.hasAttr("alpha") && n.hasAttr("gamma"));
    QCOMPARE(n.attrFloat("alpha", 0), schema::schemaDefault(*schema::schemaAt("", "Selu", 1), "alpha")->f);
  }

  // Reshape-14's allowzero=1 matters only where the shape holds a 0.
  void reshapeAllowzero() {
    for (bool zero : {false, true}) {
      Model md(14);
      auto& g = md.m->graph();
      auto* x = md.input("x", ir::DataType::Float, {2, 3});
      auto* s = g.addInitializer(
          ir::Tensor::fromValues("shape", ir::DataType::Int64, {2}, std::vector<int64_t>{zero ? 0 : 3, 2}));
      ir::Node* n = g.addNode("Reshape", {x, s}, {g.getOrCreateValue("y")});
      n->setAttr(ir::Attribute::makeInt("allowzero", 1));
      g.addOutput(g.findValue("y"));
      convert::ConvertOptions o;
      o.targetOpset = 13;
      auto r = convert::dryRun(*md.m, o);
      QCOMPARE(only(r).status, zero ? convert::NodeStatus::Unsupported : convert::NodeStatus::Converted);
    }
  }
};

QTEST_GUILESS_MAIN(TestConvertVersionHistory)
#include "test_convert_version_history.moc"
