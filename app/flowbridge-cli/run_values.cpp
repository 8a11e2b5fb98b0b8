#include "run_values.h"

#include <charconv>
#include <filesystem>

#include "commands.h"
#include "eval/io/npy_file.h"
#include "eval/io/proto_value_file.h"
#include "eval/verify/seeded_inputs.h"
#include "eval/verify/value_stats.h"
#include "ir/value.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::cli {

namespace fs = std::filesystem;

std::map<std::string, int64_t> parseDims(const std::vector<std::string>& specs) {
  std::map<std::string, int64_t> dims;
  for (const auto& s : specs) {
    const auto eq = s.rfind('=');
    int64_t n = -1;
    if (eq == std::string::npos || eq == 0 ||
        std::from_chars(s.data() + eq + 1, s.data() + s.size(), n).ptr != s.data() + s.size() || n < 0)
      throw UsageError("--dims " + s + ": expected SYMBOL=N with N >= 0");
    dims[s.substr(0, eq)] = n;
  }
  return dims;
}

eval::Value readValueFile(const std::string& path, const ir::TypeInfo* expected) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".npy") return eval::Value(eval::readNpyFile(path));
  if (ext == ".pb") return eval::readProtoValueFile(path, expected);
  throw InputError(path, "an input file must be .npy (NumPy) or .pb (ONNX TensorProto)");
}

std::map<std::string, eval::Value> readInputSpecs(const ir::Model& m, const std::vector<std::string>& specs) {
  std::map<std::string, eval::Value> values;
  for (const auto& s : specs) {
    const auto eq = s.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw UsageError("--input " + s + ": expected NAME=FILE.npy or NAME=FILE.pb");
    const std::string name = s.substr(0, eq);
    const ir::Value* v = m.graph().findValue(name);
    if (!v || !v->isGraphInput()) throw UsageError("--input " + s + ": the model has no input '" + name + "'");
    values[name] = readValueFile(s.substr(eq + 1), &v->type);
  }
  return values;
}

std::map<std::string, eval::Value> readInputFolder(const ir::Model& m, const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, "not a folder of input files");
  std::map<std::string, eval::Value> values;
  std::map<std::string, int> taken;
  const auto names = eval::requiredInputs(m);
  for (size_t k = 0; k < names.size(); ++k) {
    const ir::Value* v = m.graph().findValue(names[k]);
    const std::string base = (fs::path(dir) / valueFileName(names[k], taken)).string();
    for (const std::string& candidate :
         {base + ".npy", base + ".pb", (fs::path(dir) / ("input_" + std::to_string(k) + ".pb")).string()}) {
      if (fs::exists(candidate, ec)) {
        values[names[k]] = readValueFile(candidate, &v->type);
        break;
      }
    }
  }
  return values;
}

std::string valueFileName(const std::string& valueName, std::map<std::string, int>& taken) {
  std::string s;
  for (unsigned char c : valueName) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    s.push_back(ok ? static_cast<char>(c) : '_');
  }
  if (s.empty() || s[0] == '.') s.insert(s.begin(), '_');
  if (s.size() > 200) s.resize(200);
  std::string name = s;
  for (int n = 2; taken.count(name); ++n) name = s + "_" + std::to_string(n);
  taken[name] = 1;
  return name;
}

std::string valueLine(const std::string& name, const eval::Value& v) {
  std::string line = printable(name) + ": " + eval::describe(v);
  if (v.isTensor()) line += "  " + eval::toText(eval::statsOf(v.tensor()));
  return line;
}

}  // namespace fb::cli
