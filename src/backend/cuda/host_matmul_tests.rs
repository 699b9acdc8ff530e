//! The product kernels (`kernels/matmul.cuh`) compiled for the host, against
//! the CPU backend's products (gemm, and the CPU's own integer loop): sizes
//! that fill whole tiles and partial ones, transposed and offset operands,
//! vectors on either side, batches that broadcast or fold into rows, and
//! empty products (k = 0 gives zeros), on every dtype with a product. The
//! threads of a block run as fibers that meet at each `__syncthreads`, so
//! the tiles load and add as on a GPU. Integer products (wrapping) match
//! exactly; floating ones within a tolerance (another order of additions,
//! and no fused multiply-adds).

use super::host_reduce_tests::Close;
use super::host_tests::{Sample, data};
use super::matmul::{MATMUL_BLOCK, MatmulArgs, kernel_name, matmul_args};
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, StridedRef};
use crate::dtype::Element;
use crate::ops::matmul::{MatmulBackend, MatmulElement, MatmulOperand, MatmulPlan};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: these are the C++ functions of kernels/host_launch.cpp, with the
// same signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_matmul_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const MatmulArgs,
    ) -> i32;
    fn shaped_host_matmul_args_layout(out: *mut u64);
}

#[test]
fn matmul_args_layout_matches_the_kernels() {
    let mut c = [0u64; 7];
    // SAFETY: the function writes 7 values.
    unsafe { shaped_host_matmul_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<MatmulArgs>(),
        offset_of!(MatmulArgs, m),
        offset_of!(MatmulArgs, b_cols),
        offset_of!(MatmulArgs, batch),
        offset_of!(MatmulArgs, b_batch),
        offset_of!(MatmulArgs, count),
        offset_of!(MatmulArgs, batch_rank),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// An operand: buffer length, sizes, strides, offset.
type Layout = (usize, &'static [usize], &'static [usize], usize);

/// Operand pairs of every kind of product.
const CASES: [(Layout, Layout); 13] = [
    ((35, &[5, 7], &[7, 1], 0), (63, &[7, 9], &[9, 1], 0)),
    ((660, &[33, 20], &[20, 1], 0), (340, &[20, 17], &[17, 1], 0)),
    ((24, &[6, 4], &[1, 6], 0), (20, &[4, 5], &[1, 4], 0)),
    ((80, &[2, 40], &[40, 1], 0), (120, &[40, 3], &[3, 1], 0)),
    ((14, &[7], &[2], 0), (7, &[7], &[1], 0)),
    ((63, &[9, 7], &[7, 1], 0), (7, &[7], &[1], 0)),
    ((7, &[7], &[1], 0), (21, &[7, 3], &[3, 1], 0)),
    (
        (60, &[3, 4, 5], &[20, 5, 1], 0),
        (90, &[3, 5, 6], &[30, 6, 1], 0),
    ),
    (
        (40, &[2, 1, 4, 5], &[20, 20, 5, 1], 0),
        (30, &[3, 5, 2], &[10, 2, 1], 0),
    ),
    ((60, &[4, 3, 5], &[15, 5, 1], 0), (10, &[5, 2], &[2, 1], 0)),
    ((0, &[3, 0], &[0, 1], 0), (0, &[0, 4], &[4, 1], 0)),
    ((0, &[0, 3], &[3, 1], 0), (12, &[3, 4], &[4, 1], 0)),
    ((103, &[6, 5], &[12, 2], 3), (40, &[5, 4], &[8, 1], 2)),
];

/// The host address of `data[offset]`.
fn element_address<T: Element>(data: &[T], offset: usize) -> u64 {
    data.as_ptr() as u64 + (offset * size_of::<T>()) as u64
}

fn check<T: Sample + MatmulElement + Close>(tol: f64) {
    for ((la, sa, ta, oa), (lb, sb, tb, ob)) in CASES {
        let mut a = data::<T>(la, 1);
        let mut b = data::<T>(lb, 4);
        let operand = |sizes, strides| MatmulOperand { sizes, strides };
        let plan = MatmulPlan::new(operand(sa, ta), operand(sb, tb)).unwrap();
        let a_ref = StridedRef {
            ptr: CpuPtr::from_mut(&mut a),
            sizes: sa,
            strides: ta,
            offset: oa,
        };
        let b_ref = StridedRef {
            ptr: CpuPtr::from_mut(&mut b),
            sizes: sb,
            strides: tb,
            offset: ob,
        };
        let want = Cpu::matmul_buffer(&plan, a_ref, b_ref).unwrap();
        // The output starts as ones: an element the kernel leaves alone
        // shows (k = 0 must write zeros).
        let mut got = vec![T::ONE; want.as_slice().len()];
        let args = matmul_args(
            &plan,
            element_address(&a, oa),
            element_address(&b, ob),
            got.as_mut_ptr() as u64,
        )
        .unwrap();
        if let Some(args) = args {
            let name = CString::new(kernel_name(T::DTYPE)).unwrap();
            // SAFETY: `name` is a C string; the arguments mirror the
            // kernel's (`matmul_args_layout_matches_the_kernels`) and come
            // from the plan of these operands, whose indices lie in `a` and
            // `b`; `got` holds the product's `count * m * n` elements.
            let status = unsafe {
                shaped_host_matmul_launch(name.as_ptr(), args.grid(3), MATMUL_BLOCK, &args)
            };
            assert_eq!(status, 0, "the product kernel ran on the host");
        }
        let agree = got
            .iter()
            .zip(want.as_slice())
            .all(|(&g, &w)| T::close(g, w, tol));
        assert!(
            agree,
            "{:?}: {sa:?} (strides {ta:?}) times {sb:?} (strides {tb:?}):\nhost kernel {got:?}\nCPU {:?}",
            T::DTYPE,
            want.as_slice()
        );
    }
}

#[test]
fn products_of_every_dtype() {
    check::<f32>(2e-5);
    check::<f64>(1e-13);
    check::<f16>(2e-3);
    check::<bf16>(1e-2);
    check::<Complex<f32>>(2e-5);
    check::<Complex<f64>>(1e-13);
    check::<u8>(0.0);
    check::<i8>(0.0);
    check::<i16>(0.0);
    check::<i32>(0.0);
    check::<i64>(0.0);
}
