#include "eval/kernels/neural_norm_onednn.h"

#include "eval/kernels/neural_onednn.h"

namespace fb::eval::onednn {

namespace {

using dnnl::memory;

const auto kScaleShift = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;

}  // namespace

void layerNormalize(const float* x, float* y, int64_t outer, int64_t inner, const float* scale, const float* shift,
                    float eps, float* mean, float* variance) {
  guarded("layer normalization", [&] {
    const memory::desc data = plainDesc({outer, inner}), stats = plainDesc({outer}), channel = plainDesc({inner});
    // forward_training: the inference kind does not return the statistics, which LayerNormalization outputs.
    dnnl::layer_normalization_forward::desc d(dnnl::prop_kind::forward_training, data, stats, eps, kScaleShift);
    dnnl::layer_normalization_forward::primitive_desc pd(d, strictAttr(), cpuEngine());
    execute("layer normalization", dnnl::layer_normalization_forward(pd),
            {{DNNL_ARG_SRC, wrap(data, x)},
             {DNNL_ARG_DST, wrap(data, y)},
             {DNNL_ARG_SCALE, wrap(channel, scale)},
             {DNNL_ARG_SHIFT, wrap(channel, shift)},
             {DNNL_ARG_MEAN, wrap(stats, mean)},
             {DNNL_ARG_VARIANCE, wrap(stats, variance)}});
  });
}

void batchNormalize(const Tensor& x, const float* scale, const float* shift, const float* mean, const float* variance,
                    float eps, Tensor& y) {
  guarded("batch normalization", [&] {
    const memory::desc data = plainDesc(x.dims()), channel = plainDesc({x.dim(1)});
    dnnl::batch_normalization_forward::desc d(dnnl::prop_kind::forward_inference, data, eps,
                                              kScaleShift | dnnl::normalization_flags::use_global_stats);
    dnnl::batch_normalization_forward::primitive_desc pd(d, strictAttr(), cpuEngine());
    execute("batch normalization", dnnl::batch_normalization_forward(pd),
            {{DNNL_ARG_SRC, wrap(data, x.data<float>())},
             {DNNL_ARG_DST, wrap(data, y.mutableData<float>())},
             {DNNL_ARG_SCALE, wrap(channel, scale)},
             {DNNL_ARG_SHIFT, wrap(channel, shift)},
             {DNNL_ARG_MEAN, wrap(channel, mean)},
             {DNNL_ARG_VARIANCE, wrap(channel, variance)}});
  });
}

void localResponseNormalize(const Tensor& x, int64_t size, float alpha, float beta, float bias, Tensor& y) {
  guarded("lrn", [&] {
    const memory::desc data = plainDesc(x.dims());
    dnnl::lrn_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::lrn_across_channels, data, size,
                              alpha, beta, bias);
    dnnl::lrn_forward::primitive_desc pd(d, strictAttr(), cpuEngine());
    execute("lrn", dnnl::lrn_forward(pd),
            {{DNNL_ARG_SRC, wrap(data, x.data<float>())}, {DNNL_ARG_DST, wrap(data, y.mutableData<float>())}});
  });
}

}  // namespace fb::eval::onednn
