// Instantiates the sets and bins for every sortable type (see sets.cuh):
// `shaped_sets_{f16,bf16,f32,f64,u8,i8,i16,i32,i64,bool}`.
#include "sets.cuh"

SHAPED_FOR_EACH_SORTABLE(SHAPED_SETS_KERNELS)
