//! Float matrix products through cuBLAS (`cublasGemmStridedBatchedEx`),
//! loaded at run time (see [`vendor`](super::vendor)): float16, bfloat16,
//! float32, float64, complex64 and complex128. Integer products, and every
//! product when cuBLAS is missing, run on the tiled kernel of
//! `kernels/matmul.cuh`; the first product that falls back says why on
//! standard error, once per process.
//!
//! PyTorch's defaults: float32 products in full float32 (no TF32, as
//! `torch.backends.cuda.matmul.allow_tf32 = False`); float16 and bfloat16
//! accumulate in float32, with cuBLAS's reduced-precision split reductions
//! allowed (`allow_fp16_reduced_precision_reduction = True` and its
//! bfloat16 twin). float64 and complex128 compute in float64.
//!
//! cuBLAS is column-major and the tensors here row-major: `C = A B` is
//! computed as `C^T = B^T A^T`, where a row-major matrix read as
//! column-major is its transpose. An operand with unit column stride is
//! passed as it is, one with unit row stride (a transposed view) as
//! transposed, so neither is copied; an operand with neither (a stepped
//! slice, a broadcast row) is first copied contiguous. Batch dimensions
//! whose strides line up are one strided-batched call; the others loop on
//! the host.

use super::vendor::VendorLibrary;
use crate::dtype::DType;
use crate::ops::matmul::MatmulPlan;
use std::ffi::{c_int, c_longlong, c_void};
use std::sync::{Mutex, Once, OnceLock};

/// cuBLAS: its variable and its names.
const CUBLAS: VendorLibrary = VendorLibrary {
    name: "cuBLAS",
    variable: "SHAPED_CUBLAS",
    files: &[
        "libcublas.so.13",
        "libcublas.so.12",
        "libcublas.so.11",
        "libcublas.so",
        "cublas64_13.dll",
        "cublas64_12.dll",
        "cublas64_11.dll",
    ],
};

/// The functions used, each checked when the library is opened.
const SYMBOLS: [&str; 5] = [
    "cublasCreate_v2",
    "cublasSetStream_v2",
    "cublasSetMathMode",
    "cublasGetProperty",
    "cublasGemmStridedBatchedEx",
];

type Handle = *mut c_void;
type Status = c_int;

/// `cublasOperation_t`.
pub(crate) const OP_N: c_int = 0;
pub(crate) const OP_T: c_int = 1;
/// `CUBLAS_DEFAULT_MATH`: no TF32 unless the compute type asks for it.
const DEFAULT_MATH: c_int = 0;
/// `cublasComputeType_t`.
const COMPUTE_32F: c_int = 68;
const COMPUTE_64F: c_int = 70;
/// `CUBLAS_GEMM_DEFAULT`.
const GEMM_DEFAULT: c_int = -1;

type GemmStridedBatchedEx = unsafe extern "C" fn(
    Handle,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    *const c_void,
    *const c_void,
    c_int,
    c_int,
    c_longlong,
    *const c_void,
    c_int,
    c_int,
    c_longlong,
    *const c_void,
    *mut c_void,
    c_int,
    c_int,
    c_longlong,
    c_int,
    c_int,
    c_int,
) -> Status;

/// cuBLAS, opened, with the functions used.
pub(crate) struct Cublas {
    /// Where it was found.
    pub path: String,
    /// Major, minor and patch version.
    pub version: [c_int; 3],
    create: unsafe extern "C" fn(*mut Handle) -> Status,
    set_stream: unsafe extern "C" fn(Handle, *mut c_void) -> Status,
    set_math_mode: unsafe extern "C" fn(Handle, c_int) -> Status,
    gemm: GemmStridedBatchedEx,
    /// Kept open while the functions above are used (for the process).
    _library: libloading::Library,
}

