// Instantiates the random fills for the floating types (see random.cuh):
// `shaped_random_{f16,bf16,f32,f64}`.
#include "random.cuh"

SHAPED_FOR_EACH_FLOATING(SHAPED_RANDOM_KERNELS)
