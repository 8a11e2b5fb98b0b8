#include "convert/builtin_handlers.h"

#include <memory>
#include <mutex>

#include "convert/direction.h"
#include "convert/handler_registry.h"
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/onnx_direction.h"

namespace fb::convert {

void registerBuiltinHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& onnx = HandlerRegistry::forDirection("onnx");
    onnx_onnx::registerSoftmaxAdapters(onnx);
    onnx_onnx::registerAxesInputAdapters(onnx);
    onnx_onnx::registerAxisAttributeAdapters(onnx);
    onnx_onnx::registerClipAdapters(onnx);
    onnx_onnx::registerPadAdapters(onnx);
    onnx_onnx::registerSliceAdapters(onnx);
    onnx_onnx::registerDropoutAdapters(onnx);
    onnx_onnx::registerPoolAdapters(onnx);
    onnx_onnx::registerGemmAdapters(onnx);
    onnx_onnx::registerConstantAdapters(onnx);
    onnx_onnx::registerDepthToSpaceAdapters(onnx);
    onnx_onnx::registerResizeAdapters(onnx);
    onnx_onnx::registerTopKScatterAdapters(onnx);
    onnx_onnx::registerDecompositions(onnx);
    onnx_onnx::registerTriluAdapters(onnx);
    onnx_onnx::registerShapeAdapters(onnx);
    onnx_onnx::registerSmallIntArithmeticAdapters(onnx);
    onnx_onnx::registerIsInfAdapters(onnx);
    onnx_onnx::registerGatherElementsAdapters(onnx);
    onnx_onnx::registerModAdapters(onnx);
    onnx_onnx::registerCumSumAdapters(onnx);
    onnx_onnx::registerScanAdapters(onnx);
    onnx_onnx::registerWhereAdapters(onnx);
    onnx_onnx::registerConstantOfShapeAdapters(onnx);
    onnx_onnx::registerMinMaxAdapters(onnx);
    onnx_onnx::registerArgExtremeAdapters(onnx);
    onnx_onnx::registerBatchNormTrainingAdapters(onnx);
    onnx_onnx::registerEinsumAdapters(onnx);
    onnx_onnx::registerGatherNDAdapters(onnx);
    onnx_onnx::registerGridSampleAdapters(onnx);
    registerDirection(std::make_unique<onnx_onnx::OnnxRetargeting>(onnx));
    oneflow::registerAllFamilies();  // direction "oneflow": the default rules (Direction) over its handlers
  });
}

}  // namespace fb::convert
