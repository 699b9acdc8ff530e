// Instantiates the random fills for the floating types (see random.cuh):
// `shaped_random_{f16,bf16,f32,f64}` and `shaped_poisson_{..}`, and the
// whole-number draws for the
// real ones: `shaped_draw_{f16,...,bool}`.
#include "random.cuh"

SHAPED_FOR_EACH_FLOATING(SHAPED_RANDOM_KERNELS)
SHAPED_FOR_EACH_FLOATING(SHAPED_POISSON_KERNELS)
SHAPED_FOR_EACH_REAL(SHAPED_DRAW_KERNELS)
