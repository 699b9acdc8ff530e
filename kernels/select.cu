// Instantiates `where` and the functions of three tensors for every output
// element type (see select.cuh):
// `shaped_where_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`,
// `shaped_ternary_{...}`; and the rearrangements for every element width
// (see rearrange.cuh): `shaped_rearrange_{b1,b2,b4,b8,b16}`.
#include "select.cuh"
#include "rearrange.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_WHERE_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_TERNARY_KERNELS)
SHAPED_FOR_EACH_WIDTH(SHAPED_REARRANGE_KERNELS)
