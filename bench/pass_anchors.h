#pragma once
// The onnxoptimizer anchor table of corpus/MANIFEST.md ("nodes as exported | after onnxoptimizer | its time"),
// read from the file so the bench and the tests compare against the measured figures, not copies of them.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fb::bench {

struct OnnxOptimizerAnchor {
  int nodesExported = 0;
  int nodesAfter = 0;
  std::string milliseconds;  // as written ("1,000–1,200")
};

// File name -> anchor, for the corpus files listed (a row "a_op11/op13_dyn/op17.onnx" names three files).
inline std::map<std::string, OnnxOptimizerAnchor> readOnnxOptimizerAnchors(const std::string& manifestMd) {
  std::map<std::string, OnnxOptimizerAnchor> out;
  std::ifstream in(manifestMd);
  std::string line;
  bool inTable = false;
  auto cells = [](const std::string& l) {
    std::vector<std::string> c;
    std::stringstream ss(l);
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      c.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    return c;  // c[0] is the empty text before the first '|'
  };
  while (std::getline(in, line)) {
    if (line.find("after onnxoptimizer") != std::string::npos && line.rfind("|", 0) == 0) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (line.rfind("|", 0) != 0) break;
    auto c = cells(line);
    if (c.size() < 5 || c[1].find(".onnx") == std::string::npos || c[1].find(' ') != std::string::npos) continue;
    OnnxOptimizerAnchor a;
    try {
      a.nodesExported = std::stoi(c[2]);
      a.nodesAfter = std::stoi(c[3]);
    } catch (...) {
      continue;
    }
    a.milliseconds = c[4];
    std::string name = c[1];
    auto slash = name.find('/');
    if (slash == std::string::npos) {
      out[name] = a;
      continue;
    }
    // "super_resolution_op11/op13_dyn/op17.onnx": a stem plus variants
    std::string first = name.substr(0, slash);
    auto stemEnd = first.rfind("_op");
    std::string stem = first.substr(0, stemEnd + 1);
    std::string rest = name.substr(0, name.size() - 5);  // drop ".onnx"
    std::stringstream ss(rest);
    std::string part;
    bool firstPart = true;
    while (std::getline(ss, part, '/')) {
      out[(firstPart ? part : stem + part) + ".onnx"] = a;
      firstPart = false;
    }
  }
  return out;
}

}  // namespace fb::bench