impl Cublas {
    /// Opens cuBLAS where the environment says (see [`vendor`](super::vendor)).
    pub(crate) fn open() -> Result<Cublas, String> {
        let opened = CUBLAS.open(&SYMBOLS)?;
        let library = opened.library;
        // SAFETY: each symbol was found when the library was opened, and
        // each type is the function's C signature in cublas_api.h (v2 API,
        // the same from cuBLAS 11 to 13); the pointers stay valid while
        // `_library` is open, which is as long as `Cublas` lives.
        let (create, set_stream, set_math_mode, get_property, gemm) = unsafe {
            (
                *library.get(b"cublasCreate_v2").map_err(|e| e.to_string())?,
                *library
                    .get(b"cublasSetStream_v2")
                    .map_err(|e| e.to_string())?,
                *library
                    .get(b"cublasSetMathMode")
                    .map_err(|e| e.to_string())?,
                *library
                    .get::<unsafe extern "C" fn(c_int, *mut c_int) -> Status>(b"cublasGetProperty")
                    .map_err(|e| e.to_string())?,
                *library
                    .get(b"cublasGemmStridedBatchedEx")
                    .map_err(|e| e.to_string())?,
            )
        };
        let mut version = [0; 3];
        for (property, value) in version.iter_mut().enumerate() {
            // SAFETY: `cublasGetProperty(MAJOR_VERSION = 0 | MINOR_VERSION |
            // PATCH_LEVEL, int*)` writes one int; it needs no handle or device.
            let status = unsafe { get_property(property as c_int, value) };
            if status != 0 {
                return Err(format!(
                    "cuBLAS at {} did not give its version ({})",
                    opened.path,
                    status_name(status)
                ));
            }
        }
        Ok(Cublas {
            path: opened.path,
            version,
            create,
            set_stream,
            set_math_mode,
            gemm,
            _library: library,
        })
    }
}

/// cuBLAS for this process, opened on first use.
pub(crate) fn cublas() -> Result<&'static Cublas, &'static str> {
    static OPENED: OnceLock<Result<Cublas, String>> = OnceLock::new();
    OPENED
        .get_or_init(Cublas::open)
        .as_ref()
        .map_err(String::as_str)
}

/// A cuBLAS handle bound to a device's stream (kept for the process, as
/// the device's context and stream are).
#[derive(Copy, Clone)]
pub(crate) struct BlasHandle(usize);

/// The handle of `device` (made current by the caller), made on first use
/// and bound to `stream`; `Err` with why cuBLAS cannot run there.
pub(crate) fn handle(
    lib: &Cublas,
    device: usize,
    stream: *mut c_void,
) -> Result<BlasHandle, String> {
    static HANDLES: Mutex<Vec<Option<Result<BlasHandle, String>>>> = Mutex::new(Vec::new());
    let mut handles = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    if handles.len() <= device {
        handles.resize(device + 1, None);
    }
    handles[device]
        .get_or_insert_with(|| {
            let mut raw: Handle = std::ptr::null_mut();
            // SAFETY: `cublasCreate_v2` writes one handle, for the context
            // current on this thread (the device's primary context, made
            // current by the caller); the other two take that handle, the
            // device's stream (a live `CUstream`, which is a
            // `cudaStream_t`) and a math mode.
            unsafe {
                status((lib.create)(&mut raw), "cublasCreate")?;
                status((lib.set_stream)(raw, stream), "cublasSetStream")?;
                status((lib.set_math_mode)(raw, DEFAULT_MATH), "cublasSetMathMode")?;
            }
            Ok(BlasHandle(raw as usize))
        })
        .clone()
}

/// Says once per process why products run on the tiled kernel.
pub(crate) fn say_fallback(why: &str) {
    static SAID: Once = Once::new();
    SAID.call_once(|| eprintln!("{}", fallback_message(why)));
}

/// The fallback's message.
pub(crate) fn fallback_message(why: &str) -> String {
    format!(
        "shaped: {why}; CUDA float matrix products run on the built-in tiled kernel, \
         many times slower"
    )
}

/// `Err` with cuBLAS's name of a failure.
fn status(code: Status, call: &str) -> Result<(), String> {
    match code {
        0 => Ok(()),
        _ => Err(format!("{call} failed: {}", status_name(code))),
    }
}

