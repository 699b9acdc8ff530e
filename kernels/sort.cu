// Instantiates the sorts for every sortable type (see sort.cuh):
// `shaped_sort_{f16,bf16,f32,f64,u8,i8,i16,i32,i64,bool}`.
#include "sort.cuh"

SHAPED_FOR_EACH_SORTABLE(SHAPED_SORT_KERNELS)
