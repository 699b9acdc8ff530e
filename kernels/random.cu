// Instantiates the random fills for every element type (see random.cuh):
// `shaped_random_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}` (the
// floating ones fill; the others are never launched).
#include "random.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_RANDOM_KERNELS)
