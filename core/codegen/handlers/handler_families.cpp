#include "codegen/handlers/handler_families.h"

namespace fb::codegen {

void addPy(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& description,
           PyHandler fn, const std::string& domain) {
  convert::HandlerInfo info;
  info.domain = domain;
  info.opType = op;
  info.sinceVersion = since;
  info.description = description;
  info.fn = [fn = std::move(fn)](ir::Node&, convert::HandlerContext& ctx) { fn(*ctx.py); };
  r.add(std::move(info));
}

void registerAllCodegenFamilies(convert::HandlerRegistry& r) {
  registerElementwiseCode(r);
  registerNeuralCode(r);
  registerTensorCode(r);
  registerReductionCode(r);
  registerLossCode(r);
  registerControlFlowCode(r);
  registerResizeCode(r);
  registerRecurrentCode(r);
  registerQuantizeCode(r);
  registerSignalCode(r);
  registerIndexingCode(r);
  registerSequenceCode(r);
  registerTransformerCode(r);
}

}  // namespace fb::codegen
