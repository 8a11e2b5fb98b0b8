#pragma once
// One ONNX node run in ONNX Runtime (tests/oracle/run_npy.mjs, the tests' numeric reference) and on FlowBridge's
// evaluator on the same inputs: for kernel tests of behaviour ONNX's node tests do not cover (newer opsets, other
// directions and modes). Inputs and outputs travel as .npy files in a scratch folder.
#include <QProcess>
#include <QString>

#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "eval/io/npy_file.h"
#include "eval/runtime/run.h"
#include "formats/onnx/onnx_proto_import.h"
#include "oracle/oracle.h"

namespace fb::test {

struct OracleNode {
  std::string op;
  int64_t opset = 0;
  std::vector<std::optional<eval::Tensor>> inputs;  // nullopt: an omitted optional input
  std::vector<onnx::AttributeProto> attributes;
  std::vector<ir::DataType> outputTypes;
};

inline onnx::AttributeProto intAttr(const std::string& name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}
inline onnx::AttributeProto floatAttr(const std::string& name, float v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(v);
  return a;
}
inline onnx::AttributeProto stringAttr(const std::string& name, const std::string& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(v);
  return a;
}
inline onnx::AttributeProto intsAttr(const std::string& name, const std::vector<int64_t>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a.add_ints(x);
  return a;
}
inline onnx::AttributeProto floatsAttr(const std::string& name, const std::vector<float>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOATS);
  for (float x : v) a.add_floats(x);
  return a;
}
inline onnx::AttributeProto stringsAttr(const std::string& name, const std::vector<std::string>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRINGS);
  for (const auto& x : v) a.add_strings(x);
  return a;
}

namespace oracle_detail {

// The oracle's .npy files, through core's reader and writer (eval/io/npy_file).
inline bool writeNpy(const std::string& path, const eval::Tensor& t) {
  try {
    eval::writeNpyFile(path, t);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

inline std::optional<eval::Tensor> readNpy(const std::string& path) {
  try {
    return eval::readNpyFile(path);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace oracle_detail

// Empty when every output of the evaluator matches ONNX Runtime's within 1e-4 + 1e-3 * |reference| (shapes and
// types equal); else what differs, or why the comparison could not run.
inline QString compareWithOnnxRuntime(const OracleNode& c, const QString& dir) {
  if (!oracleInstalled()) return "tests/oracle/install.sh has not run";
  onnx::ModelProto m;
  m.set_ir_version(c.opset >= 21 ? 10 : c.opset >= 19 ? 9 : 8);
  m.add_opset_import()->set_version(c.opset);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name(c.op);
  onnx::NodeProto* n = g->add_node();
  n->set_op_type(c.op);
  std::map<std::string, eval::Value> feed;
  QStringList args{oracleDir() + "/run_npy.mjs", dir + "/model.onnx", dir + "/ort"};
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (!c.inputs[k]) {
      n->add_input("");
      continue;
    }
    const std::string name = "in" + std::to_string(k);
    n->add_input(name);
    onnx::ValueInfoProto* vi = g->add_input();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(static_cast<int32_t>(c.inputs[k]->dtype()));
    for (int64_t d : c.inputs[k]->dims()) tt->mutable_shape()->add_dim()->set_dim_value(d);
    const QString file = dir + "/" + QString::fromStdString(name) + ".npy";
    if (!oracle_detail::writeNpy(file.toStdString(), *c.inputs[k])) return "cannot write " + file;
    args << file;
    feed[name] = *c.inputs[k];
  }
  for (size_t k = 0; k < c.outputTypes.size(); ++k) {
    const std::string name = "out" + std::to_string(k);
    n->add_output(name);
    onnx::ValueInfoProto* vo = g->add_output();
    vo->set_name(name);
    vo->mutable_type()->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(c.outputTypes[k]));
  }
  for (const auto& a : c.attributes) *n->add_attribute() = a;
  {
    std::ofstream out((dir + "/model.onnx").toStdString(), std::ios::binary);
    if (!m.SerializeToOstream(&out)) return "cannot write the model";
  }
  QProcess ort;
  ort.setWorkingDirectory(oracleDir());
  ort.start("node", args);
  if (!ort.waitForFinished(300000) || ort.exitCode() != 0)
    return "ONNX Runtime failed: " + QString::fromUtf8(ort.readAllStandardError()).trimmed().left(400);
  onnxfmt::ImportOptions opts;
  opts.modelPath = "model.onnx";
  std::unique_ptr<ir::Model> model = onnxfmt::importModel(m, opts);
  eval::RunResult r;
  try {
    r = eval::runModel(*model, feed);
  } catch (const eval::RunError& e) {
    return QString::fromStdString("evaluator: " + e.node() + ": " + e.what());
  }
  QString why;
  for (size_t k = 0; k < c.outputTypes.size(); ++k) {
    auto want = oracle_detail::readNpy((dir + "/ort/" + QString::number(k) + ".npy").toStdString());
    if (!want) return "cannot read ONNX Runtime's output " + QString::number(k);
    const eval::Tensor& got = r.outputs[k].second.tensor();
    if (got.dtype() != want->dtype() || got.dims() != want->dims()) {
      why += QString(" output %1 is %2 where ONNX Runtime gives %3;")
                 .arg(k)
                 .arg(QString::fromStdString(eval::describe(got)), QString::fromStdString(eval::describe(*want)));
      continue;
    }
    for (int64_t e = 0; e < got.size(); ++e) {
      const double a = got.doubleAt(e), b = want->doubleAt(e);
      if (std::fabs(a - b) <= 1e-4 + 1e-3 * std::fabs(b) || (std::isnan(a) && std::isnan(b))) continue;
      why += QString(" output %1 element %2 is %3 where ONNX Runtime gives %4;").arg(k).arg(e).arg(a).arg(b);
      break;
    }
  }
  return why;
}

}  // namespace fb::test
