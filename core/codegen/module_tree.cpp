#include "codegen/module_tree.h"

#include <algorithm>

#include "codegen/python_text.h"
#include "layout/block_tree.h"

namespace fb::codegen {

const std::vector<std::string_view>& nnModuleAttributeNames() {
  // Every attribute torch 1.13 has, the ones later versions added, OneFlow's own, and the instance attributes
  // nn.Module sets in __init__.
  static const std::vector<std::string_view> names{"T_destination",
                                                   "add_module",
                                                   "apply",
                                                   "bfloat16",
                                                   "buffers",
                                                   "call_super_init",
                                                   "children",
                                                   "compile",
                                                   "cpu",
                                                   "cuda",
                                                   "double",
                                                   "dump_patches",
                                                   "eval",
                                                   "extra_repr",
                                                   "float",
                                                   "forward",
                                                   "get_buffer",
                                                   "get_extra_state",
                                                   "get_parameter",
                                                   "get_submodule",
                                                   "half",
                                                   "ipu",
                                                   "load_state_dict",
                                                   "modules",
                                                   "mtia",
                                                   "named_buffers",
                                                   "named_children",
                                                   "named_modules",
                                                   "named_parameters",
                                                   "parameters",
                                                   "register_backward_hook",
                                                   "register_buffer",
                                                   "register_forward_hook",
                                                   "register_forward_pre_hook",
                                                   "register_full_backward_hook",
                                                   "register_full_backward_pre_hook",
                                                   "register_load_state_dict_post_hook",
                                                   "register_load_state_dict_pre_hook",
                                                   "register_module",
                                                   "register_parameter",
                                                   "register_state_dict_hook",
                                                   "register_state_dict_post_hook",
                                                   "register_state_dict_pre_hook",
                                                   "requires_grad_",
                                                   "set_extra_state",
                                                   "set_submodule",
                                                   "share_memory",
                                                   "state_dict",
                                                   "to",
                                                   "to_empty",
                                                   "train",
                                                   "type",
                                                   "xpu",
                                                   "zero_grad",
                                                   "training",
                                                   "to_consistent",
                                                   "to_global",
                                                   "make_contiguous_params_",
                                                   "forward_pre_hooks",
                                                   "forward_hooks",
                                                   "backward_hooks"};
  return names;
}

std::string modulePathOfNode(const std::string& nodeName) {
  // A child of a container repeats the container's own scope as a prefix: "/layer1/layer1.0/downsample/downsample.0"
  // is layer1.0.downsample.0.
  std::vector<std::string> scopes;
  for (const std::string& scope : layout::nameScopes(nodeName)) {
    if (!scopes.empty() && scope.size() > scopes.back().size() + 1 &&
        scope.compare(0, scopes.back().size(), scopes.back()) == 0 && scope[scopes.back().size()] == '.')
      scopes.back() = scope;
    else
      scopes.push_back(scope);
  }
  std::string path;
  for (const std::string& scope : scopes) path += (path.empty() ? "" : ".") + scope;
  return path;
}

namespace {

bool isAnonymous(const std::string& name) { return name.rfind("onnx::", 0) == 0; }

bool endsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The parameter name of the bias an exported nn.Linear adds right after its MatMul ("layers.0.linear1.bias"), when it
// lies in the MatMul's own scope.
std::optional<std::string> biasAfter(const ir::Node& matmul, const std::string& scope) {
  const ir::Value* y = matmul.output(0);
  if (!y || y->uses().size() != 1) return std::nullopt;
  const ir::Node* add = y->uses()[0].node;
  if (!add || add->opType != "Add" || !add->isDefaultDomain() || add->inputs().size() != 2) return std::nullopt;
  const ir::Value* other = add->input(y->uses()[0].index == 0 ? 1 : 0);
  if (!other) return std::nullopt;
  const std::string& name = other->name();
  if (!endsWith(name, "bias") || name.compare(0, scope.size() + 1, scope + ".") != 0) return std::nullopt;
  return name;
}

}  // namespace

std::optional<OriginalWeight> originalWeight(const ir::Value& v, const ir::Node* consumer, int slot) {
  const std::string& name = v.name();
  if (!isAnonymous(name)) {
    // Exporter-made constants ("/layers.0/self_attn/Constant_output_0") are no module's parameters.
    if (name.find('/') != std::string::npos || name.find(':') != std::string::npos ||
        name.find('.') == std::string::npos)
      return std::nullopt;
    return OriginalWeight{name};
  }
  if (!consumer || !consumer->isDefaultDomain()) return std::nullopt;
  const std::string scope = modulePathOfNode(consumer->name);
  if (scope.empty()) return std::nullopt;
  if (consumer->opType == "MatMul" && slot == 1) {
    // nn.Linear on a tensor of rank > 2 exports as MatMul(x, Transpose(weight)) + Add(bias), the Transpose folded.
    if (auto bias = biasAfter(*consumer, scope))
      return OriginalWeight{bias->substr(0, bias->size() - 4) + "weight", true};
    return OriginalWeight{scope + ".weight", true};
  }
  if (consumer->opType == "Conv" && (slot == 1 || slot == 2))
    return OriginalWeight{scope + (slot == 1 ? ".weight" : ".bias"), false, true};
  return std::nullopt;
}

namespace {

bool isIndex(const std::string& s) {
  if (s.empty() || s.size() > 4 || (s.size() > 1 && s[0] == '0')) return false;
  if (!std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  return std::stoi(s) < 4096;
}

bool isPlainAttribute(const std::string& s) {
  // No leading underscore: nn.Module keeps its own state in `_parameters`, `_modules`, ...
  if (s.empty() || s.size() > kMaxIdentifierLength) return false;
  const char c0 = s[0];
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z'))) return false;
  for (char c : s)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  if (isPythonKeyword(s)) return false;
  const auto& reserved = nnModuleAttributeNames();
  return std::find(reserved.begin(), reserved.end(), s) == reserved.end();
}

std::vector<std::string> splitDots(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1)
    parts.push_back(key.substr(start, dot - start));
  parts.push_back(key.substr(start));
  return parts;
}

std::string attributeStep(const std::string& part, bool first) {
  return isIndex(part) ? "[" + part + "]" : (first ? "" : ".") + part;
}

}  // namespace

ModuleTree::ModuleTree() : nodes_(1) {
  nodes_[0].kind = Kind::Struct;
  nodes_[0].created = true;
}

int ModuleTree::TreeNode::child(const std::string& name) const {
  for (const auto& [n, i] : children)
    if (n == name) return i;
  return -1;
}

std::optional<std::string> ModuleTree::place(const std::string& key, NameTable& members) {
  const std::vector<std::string> parts = splitDots(key);
  if (parts.size() < 2 || key.size() > 4 * kMaxIdentifierLength) return std::nullopt;
  // Check the whole path before changing anything.
  int node = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool index = isIndex(parts[i]), last = i + 1 == parts.size();
    if (!index && !isPlainAttribute(parts[i])) return std::nullopt;
    if (index && (i == 0 || last)) return std::nullopt;  // a weight is an attribute of a container
    if (node < 0) continue;                              // below a container that does not exist yet
    const Kind kind = nodes_[static_cast<size_t>(node)].kind;
    if ((kind == Kind::List && !index) || (kind == Kind::Struct && index) || kind == Kind::Leaf) return std::nullopt;
    const int next = nodes_[static_cast<size_t>(node)].child(parts[i]);
    if (next < 0 && i == 0 && members.taken(parts[0])) return std::nullopt;
    if (next >= 0 && last) return std::nullopt;  // the place is taken
    node = next;
  }
  node = 0;
  std::string attr;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    auto& parent = nodes_[static_cast<size_t>(node)];
    int next = parent.child(parts[i]);
    if (next < 0) {
      if (i == 0) members.reserve(parts[0]);
      if (parent.kind == Kind::Undecided) parent.kind = isIndex(parts[i]) ? Kind::List : Kind::Struct;
      if (isIndex(parts[i])) parent.maxIndex = std::max<int64_t>(parent.maxIndex, std::stoi(parts[i]));
      next = static_cast<int>(nodes_.size());
      nodes_[static_cast<size_t>(node)].children.emplace_back(parts[i], next);
      nodes_.emplace_back();
      if (last) nodes_.back().kind = Kind::Leaf;
    }
    attr += attributeStep(parts[i], i == 0);
    node = next;
  }
  return attr;
}

std::vector<std::string> ModuleTree::createContainers(const std::string& key) {
  std::vector<std::string> lines;
  const std::vector<std::string> parts = splitDots(key);
  int node = 0;
  std::string attr;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    node = nodes_[static_cast<size_t>(node)].child(parts[i]);
    if (node < 0) return lines;  // not placed
    attr += attributeStep(parts[i], i == 0);
    TreeNode& n = nodes_[static_cast<size_t>(node)];
    if (n.created) continue;
    n.created = true;
    if (n.kind == Kind::List) {
      // Every index up to the highest exists (nn.ModuleList has no gaps); the unused ones stay empty modules. An
      // element that is a list itself (`features.0.0`) replaces its empty module when first reached.
      lines.push_back("self." + attr + " = nn.ModuleList([nn.Module() for _ in range(" +
                      std::to_string(n.maxIndex + 1) + ")])");
      for (const auto& [name, element] : n.children)
        if (nodes_[static_cast<size_t>(element)].kind != Kind::List)
          nodes_[static_cast<size_t>(element)].created = true;
    } else {
      lines.push_back("self." + attr + " = nn.Module()");
    }
  }
  return lines;
}

}  // namespace fb::codegen
