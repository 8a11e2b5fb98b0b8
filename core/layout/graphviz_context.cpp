#include "layout/graphviz_context.h"

#include <algorithm>
#include <cstring>

namespace fb::layout {

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

namespace {

std::string& collectedErrors() {
  static std::string text;
  return text;
}

int collectError(char* message) {
  constexpr size_t kKeep = 4096;  // the first errors say what went wrong; a flood of them must not grow without end
  std::string& text = collectedErrors();
  if (message && text.size() < kKeep) text.append(message, std::min(std::strlen(message), kKeep - text.size()));
  return 0;
}

}  // namespace

GVC_t* graphvizContext() {
  static GVC_t* gvc = [] {
    agseterr(AGERR);  // warnings are dropped
    agseterrf(collectError);
    return gvContext();
  }();
  return gvc;
}

GraphvizErrors::GraphvizErrors() {
  graphvizContext();
  collectedErrors().clear();
}

GraphvizErrors::~GraphvizErrors() { collectedErrors().clear(); }

bool GraphvizErrors::any() const { return !collectedErrors().empty(); }

const std::string& GraphvizErrors::text() const { return collectedErrors(); }

void setGraphvizAttr(void* object, const char* name, const std::string& value) {
  agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

}  // namespace fb::layout
