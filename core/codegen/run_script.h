#pragma once
// run.py of a generated folder: loads the weights, runs the model on .npy inputs (or random ones of the
// declared shapes) and prints each output's name and shape.
#include <string>

#include "codegen/flavour.h"

namespace fb::codegen {

std::string runScript(Flavour f, const std::string& className, const std::string& sourceName);

}  // namespace fb::codegen
