#pragma once
// The one Graphviz context of the process and the lock around it: Graphviz keeps global state, so the
// layout engine and the renderers must never run in two threads at once.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>
#include <string>

namespace fb::layout {

std::mutex& graphvizMutex();
// Created on first use (loading the plugin configuration is slow); errors below AGERR are not printed.
GVC_t* graphvizContext();
// agsafeset with std::string values (Graphviz's API takes non-const char*).
void setGraphvizAttr(void* object, const char* name, const std::string& value);

}  // namespace fb::layout