/// cuBLAS's name of a status (`cublasStatus_t`).
pub(crate) fn status_name(code: Status) -> String {
    match code {
        1 => "CUBLAS_STATUS_NOT_INITIALIZED".into(),
        3 => "CUBLAS_STATUS_ALLOC_FAILED".into(),
        7 => "CUBLAS_STATUS_INVALID_VALUE".into(),
        8 => "CUBLAS_STATUS_ARCH_MISMATCH".into(),
        11 => "CUBLAS_STATUS_MAPPING_ERROR".into(),
        13 => "CUBLAS_STATUS_EXECUTION_FAILED".into(),
        14 => "CUBLAS_STATUS_INTERNAL_ERROR".into(),
        15 => "CUBLAS_STATUS_NOT_SUPPORTED".into(),
        16 => "CUBLAS_STATUS_LICENSE_ERROR".into(),
        _ => format!("cuBLAS status {code}"),
    }
}

/// cuBLAS's `cudaDataType` and compute type of `dtype`, or `None` for the
/// dtypes it has no product of (integers, bool).
pub(crate) fn types_of(dtype: DType) -> Option<(c_int, c_int)> {
    match dtype {
        DType::F16 => Some((2, COMPUTE_32F)),
        DType::BF16 => Some((14, COMPUTE_32F)),
        DType::F32 => Some((0, COMPUTE_32F)),
        DType::F64 => Some((1, COMPUTE_64F)),
        DType::C64 => Some((4, COMPUTE_32F)),
        DType::C128 => Some((5, COMPUTE_64F)),
        _ => None,
    }
}

/// How cuBLAS reads the transpose of a stored `rows x cols` matrix with
/// strides `(rs, cs)` as a column-major matrix: `(OP_N, ld)` when its
/// columns are unit-strided (the stored matrix read as column-major is its
/// transpose), `(OP_T, ld)` when its rows are; `None` when neither (a
/// stride of a dimension of size 1 does not matter).
pub(crate) fn transposed_view(
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
) -> Option<(c_int, usize)> {
    if cols <= 1 || cs == 1 {
        let ld = if rows <= 1 { cols.max(1) } else { rs };
        if ld >= cols.max(1) {
            return Some((OP_N, ld));
        }
    }
    if rows <= 1 || rs == 1 {
        let ld = if cols <= 1 { rows.max(1) } else { cs };
        if ld >= rows.max(1) {
            return Some((OP_T, ld));
        }
    }
    None
}

/// The cuBLAS calls of a plan: one strided-batched product per element of
/// the outer batch dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GemmCalls {
    /// Operation and leading dimension of cuBLAS's A (the plan's `b`) and
    /// B (the plan's `a`).
    pub op_a: c_int,
    pub lda: c_int,
    pub op_b: c_int,
    pub ldb: c_int,
    /// cuBLAS's m, n, k: the plan's n, m, k.
    pub m: c_int,
    pub n: c_int,
    pub k: c_int,
    /// Products per call, and the strides between them (elements) in the
    /// plan's `b`, `a` and the output.
    pub count: c_int,
    pub stride_a: c_longlong,
    pub stride_b: c_longlong,
    pub stride_c: c_longlong,
    /// Element offsets of each call's first products in the plan's `a`,
    /// `b` and the output.
    pub starts: Vec<[usize; 3]>,
}

/// Whether an operand must be copied contiguous before cuBLAS can read it:
/// `(a, b)`.
pub(crate) fn needs_copies(plan: &MatmulPlan) -> (bool, bool) {
    let (m, k, n) = plan.mkn();
    (
        transposed_view(m, k, plan.a.rows, plan.a.cols).is_none(),
        transposed_view(k, n, plan.b.rows, plan.b.cols).is_none(),
    )
}

