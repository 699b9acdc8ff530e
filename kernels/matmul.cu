// Instantiates the matrix product for every element type (see matmul.cuh):
// `shaped_matmul_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}` (the
// Rust types never ask for bool's: `MatmulElement` leaves it out).
#include "matmul.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_MATMUL_KERNELS)
