// Instantiates every kernel family but math for every element type (see
// elementwise.cuh). The names are what the Rust side loads:
// `shaped_{arith,compare,unary,cast,promoted}_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`.
#include "elementwise.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_KERNELS)
