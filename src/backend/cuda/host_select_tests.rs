//! The `where` kernels (`kernels/select.cuh`) compiled for the host, against
//! the CPU backend's `select`: the operand pairs of [`PAIRS`] (broadcasts,
//! transposed, offset, expanded, size 0, rank 0) with a full, an expanded and
//! a rank-0 condition, on operands of one dtype and of mixed dtypes (each
//! converted to the output's as it is loaded). Results must match exactly.

use super::host_tests::{PAIRS, Sample, Spec, contiguous, data};
use super::launch::Operand;
use super::select::{WhereArgs, WhereOperands, plan_where};
use crate::backend::Elementwise;
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, StridedRef};
use crate::dtype::Element;
use crate::ops::broadcast_strides;
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: these are the C++ functions of kernels/host_launch.cpp, with the
// same signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_where_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const WhereArgs,
    ) -> i32;
    fn shaped_host_where_args_layout(out: *mut u64);
}

#[test]
fn where_args_layout_matches_the_kernels() {
    let mut c = [0u64; 10];
    // SAFETY: the function writes 10 values.
    unsafe { shaped_host_where_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<WhereArgs>(),
        offset_of!(WhereArgs, sizes),
        offset_of!(WhereArgs, out),
        offset_of!(WhereArgs, cond),
        offset_of!(WhereArgs, a),
        offset_of!(WhereArgs, b),
        offset_of!(WhereArgs, rank),
        offset_of!(WhereArgs, b_dtype),
        offset_of!(WhereArgs, narrow),
        offset_of!(WhereArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// An operand's elements and its strides broadcast to the operation's sizes.
struct Broadcast<T> {
    data: Vec<T>,
    offset: usize,
    strides: Vec<usize>,
}

impl<T: Element> Broadcast<T> {
    fn new(data: Vec<T>, s: Spec, sizes: &[usize]) -> Self {
        let mut strides = vec![0; sizes.len()];
        broadcast_strides(s.sizes, s.strides, sizes, &mut strides);
        Broadcast {
            data,
            offset: s.offset,
            strides,
        }
    }

    fn cpu<'a>(&'a mut self, sizes: &'a [usize]) -> StridedRef<'a, T, Cpu> {
        StridedRef {
            ptr: CpuPtr::from_mut(&mut self.data),
            sizes,
            strides: &self.strides,
            offset: self.offset,
        }
    }

    fn device(&self) -> (crate::dtype::DType, Operand<'_>) {
        let operand = Operand {
            addr: self.data.as_ptr() as u64,
            offset: self.offset,
            strides: &self.strides,
        };
        (T::DTYPE, operand)
    }
}

/// The conditions of each pair: every element its own, one per row (the
/// last dimension expanded), and a rank-0 one.
fn conditions(sizes: &[usize]) -> Vec<(Vec<bool>, Vec<usize>)> {
    let numel: usize = sizes.iter().product();
    let full = (0..numel).map(|i| i % 3 != 1).collect();
    let mut per_row = contiguous(sizes);
    if let Some(last) = per_row.last_mut() {
        *last = 0;
    }
    let rows = (0..numel.max(1)).map(|i| i % 2 == 0).collect();
    vec![
        (full, contiguous(sizes)),
        (rows, per_row),
        (vec![true], vec![0; sizes.len()]),
        (vec![false], vec![0; sizes.len()]),
    ]
}

/// `where(cond, a, b)` into `U` on the host kernels and on the CPU, for
/// every pair of layouts and every condition.
fn check<A: Sample, B: Sample, U: Element>() {
    for &(sa, sb) in PAIRS {
        let (sizes, _, _) = super::host_tests::broadcast_pair(sa, sb);
        let mut a = Broadcast::new(data::<A>(sa.len, 1), sa, &sizes);
        let mut b = Broadcast::new(data::<B>(sb.len, 2), sb, &sizes);
        for (values, strides) in conditions(&sizes) {
            let mut cond = Broadcast {
                data: values,
                offset: 0,
                strides,
            };
            let want =
                Cpu::select::<A, B, U>(&sizes, cond.cpu(&sizes), a.cpu(&sizes), b.cpu(&sizes))
                    .unwrap();
            let numel: usize = sizes.iter().product();
            // The output starts as ones: an element the kernel leaves
            // alone shows.
            let mut got = vec![U::ONE; numel];
            let out_strides = contiguous(&sizes);
            let operands = WhereOperands {
                output: U::DTYPE,
                out: Operand {
                    addr: got.as_mut_ptr() as u64,
                    offset: 0,
                    strides: &out_strides,
                },
                cond: cond.device().1,
                a: a.device(),
                b: b.device(),
            };
            if let Some(launch) = plan_where(&sizes, operands).unwrap() {
                let name = CString::new(launch.kernel.as_str()).unwrap();
                // A grid of at most 3 blocks of 64 threads, so that the
                // grid-stride loop goes round.
                let grid = launch.grid(64, 3);
                // SAFETY: `name` is a C string; the arguments mirror the
                // kernel's (`where_args_layout_matches_the_kernels`); the
                // inputs hold every index of their broadcast layouts and
                // the output `numel` elements of `U`.
                let status =
                    unsafe { shaped_host_where_launch(name.as_ptr(), grid, 64, &launch.args) };
                assert_eq!(status, 0, "{} ran on the host", launch.kernel);
            }
            #[allow(clippy::eq_op)]
            let same = got.len() == want.len()
                && got
                    .iter()
                    .zip(want.as_slice())
                    .all(|(x, y)| x == y || (x != x && y != y));
            assert!(
                same,
                "where into {:?} of {:?} and {:?} over {sizes:?}, condition strides {:?}:\nhost kernel {got:?}\nCPU {:?}",
                U::DTYPE,
                A::DTYPE,
                B::DTYPE,
                cond.strides,
                want.as_slice()
            );
        }
    }
}

#[test]
fn where_of_one_dtype() {
    check::<f32, f32, f32>();
    check::<f64, f64, f64>();
    check::<f16, f16, f16>();
    check::<bf16, bf16, bf16>();
    check::<Complex<f32>, Complex<f32>, Complex<f32>>();
    check::<Complex<f64>, Complex<f64>, Complex<f64>>();
    check::<u8, u8, u8>();
    check::<i8, i8, i8>();
    check::<i16, i16, i16>();
    check::<i32, i32, i32>();
    check::<i64, i64, i64>();
    check::<bool, bool, bool>();
}

#[test]
fn where_of_mixed_dtypes() {
    // Each into the pair's common type, as `where_` asks.
    check::<i32, f64, f64>();
    check::<u8, bool, u8>();
    check::<f16, bf16, f32>();
    check::<Complex<f32>, f64, Complex<f64>>();
    check::<i8, u8, i16>();
    check::<i64, f16, f16>();
    check::<bool, Complex<f64>, Complex<f64>>();
}