/// The calls of `plan` (not empty: m, n and the batch are not 0, k is not
/// 0), or `None` when an operand's layout is not one cuBLAS reads (see
/// [`needs_copies`]) or a size does not fit its 32-bit arguments.
pub(crate) fn gemm_calls(plan: &MatmulPlan) -> Option<GemmCalls> {
    let (m, k, n) = plan.mkn();
    let (op_b, ldb) = transposed_view(m, k, plan.a.rows, plan.a.cols)?;
    let (op_a, lda) = transposed_view(k, n, plan.b.rows, plan.b.cols)?;
    let product = m.checked_mul(n)?;
    // The batch dimensions of more than one product, innermost last.
    let dims: Vec<[usize; 4]> = (0..plan.batch.len())
        .filter(|&d| plan.batch[d] > 1)
        .map(|d| {
            let inner: usize = plan.batch[d + 1..].iter().product();
            [
                plan.batch[d],
                plan.a_batch_strides[d],
                plan.b_batch_strides[d],
                inner * product,
            ]
        })
        .collect();
    // The innermost dimensions whose strides line up are one call.
    let (mut count, mut sa, mut sb, mut sc) = (1, 0, 0, product);
    let mut outer = dims.len();
    if let Some(&[size, a, b, c]) = dims.last() {
        (count, sa, sb, sc) = (size, a, b, c);
        outer -= 1;
        while outer > 0 {
            let [size, a, b, c] = dims[outer - 1];
            if a != sa * count || b != sb * count || c != sc * count {
                break;
            }
            count *= size;
            outer -= 1;
        }
    }
    let mut starts = vec![[0usize; 3]];
    for &[size, a, b, c] in &dims[..outer] {
        starts = starts
            .iter()
            .flat_map(|s| (0..size).map(move |i| [s[0] + i * a, s[1] + i * b, s[2] + i * c]))
            .collect();
    }
    let int = |x: usize| c_int::try_from(x).ok();
    let long = |x: usize| c_longlong::try_from(x).ok();
    Some(GemmCalls {
        op_a,
        lda: int(lda)?,
        op_b,
        ldb: int(ldb)?,
        m: int(n)?,
        n: int(m)?,
        k: int(k)?,
        count: int(count)?,
        stride_a: long(sb)?,
        stride_b: long(sa)?,
        stride_c: long(sc)?,
        starts,
    })
}

