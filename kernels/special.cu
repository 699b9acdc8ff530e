// Instantiates the special family for every element type (see math.cuh):
// `shaped_special_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`.
#include "elementwise.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_SPECIAL_KERNELS)
