// Graph-interface ops. input and variable ops never reach the handlers: the reader makes them graph inputs and
// initializers. output (nn.Graph) and return (lazy jobs) keep the graph output's name through an Identity.
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {

void registerSystemOps() {
  auto passThrough = [](OneflowOp& op) {
    op.ignore({"axis"});
    op.finish(op.emit("Identity", {op.allInputs().at(0)}));
  };
  for (const char* name : {"output", "return"})
    add(name, 1, "graph output marker -> Identity keeping the output's name", passThrough);
  // Single-device graphs: splitting/concatenating across one device is the identity.
  for (const char* name : {"distribute_split", "distribute_concat", "distribute_clone", "distribute_add"})
    add(name, 1, "single-device distribute op -> Identity", [](OneflowOp& op) {
      if (op.allInputs().size() != 1 || op.node().outputs().size() != 1)
        throw std::runtime_error("only the single-device form (one input, one output) is supported");
      op.ignore({"axis"});
      op.finish(op.emit("Identity", {op.allInputs()[0]}));
    });
  for (const char* name : {"identity", "amp_white_identity", "amp_black_identity"})
    add(name, 1, "-> Identity", [](OneflowOp& op) { op.finish(op.emit("Identity", {op.allInputs().at(0)})); });
}

}  // namespace fb::convert::oneflow
