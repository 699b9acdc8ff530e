// Instantiates the reduction kernels for every element type (see
// reduce.cuh): `shaped_reduce_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`,
// and the statistics' `shaped_stats_*`, `shaped_softmax_*` and `shaped_norm_*`
// (which do nothing but for f32 and f64).
#include "reduce.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_REDUCE_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_STATS_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_SOFTMAX_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_NORM_KERNELS)
