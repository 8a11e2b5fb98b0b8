#include "layout/type_label.h"

#include "ir/type_info.h"

namespace fb::layout {

std::string shortTypeLabel(const ir::TypeInfo& t, size_t maxDimChars) {
  if (t.kind != ir::TypeInfo::Kind::Tensor || !t.shape) return t.toString();
  std::string out(ir::dataTypeName(t.elemType));
  out += "[";
  for (size_t i = 0; i < t.shape->size(); ++i) {
    if (i) out += ",";
    const ir::Dim& d = (*t.shape)[i];
    switch (d.kind) {
      case ir::Dim::Kind::Value:
        out += std::to_string(d.value);
        break;
      case ir::Dim::Kind::Unknown:
        out += "?";
        break;
      case ir::Dim::Kind::Param:
        // Cut at a character boundary of UTF-8 (names are usually ASCII).
        if (d.param.size() <= maxDimChars) {
          out += d.param;
        } else {
          size_t cut = maxDimChars - 1;
          while (cut > 0 && (static_cast<unsigned char>(d.param[cut]) & 0xC0) == 0x80) --cut;
          out += d.param.substr(0, cut) + "\xE2\x80\xA6";  // …
        }
        break;
    }
  }
  return out + "]";
}

}  // namespace fb::layout
