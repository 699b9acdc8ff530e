// Instantiates the gather kernel for every element type (see indexing.cuh):
// `shaped_gather_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`.
#include "indexing.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_GATHER_KERNELS)
