// Instantiates `where` and the functions of three tensors for every output
// element type (see select.cuh):
// `shaped_where_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`,
// `shaped_ternary_{...}`.
#include "select.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_WHERE_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_TERNARY_KERNELS)
