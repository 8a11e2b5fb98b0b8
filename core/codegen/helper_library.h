#pragma once
// Python helper functions that generated modules can carry (an ONNX op with no one-call equivalent, e.g.
// Reshape with 0-dims, exact Resize modes). Handler families register theirs at start-up; a module
// includes only the helpers its handlers asked for, with `T.` spelled for the flavour.
#include <string>
#include <vector>

namespace fb::codegen {

struct Helper {
  std::string name;
  std::string code;                // "def name(...):\n    ..." using `T.`, `F.`, `nn.`
  std::vector<std::string> needs;  // other helpers it calls
};

class HelperLibrary {
 public:
  static HelperLibrary& instance();
  void add(Helper h);  // a second registration of the same name must have the same code
  const Helper* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<Helper> helpers_;
};

}  // namespace fb::codegen