/// Queues `calls` on the handle's stream: `out = a b` for elements of
/// `dtype`, with `a`, `b` and `out` the addresses of the operands' and the
/// output's first elements.
///
/// # Safety
/// `calls` come from [`gemm_calls`] of the plan of two operands of `dtype`
/// (a float dtype of [`types_of`]) whose first elements are at `a` and `b`
/// on the handle's device, every element the plan reaches inside their
/// buffers; `out` is a buffer of the plan's output, contiguous; the
/// handle's device is current on this thread.
pub(crate) unsafe fn queue_gemm(
    lib: &Cublas,
    handle: BlasHandle,
    dtype: DType,
    calls: &GemmCalls,
    a: u64,
    b: u64,
    out: u64,
) -> Result<(), String> {
    let (data, compute) = types_of(dtype).ok_or("cuBLAS has no product of this dtype")?;
    // One and zero in the compute type (complex: the real part first).
    let (one, zero): (Vec<u8>, Vec<u8>) = match (compute, dtype.is_complex()) {
        (COMPUTE_64F, false) => (1f64.to_ne_bytes().into(), [0u8; 8].into()),
        (COMPUTE_64F, true) => ([1f64.to_ne_bytes(), [0u8; 8]].concat(), [0u8; 16].into()),
        (_, false) => (1f32.to_ne_bytes().into(), [0u8; 4].into()),
        (_, true) => ([1f32.to_ne_bytes(), [0u8; 4]].concat(), [0u8; 8].into()),
    };
    let bytes = dtype.itemsize() as u64;
    let at = |base: u64, offset: usize| (base + offset as u64 * bytes) as *const c_void;
    for start in &calls.starts {
        // SAFETY: the caller's contract: the addresses, leading dimensions
        // and strides describe the plan's operands and output on the
        // handle's device; alpha and beta are host values of the compute
        // type (the handle's default host pointer mode); beta is 0, so the
        // output is written, never read.
        let code = unsafe {
            (lib.gemm)(
                handle.0 as Handle,
                calls.op_a,
                calls.op_b,
                calls.m,
                calls.n,
                calls.k,
                one.as_ptr().cast(),
                at(b, start[1]),
                data,
                calls.lda,
                calls.stride_a,
                at(a, start[0]),
                data,
                calls.ldb,
                calls.stride_b,
                zero.as_ptr().cast(),
                at(out, start[2]).cast_mut(),
                data,
                calls.m,
                calls.stride_c,
                calls.count,
                compute,
                GEMM_DEFAULT,
            )
        };
        status(code, "cublasGemmStridedBatchedEx")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::matmul::MatmulOperand;

    fn plan(a: (&[usize], &[usize]), b: (&[usize], &[usize])) -> MatmulPlan {
        let operand = |(sizes, strides): (&'static [usize], &'static [usize])| MatmulOperand {
            sizes,
            strides,
        };
        // (The plan copies what it keeps.)
        let a: (&'static [usize], &'static [usize]) =
            (Box::leak(a.0.into()), Box::leak(a.1.into()));
        let b: (&'static [usize], &'static [usize]) =
            (Box::leak(b.0.into()), Box::leak(b.1.into()));
        MatmulPlan::new(operand(a), operand(b)).expect("a plan")
    }

    #[test]
    fn operands_are_read_through_their_strides_where_cublas_can() {
        // Row-major (unit column stride): the stored matrix read
        // column-major is its transpose, as cuBLAS is asked for.
        assert_eq!(transposed_view(3, 4, 4, 1), Some((OP_N, 4)));
        // A row of a wider matrix: the leading dimension is the row stride.
        assert_eq!(transposed_view(3, 4, 10, 1), Some((OP_N, 10)));
        // A transposed view (unit row stride).
        assert_eq!(transposed_view(3, 4, 1, 3), Some((OP_T, 3)));
        // One row or one column: its other stride does not matter.
        assert_eq!(transposed_view(1, 4, 0, 1), Some((OP_N, 4)));
        assert_eq!(transposed_view(4, 1, 1, 7), Some((OP_N, 1)));
        assert_eq!(transposed_view(4, 1, 5, 0), Some((OP_N, 5)));
        // Neither stride is 1, or a row stride shorter than a row (a
        // broadcast row): copied first.
        assert_eq!(transposed_view(3, 4, 8, 2), None);
        assert_eq!(transposed_view(3, 4, 0, 1), None);
        assert_eq!(transposed_view(3, 4, 2, 1), None);
    }

    #[test]
    fn a_product_is_computed_transposed_in_cublas_terms() {
        // (2, 3) @ (3, 5): C^T (5 x 2) = B^T (5 x 3) A^T (3 x 2).
        let calls = gemm_calls(&plan((&[2, 3], &[3, 1]), (&[3, 5], &[5, 1]))).unwrap();
        assert_eq!(
            (calls.op_a, calls.lda, calls.op_b, calls.ldb),
            (OP_N, 5, OP_N, 3)
        );
        assert_eq!((calls.m, calls.n, calls.k, calls.count), (5, 2, 3, 1));
        assert_eq!(calls.starts, vec![[0, 0, 0]]);
        // a transposed (a (3, 2) matrix's view), b a transposed view too.
        let calls = gemm_calls(&plan((&[2, 3], &[1, 2]), (&[3, 5], &[1, 3]))).unwrap();
        assert_eq!(
            (calls.op_a, calls.lda, calls.op_b, calls.ldb),
            (OP_T, 3, OP_T, 2)
        );
    }

    #[test]
    fn batches_whose_strides_line_up_are_one_call() {
        // (4, 6, 2, 3) @ (3, 5) contiguous: the plan folds the batch into
        // the rows (one product of 48 rows).
        let calls = gemm_calls(&plan((&[4, 6, 2, 3], &[36, 6, 3, 1]), (&[3, 5], &[5, 1]))).unwrap();
        assert_eq!(
            (calls.m, calls.n, calls.count, calls.starts.len()),
            (5, 48, 1, 1)
        );
        // (4, 6, 2, 3) @ (4, 6, 3, 5): 24 products, one call.
        let calls = gemm_calls(&plan(
            (&[4, 6, 2, 3], &[36, 6, 3, 1]),
            (&[4, 6, 3, 5], &[90, 15, 5, 1]),
        ))
        .unwrap();
        assert_eq!(
            (calls.count, calls.stride_a, calls.stride_b, calls.stride_c),
            (24, 15, 6, 10)
        );
        assert_eq!(calls.starts, vec![[0, 0, 0]]);
        // A broadcast batch of b (stride 0) lines up too.
        let calls = gemm_calls(&plan(
            (&[4, 6, 2, 3], &[36, 6, 3, 1]),
            (&[1, 6, 3, 5], &[0, 15, 5, 1]),
        ))
        .unwrap();
        assert_eq!((calls.count, calls.stride_a, calls.stride_b), (6, 15, 6));
        assert_eq!(
            calls.starts,
            vec![[0, 0, 0], [36, 0, 60], [72, 0, 120], [108, 0, 180]]
        );
        // A permuted batch (the outer dimension inside): one call per
        // outer element.
        let calls = gemm_calls(&plan(
            (&[4, 6, 2, 3], &[6, 24, 3, 1]),
            (&[4, 6, 3, 5], &[90, 15, 5, 1]),
        ))
        .unwrap();
        assert_eq!((calls.count, calls.stride_b, calls.stride_a), (6, 24, 15));
        assert_eq!(calls.starts.len(), 4);
        assert_eq!(calls.starts[3], [18, 270, 180]);
    }

    #[test]
    fn operands_cublas_cannot_read_are_flagged_for_copies() {
        let stepped = plan((&[2, 3], &[6, 2]), (&[3, 5], &[5, 1]));
        assert_eq!(needs_copies(&stepped), (true, false));
        assert_eq!(gemm_calls(&stepped), None);
        let broadcast_rows = plan((&[2, 3], &[3, 1]), (&[3, 5], &[0, 1]));
        assert_eq!(needs_copies(&broadcast_rows), (false, true));
    }

    #[test]
    fn sizes_beyond_32_bits_are_left_to_the_tiled_kernel() {
        let wide = 1usize << 31;
        let calls = gemm_calls(&plan((&[1, 2], &[2, 1]), (&[2, wide], &[wide, 1])));
        assert_eq!(calls, None);
    }

    #[test]
    fn the_fallback_says_why_and_what_runs_instead() {
        assert_eq!(
            fallback_message("cuBLAS not found (set SHAPED_CUBLAS to the library's path); tried x"),
            "shaped: cuBLAS not found (set SHAPED_CUBLAS to the library's path); tried x; \
             CUDA float matrix products run on the built-in tiled kernel, many times slower"
        );
        assert_eq!(status_name(13), "CUBLAS_STATUS_EXECUTION_FAILED");
        assert_eq!(status_name(99), "cuBLAS status 99");
        assert_eq!(types_of(DType::I64), None);
        assert_eq!(types_of(DType::BF16), Some((14, COMPUTE_32F)));
    }

    /// The toolkit this library builds with (Debian's, in CI) installs
    /// cuBLAS: it opens, every function used is there, and it gives its
    /// version without a device.
    #[test]
    fn cublas_opens_where_the_toolkit_is_installed() {
        if std::env::var_os("SHAPED_CUBLAS").is_some() {
            return; // a user's choice, checked on a device
        }
        match Cublas::open() {
            Ok(lib) => {
                assert!(lib.version[0] >= 11, "{:?} at {}", lib.version, lib.path);
                assert!(lib.path.contains("cublas"), "{}", lib.path);
            }
            Err(why) => {
                assert!(why.starts_with("cuBLAS not found"), "{why}");
                // CI installs the toolkit, so there it must open.
                assert!(std::env::var_os("CI").is_none(), "{why}");
            }
        }
    }
}
