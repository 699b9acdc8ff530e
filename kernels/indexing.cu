// Instantiates the gather and scatter kernels for every element type (see
// indexing.cuh): `shaped_gather_{f16,...,bool}`, `shaped_scatter_{...}` and
// `shaped_combine_{...}`.
#include "indexing.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_GATHER_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_SCATTER_KERNELS)
SHAPED_FOR_EACH_DTYPE(SHAPED_COMPACT_KERNELS)
