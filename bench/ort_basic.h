#pragma once
// What ONNX Runtime's *basic* optimization level makes of a model (portable ONNX ops only), run through
// tests/oracle/ort_basic.mjs (onnxruntime-node): one node process writes every optimized model, and the
// counts come from FlowBridge's reader, nodes of every graph (If/Loop bodies too).
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "formats/onnx/onnx_reader.h"

namespace fb::bench {

// Model path -> node count after ORT-basic; models ORT could not load are missing. `why` gets node's
// complaint when the oracle is not installed or did not run.
inline std::map<std::string, size_t> ortBasicNodeCounts(const std::vector<std::string>& models,
                                                        const std::string& oracleDir, const std::string& outDir,
                                                        std::string& why) {
  namespace fs = std::filesystem;
  std::map<std::string, size_t> counts;
  if (!fs::exists(oracleDir + "/node_modules/onnxruntime-node/package.json")) {
    why = "onnxruntime-node missing (bash tests/oracle/install.sh)";
    return counts;
  }
  fs::create_directories(outDir);
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string cmd = "node " + quote(oracleDir + "/ort_basic.mjs");
  std::vector<std::string> outs;
  for (size_t k = 0; k < models.size(); ++k) {
    outs.push_back(outDir + "/" + std::to_string(k) + "_" + fs::path(models[k]).filename().string());
    fs::remove(outs.back());
    cmd += " " + quote(models[k]) + " " + quote(outs.back());
  }
  cmd += " 2>&1";
  std::string printed;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0) printed.append(buf, got);
    if (pclose(p) != 0) why = "node failed: " + printed.substr(0, 300);
  }
  for (size_t k = 0; k < models.size(); ++k) {
    if (!fs::exists(outs[k])) continue;
    try {
      counts[models[k]] = onnxfmt::readOnnxFile(outs[k])->graph().totalNodeCount();
    } catch (const std::exception&) {
    }
    fs::remove(outs[k]);  // the optimized copies of large models would fill the disk
  }
  return counts;
}

}  // namespace fb::bench
