#pragma once
// The onnxoptimizer anchor table of corpus/MANIFEST.md ("nodes as exported | after onnxoptimizer | its time"),
// read from the file so the bench and the tests compare against the measured figures, not copies of them.
#include <algorithm>
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

// File name -> anchor, for the corpus files listed (a row "a_op11/op13_dyn/op17.onnx" names three files)
// and for the larger models make_corpus.py exports ("resnet50 `--raw`, opset 11" is resnet50_op11_raw.onnx).
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
    if (c.size() < 5) continue;
    // "resnet50 `--raw`, opset 11 (make_corpus.py)" names the file make_corpus.py writes for it
    if (c[1].find(".onnx") == std::string::npos) {
      auto op = c[1].find("opset ");
      if (op == std::string::npos) continue;
      std::string stem = c[1].substr(0, c[1].find_first_of(" ,"));
      std::string version = c[1].substr(op + 6, c[1].find_first_not_of("0123456789", op + 6) - (op + 6));
      c[1] = stem + "_op" + version + (c[1].find("--raw") != std::string::npos ? "_raw" : "") + ".onnx";
    }
    if (c[1].find(' ') != std::string::npos) continue;
    OnnxOptimizerAnchor a;
    try {
      auto number = [](std::string t) {  // "6,623"
        t.erase(std::remove(t.begin(), t.end(), ','), t.end());
        return std::stoi(t);
      };
      a.nodesExported = number(c[2]);
      a.nodesAfter = number(c[3]);
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
