#include "codegen/state_dict_mapping.h"

#include <map>

#include "codegen/python_text.h"

namespace fb::codegen {

std::string loadOriginalStateDictCode(const std::vector<Weight>& weights, Flavour flavour) {
  bool tree = false;
  // Folded Conv layers by module path: weight key, bias key.
  std::map<std::string, std::pair<std::string, std::string>> folded;
  for (const Weight& w : weights) {
    tree = tree || w.key != w.attr;
    if (!w.foldedBatchNorm) continue;
    const std::string layer = w.key.substr(0, w.key.rfind('.'));
    (w.key.size() > 5 && w.key.compare(w.key.size() - 5, 5, ".bias") == 0 ? folded[layer].second
                                                                          : folded[layer].first) = w.key;
  }
  if (!tree) return {};
  (void)flavour;  // the same text in both flavours
  std::string s =
      "# Conv layers the export folded a BatchNorm into: (weight key, bias key) of this module.\n"
      "FOLDED_BATCH_NORMS = [";
  bool first = true;
  for (const auto& [layer, keys] : folded) {
    if (keys.first.empty() || keys.second.empty()) continue;
    s += std::string(first ? "" : ",\n                      ") + "(" + pyStringLiteral(keys.first) + ", " +
         pyStringLiteral(keys.second) + ")";
    first = false;
  }
  s += "]\n\n\n";
  s += "def load_original_state_dict(module, state_dict, bn_eps=1e-05):\n"
       "    \"\"\"Loads the state_dict of the PyTorch module this model was exported from into `module`.\n"
       "\n"
       "    Keys of equal name and shape are copied (nn.Linear weights the export transposed are held here in their\n"
       "    source layout already). A Conv of FOLDED_BATCH_NORMS gets its weight and bias computed from the source\n"
       "    conv and the first BatchNorm after it in the source state_dict with as many channels (bn_eps: ONNX keeps\n"
       "    no record of the BatchNorm's eps; 1e-05 is PyTorch's default). Keys without a dot are FlowBridge's names\n"
       "    for constants the exporter made: they keep the module's values (load the weights file first). Raises "
       "KeyError\n"
       "    naming the keys the source state_dict cannot fill.\n"
       "    \"\"\"\n"
       "    own = module.state_dict()\n"
       "    merged = {}\n"
       "    for key, value in own.items():\n"
       "        if key in state_dict and tuple(state_dict[key].shape) == tuple(value.shape):\n"
       "            merged[key] = state_dict[key]\n"
       "    source_keys = list(state_dict.keys())\n"
       "    for weight_key, bias_key in FOLDED_BATCH_NORMS:\n"
       "        if weight_key not in state_dict:\n"
       "            continue\n"
       "        weight = state_dict[weight_key]\n"
       "        after = source_keys[next(i for i, k in enumerate(source_keys) if k == weight_key) + 1:]\n"
       "        norms = [k[:-12] for k in after if k[-12:] == \"running_mean\" and state_dict[k].numel() == "
       "weight.shape[0]]\n"
       "        if not norms:\n"
       "            continue\n"
       "        bn = norms[0]\n"
       "        scale = state_dict[bn + \"weight\"] / (state_dict[bn + \"running_var\"] + bn_eps) ** 0.5\n"
       "        merged[weight_key] = weight * scale.reshape([-1] + [1] * (len(weight.shape) - 1))\n"
       "        shift = state_dict[bn + \"bias\"] - state_dict[bn + \"running_mean\"] * scale\n"
       "        merged[bias_key] = shift + state_dict[bias_key] * scale if bias_key in state_dict else shift\n"
       "    for key, value in own.items():\n"
       "        if key not in merged and \".\" not in key:\n"
       "            merged[key] = value\n"
       "    missing = [key for key in own if key not in merged]\n"
       "    if missing:\n"
       "        raise KeyError(\"load_original_state_dict: the state_dict has no tensor of the right shape for \" + "
       "\", \".join(missing[:8]))\n"
       "    module.load_state_dict(merged, strict=True)\n";
  return s;
}

}  // namespace fb::codegen
