//! The sort kernels (`kernels/sort.cuh`) compiled for the host, the threads
//! of a block as fibers that meet at each `__syncthreads`, against the CPU
//! backend, bit for bit: every sortable dtype, both directions, ties (the
//! samples repeat), NaNs of both signs and a payload, both zeros, extremes;
//! lines shorter than a tile (many to a tile), of one tile, and longer
//! (several merge launches); lines along the last dim, another dim and a
//! transposed view; empty inputs; `topk` with k = 0, 1, some and n.

use super::host_tests::{Sample, data};
use super::sort::{
    BLOCK, MERGE, SortArgs, SortPlan, TILES, WRITE, item_bytes, kernel_name, plan_sort,
};
use crate::backend::cpu::CpuPtr;
use crate::backend::cpu::sort::SortKey;
use crate::backend::{Cpu, Sorting, StridedRef};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use std::ffi::CString;

// SAFETY: the C++ functions of kernels/host_launch.cpp, with the same
// signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    pub(super) fn shaped_host_sort_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const SortArgs,
    ) -> i32;
    fn shaped_host_sort_args_layout(out: *mut u64);
}

#[test]
fn sort_args_layout_matches_the_kernels() {
    let mut c = [0u64; 13];
    // SAFETY: the function writes 13 values.
    unsafe { shaped_host_sort_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<SortArgs>(),
        offset_of!(SortArgs, x),
        offset_of!(SortArgs, from),
        offset_of!(SortArgs, values),
        offset_of!(SortArgs, lines),
        offset_of!(SortArgs, width),
        offset_of!(SortArgs, k),
        offset_of!(SortArgs, descending),
        offset_of!(SortArgs, phase),
        offset_of!(SortArgs, q),
        offset_of!(SortArgs, place),
        offset_of!(SortArgs, statistic),
        offset_of!(SortArgs, ignore_nan),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

#[test]
fn plans_tile_then_merge_then_write() {
    let phases = |p: &SortPlan| {
        p.steps
            .iter()
            .map(|s| (s.phase, s.width))
            .collect::<Vec<_>>()
    };
    // One line of 5000: a tile of 2048, runs of 2048 and 4096 merged.
    let p = plan_sort(1, 5000, 5000, false, 4).unwrap();
    assert_eq!(
        phases(&p),
        [(TILES, 2048), (MERGE, 2048), (MERGE, 4096), (WRITE, 0)]
    );
    assert_eq!(p.buffers, 2);
    assert_eq!(p.steps[2].from, 1);
    assert_eq!(p.steps[3].from, 0);
    // Short lines share tiles, in segments of a power of two: one launch
    // sorts them.
    let p = plan_sort(700, 5, 2, true, 4).unwrap();
    assert_eq!(phases(&p), [(TILES, 8), (WRITE, 0)]);
    assert_eq!(p.buffers, 1);
    assert_eq!(p.steps[0].grid, 3); // 700 segments of 8, 256 to a tile
    assert!(plan_sort(0, 5, 5, false, 4).is_none());
    assert!(plan_sort(3, 0, 0, false, 4).is_none());
    assert!(plan_sort(3, 5, 0, false, 4).is_none());
}

/// Sortable samples with the edge values: NaNs (a payload, a negative
/// one), both zeros, infinities; the integers' extremes.
pub(super) trait SortSample: SortKey + Sample {
    fn special(i: usize) -> Self {
        Self::sample(i)
    }
    /// The element's bits, to compare results exactly.
    fn bits(self) -> u64;
}
macro_rules! int_samples {
    ($($t:ty),*) => {$(
        impl SortSample for $t {
            fn special(i: usize) -> Self {
                match i % 13 {
                    0 => <$t>::MIN,
                    1 => <$t>::MAX,
                    _ => Self::sample(i),
                }
            }
            fn bits(self) -> u64 {
                self as u64
            }
        }
    )*};
}
int_samples!(u8, i8, i16, i32, i64);
impl SortSample for bool {
    fn bits(self) -> u64 {
        u64::from(self)
    }
}
macro_rules! float_samples {
    ($($t:ty => $b:ty, $nan:expr, $neg_nan:expr;)*) => {$(
        impl SortSample for $t {
            fn special(i: usize) -> Self {
                match i % 11 {
                    0 => <$t>::from_bits($nan),
                    1 => -<$t>::from_bits(0),
                    2 => <$t>::from_bits(0),
                    3 => <$t>::from_bits($neg_nan),
                    4 => <$t>::INFINITY,
                    5 => <$t>::NEG_INFINITY,
                    _ => Self::sample(i),
                }
            }
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
        }
    )*};
}
float_samples! {
    f32 => u32, 0x7fc0_1234, 0xffc0_0000;
    f64 => u64, 0x7ff8_0000_0000_1234, 0xfff8_0000_0000_0000;
    f16 => u16, 0x7e12, 0xfe00;
    bf16 => u16, 0x7fc1, 0xffc0;
}

/// An input: sizes, the strides of its buffer, the sorted dim.
pub(super) struct Case {
    pub(super) sizes: &'static [usize],
    /// The order of the dims in memory, outermost first (a permutation:
    /// `[0, 1]` row-major, `[1, 0]` transposed).
    pub(super) order: &'static [usize],
    pub(super) dim: usize,
}

pub(super) const CASES: [Case; 12] = [
    // Several merge launches.
    Case {
        sizes: &[5000],
        order: &[0],
        dim: 0,
    },
    Case {
        sizes: &[3, 2100],
        order: &[0, 1],
        dim: 1,
    },
    // One tile exactly; a line one longer.
    Case {
        sizes: &[2, 2048],
        order: &[0, 1],
        dim: 1,
    },
    Case {
        sizes: &[2049],
        order: &[0],
        dim: 0,
    },
    // Columns, and a transposed view.
    Case {
        sizes: &[2100, 3],
        order: &[0, 1],
        dim: 0,
    },
    Case {
        sizes: &[6, 300],
        order: &[1, 0],
        dim: 1,
    },
    // Many short lines to a tile.
    Case {
        sizes: &[700, 5],
        order: &[0, 1],
        dim: 1,
    },
    Case {
        sizes: &[4, 33, 5],
        order: &[0, 1, 2],
        dim: 1,
    },
    Case {
        sizes: &[3, 40, 7],
        order: &[2, 0, 1],
        dim: 2,
    },
    Case {
        sizes: &[5, 1],
        order: &[0, 1],
        dim: 1,
    },
    // Empty.
    Case {
        sizes: &[3, 0],
        order: &[0, 1],
        dim: 1,
    },
    Case {
        sizes: &[0, 4],
        order: &[0, 1],
        dim: 1,
    },
];

/// The strides of `sizes` laid out in memory in `order` (outermost first).
pub(super) fn strides_in_order(sizes: &[usize], order: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    let mut step = 1;
    for &d in order.iter().rev() {
        strides[d] = step;
        step *= sizes[d].max(1);
    }
    strides
}

/// The elements of the view, row-major with `dim` moved last: what the
/// device reads after its copy of other layouts.
pub(super) fn dim_last<T: Copy>(
    buf: &[T],
    sizes: &[usize],
    strides: &[usize],
    dim: usize,
) -> Vec<T> {
    let mut s: Vec<usize> = sizes.to_vec();
    let mut t: Vec<usize> = strides.to_vec();
    let (n, stride) = (s.remove(dim), t.remove(dim));
    s.push(n);
    t.push(stride);
    let total: usize = s.iter().product();
    let mut out = Vec::with_capacity(total);
    let mut index = vec![0usize; s.len()];
    for _ in 0..total {
        out.push(buf[index.iter().zip(&t).map(|(i, st)| i * st).sum::<usize>()]);
        for d in (0..s.len()).rev() {
            index[d] += 1;
            if index[d] < s[d] {
                break;
            }
            index[d] = 0;
        }
    }
    out
}

/// The first `k` of each sorted line of the dense `x` on the host kernels
/// (`k` None: the whole line), with a grid of at most 3 blocks so that
/// the loops over tiles and items go round.
fn run<T: SortKey>(x: &[T], n: usize, k: Option<usize>, descending: bool) -> (Vec<T>, Vec<i64>) {
    let lines = x.len().checked_div(n).unwrap_or(0);
    let k = k.unwrap_or(n);
    let mut values = vec![T::ZERO; lines * k];
    let mut indices = vec![-1i64; lines * k];
    let Some(plan) = plan_sort(lines as u64, n as u64, k as u64, descending, 2) else {
        return (values, indices);
    };
    let words = x.len() * item_bytes(T::DTYPE) / 8;
    let mut items = [vec![0u64; words], vec![0u64; words]];
    let addrs = [items[0].as_mut_ptr() as u64, items[1].as_mut_ptr() as u64];
    let kernel = kernel_name(T::DTYPE);
    let name = CString::new(kernel.as_str()).unwrap();
    for step in &plan.steps {
        let args = plan.args_of(
            step,
            x.as_ptr() as u64,
            addrs,
            values.as_mut_ptr() as u64,
            indices.as_mut_ptr() as u64,
        );
        // SAFETY: `name` is a C string; the arguments mirror the kernel's
        // (`sort_args_layout_matches_the_kernels`); the input holds
        // `lines * n` elements, each item buffer `lines * n` items, the
        // outputs `lines * k` elements.
        let status =
            unsafe { shaped_host_sort_launch(name.as_ptr(), step.grid.min(3), BLOCK, &args) };
        assert_eq!(status, 0, "{kernel} ({step:?}) ran on the host");
    }
    (values, indices)
}

pub(super) fn bits_of<T: SortSample>(v: &[T]) -> Vec<u64> {
    v.iter().map(|&x| x.bits()).collect()
}

fn check_sorts<T: SortSample>() {
    for case in &CASES {
        let (sizes, dim) = (case.sizes, case.dim);
        let numel: usize = sizes.iter().product();
        let strides = strides_in_order(sizes, case.order);
        for special in [false, true] {
            let mut buf: Vec<T> = match special {
                true => (0..numel).map(|i| T::special(i * 7 + 3)).collect(),
                false => data(numel, 5),
            };
            let dense = dim_last(&buf, sizes, &strides, dim);
            for descending in [false, true] {
                let view = StridedRef::<T, Cpu> {
                    ptr: CpuPtr::from_mut(&mut buf),
                    sizes,
                    strides: &strides,
                    offset: 0,
                };
                let (values, indices) = Cpu::sort(view, dim, descending, true).unwrap();
                let values = values.unwrap();
                let (got, got_indices) = run(&dense, sizes[dim], None, descending);
                let what = format!(
                    "sort of {} {sizes:?} (order {:?}) along {dim}, descending {descending}",
                    T::DTYPE,
                    case.order
                );
                assert_eq!(got_indices, indices.as_slice(), "{what}: indices");
                assert_eq!(bits_of(&got), bits_of(values.as_slice()), "{what}: values");
            }
        }
    }
}

fn check_topk<T: SortSample>() {
    for case in &CASES {
        let (sizes, dim) = (case.sizes, case.dim);
        let n = sizes[dim];
        let numel: usize = sizes.iter().product();
        let strides = strides_in_order(sizes, case.order);
        let mut buf: Vec<T> = (0..numel).map(|i| T::special(i * 5 + 1)).collect();
        let dense = dim_last(&buf, sizes, &strides, dim);
        let mut ks = vec![0, 1, n / 3, n];
        ks.retain(|&k| k <= n);
        for k in ks {
            for largest in [false, true] {
                let view = StridedRef::<T, Cpu> {
                    ptr: CpuPtr::from_mut(&mut buf),
                    sizes,
                    strides: &strides,
                    offset: 0,
                };
                let (values, indices) = Cpu::topk(view, k, dim, largest).unwrap();
                let (got, got_indices) = run(&dense, n, Some(k), largest);
                let what = format!(
                    "topk({k}) of {} {sizes:?} along {dim}, largest {largest}",
                    T::DTYPE
                );
                assert_eq!(got_indices, indices.as_slice(), "{what}: indices");
                assert_eq!(bits_of(&got), bits_of(values.as_slice()), "{what}: values");
            }
        }
    }
}

#[test]
fn host_kernels_sort_floats_as_the_cpu() {
    check_sorts::<f32>();
    check_sorts::<f64>();
    check_sorts::<f16>();
    check_sorts::<bf16>();
}

#[test]
fn host_kernels_sort_integers_and_bool_as_the_cpu() {
    check_sorts::<u8>();
    check_sorts::<i8>();
    check_sorts::<i16>();
    check_sorts::<i32>();
    check_sorts::<i64>();
    check_sorts::<bool>();
}

#[test]
fn host_kernels_topk_as_the_cpu() {
    check_topk::<f32>();
    check_topk::<f64>();
    check_topk::<f16>();
    check_topk::<bf16>();
    check_topk::<u8>();
    check_topk::<i8>();
    check_topk::<i16>();
    check_topk::<i32>();
    check_topk::<i64>();
    check_topk::<bool>();
}

#[test]
fn host_kernels_sort_long_lines_through_many_merges() {
    // 9 merge launches (runs of 2048 up to 2^19), many equal keys.
    let n = 600_000;
    let x: Vec<i32> = (0..n).map(|i| ((i * 7919) % 1013) as i32 - 500).collect();
    let mut want: Vec<(i32, i64)> = x.iter().copied().zip(0..).collect();
    want.sort_by_key(|p| core::cmp::Reverse(p.0));
    let (values, indices) = run(&x, n, None, true);
    let got: Vec<(i32, i64)> = values.into_iter().zip(indices).collect();
    assert_eq!(got, want);
    // topk merges only the first k of each run.
    for k in [1, 10, 2047, 2049, 5000] {
        let (values, indices) = run(&x, n, Some(k), true);
        let got: Vec<(i32, i64)> = values.into_iter().zip(indices).collect();
        assert_eq!(got, want[..k], "topk({k})");
    }
}
