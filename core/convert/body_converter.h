#pragma once
// The conversion a handler gets as HandlerContext::convertBody: a function body converted on its own by the
// pipeline of `direction` (no passes, no check). The pipeline sets it for every node; a caller that runs a handler
// outside the pipeline (a unit test) takes it from here.
#include <string>

#include "convert/handler.h"

namespace fb::convert {

BodyConverter bodyConverterFor(const std::string& direction);

}  // namespace fb::convert
