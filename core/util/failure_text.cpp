#include "util/failure_text.h"

#include <new>
#include <stdexcept>

namespace fb {

bool isOutOfMemory(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) || dynamic_cast<const std::length_error*>(&e);
}

std::string failureText(const std::exception& e, const std::string& doing) {
  if (!isOutOfMemory(e)) return e.what();
  std::string text = "out of memory";
  if (!doing.empty()) text += " while " + doing;
  if (dynamic_cast<const std::length_error*>(&e)) text += " (a size in the model is larger than memory can hold)";
  return text;
}

}  // namespace fb
