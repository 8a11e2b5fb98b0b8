// Resize and its predecessor Upsample, GridSample and AffineGrid, RoiAlign, NonMaxSuppression, MaxUnpool. Kernels
// that read the opset (Resize's inputs and attributes, GridSample's mode names, RoiAlign's coordinate mode) are
// registered at each since-version whose meaning they implement.
#include "eval/kernels/image_kernels.h"
#include "eval/runtime/kernel_families.h"

namespace fb::eval {

void registerImageKernels(KernelRegistry& r) {
  r.add("Upsample", 1, upsampleKernel);  // height_scale / width_scale attributes
  r.add("Upsample", 7, upsampleKernel);  // scales attribute
  r.add("Upsample", 9, upsampleKernel);  // scales input
  r.add("Resize", 10, resizeKernel);     // scales input; asymmetric coordinates
  r.add("Resize", 11, resizeKernel);     // roi, sizes, coordinate modes, cubic
  r.add("Resize", 13, resizeKernel);     // roi and scales optional
  r.add("Resize", 18, resizeKernel);     // antialias, axes, keep_aspect_ratio_policy
  r.add("Resize", 19, resizeKernel);     // half_pixel_symmetric
  r.add("GridSample", 16, gridSampleKernel);
  r.add("GridSample", 20, gridSampleKernel);  // N-d; modes linear / cubic
  r.add("AffineGrid", 20, affineGridKernel);
  r.add("RoiAlign", 10, roiAlignKernel);
  r.add("RoiAlign", 16, roiAlignKernel);  // coordinate_transformation_mode
  r.add("NonMaxSuppression", 10, nonMaxSuppressionKernel);
  r.add("MaxUnpool", 9, maxUnpoolKernel);
}

}  // namespace fb::eval
