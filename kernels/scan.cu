// Instantiates the scans for every input type (see scan.cuh):
// `shaped_scan_{f16,bf16,f32,f64,c64,c128,u8,i8,i16,i32,i64,bool}`.
#include "scan.cuh"

SHAPED_FOR_EACH_DTYPE(SHAPED_SCAN_KERNELS)
