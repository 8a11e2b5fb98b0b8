#pragma once
// What a user reads when something fails: running out of memory is said in words, with the step it stopped ("out
// of memory while generating pytorch code"), never as a library's name for it (std::bad_alloc,
// vector::_M_default_append).
#include <exception>
#include <string>

namespace fb {

// `doing` is the step, e.g. "reading the model". Other exceptions give their own text.
std::string failureText(const std::exception& e, const std::string& doing);
// Whether `e` is running out of memory (std::bad_alloc, or std::length_error: a size past what can be allocated).
bool isOutOfMemory(const std::exception& e);

}  // namespace fb
