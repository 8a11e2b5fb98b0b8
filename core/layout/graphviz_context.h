#pragma once
// The one Graphviz context of the process and the lock around it: Graphviz keeps global state, so the
// layout engine and the renderers must never run in two threads at once.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>
#include <string>

namespace fb::layout {

std::mutex& graphvizMutex();
// Created on first use (loading the plugin configuration is slow). Graphviz's messages never reach stderr:
// warnings are dropped (fixed-size boxes may clip long labels, a warning per box), errors are collected for
// GraphvizErrors.
GVC_t* graphvizContext();

// The errors Graphviz reports (agerr) while this is alive, for the caller to act on in its own words: a layout
// that reported one is not trusted ("Edge length ... larger than maximum" on a rank of 20k boxes leaves the
// positions unset). Use with graphvizMutex() held.
class GraphvizErrors {
 public:
  GraphvizErrors();
  ~GraphvizErrors();
  GraphvizErrors(const GraphvizErrors&) = delete;
  GraphvizErrors& operator=(const GraphvizErrors&) = delete;
  bool any() const;
  const std::string& text() const;
};
// agsafeset with std::string values (Graphviz's API takes non-const char*).
void setGraphvizAttr(void* object, const char* name, const std::string& value);

}  // namespace fb::layout
