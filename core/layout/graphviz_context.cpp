#include "layout/graphviz_context.h"

namespace fb::layout {

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

GVC_t* graphvizContext() {
  static GVC_t* gvc = [] {
    agseterr(AGERR);  // fixed-size boxes may clip long labels; that is not worth a warning per box
    return gvContext();
  }();
  return gvc;
}

void setGraphvizAttr(void* object, const char* name, const std::string& value) {
  agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

}  // namespace fb::layout
