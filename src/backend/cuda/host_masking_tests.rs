//! The compaction kernels (`kernels/indexing.cuh`) compiled for the host,
//! the threads of a block as fibers that meet at each `__syncthreads`,
//! against the CPU backend's `nonzero`, `masked_select` and
//! `masked_scatter`: transposed, stepped and broadcast layouts, ranks 0 to
//! 3, every dtype, chunks of several rounds (few chunks) and of one (many).

use super::host_tests::{Sample, data};
use super::launch::Operand;
use super::masking::{CompactArgs, CompactLaunch, Mode, plan_compact};
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, Masking, StridedMut, StridedRef};
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: the C++ functions of kernels/host_launch.cpp, with the same
// signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_compact_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const CompactArgs,
    ) -> i32;
    fn shaped_host_compact_args_layout(out: *mut u64);
}

#[test]
fn compact_args_layout_matches_the_kernels() {
    let mut c = [0u64; 12];
    // SAFETY: the function writes 12 values.
    unsafe { shaped_host_compact_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<CompactArgs>(),
        offset_of!(CompactArgs, sizes),
        offset_of!(CompactArgs, flag),
        offset_of!(CompactArgs, data),
        offset_of!(CompactArgs, source),
        offset_of!(CompactArgs, chunk),
        offset_of!(CompactArgs, counts),
        offset_of!(CompactArgs, out),
        offset_of!(CompactArgs, total),
        offset_of!(CompactArgs, rank),
        offset_of!(CompactArgs, pass),
        offset_of!(CompactArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// Runs a planned compaction as the device does: the count pass, the
/// starts, the write pass (with `out`, if any). The total.
fn run(mut launch: CompactLaunch, out: Option<u64>) -> u64 {
    let mut counts = vec![u64::MAX; launch.chunks as usize];
    launch.args.counts = counts.as_mut_ptr() as u64;
    let name = CString::new(launch.kernel.as_str()).unwrap();
    // Two blocks: the loop over chunks goes round.
    let grid = launch.grid(2);
    // SAFETY: `name` is a C string; the arguments mirror the kernel's
    // (`compact_args_layout_matches_the_kernels`); the operands' layouts
    // lie inside their buffers and `counts` has a word per chunk.
    let status = unsafe { shaped_host_compact_launch(name.as_ptr(), grid, 256, &launch.args) };
    assert_eq!(status, 0, "{} (count pass) ran on the host", launch.kernel);
    let total = CompactLaunch::starts(&mut counts);
    launch.args.pass = 1;
    launch.args.total = total;
    launch.args.out = out.unwrap_or(0);
    // SAFETY: as above; `out` (or the target) has room for `total`.
    let status = unsafe { shaped_host_compact_launch(name.as_ptr(), grid, 256, &launch.args) };
    assert_eq!(status, 0, "{} (write pass) ran on the host", launch.kernel);
    total
}

/// A layout over a buffer: sizes, strides, offset.
struct Layout {
    sizes: &'static [usize],
    strides: &'static [usize],
    offset: usize,
    len: usize,
}

const LAYOUTS: &[Layout] = &[
    // rank 0
    Layout {
        sizes: &[],
        strides: &[],
        offset: 3,
        len: 4,
    },
    // a contiguous vector, longer than a round of 256 positions
    Layout {
        sizes: &[700],
        strides: &[1],
        offset: 0,
        len: 700,
    },
    // a transposed matrix of several write rounds (2048 positions each)
    // per chunk, the last one partial
    Layout {
        sizes: &[70, 130],
        strides: &[1, 70],
        offset: 2,
        len: 2 + 70 * 130,
    },
    // a transposed matrix at an offset
    Layout {
        sizes: &[23, 31],
        strides: &[1, 23],
        offset: 5,
        len: 5 + 23 * 31,
    },
    // stepped, rank 3, with a stretched dimension
    Layout {
        sizes: &[3, 5, 40],
        strides: &[90, 0, 2],
        offset: 1,
        len: 1 + 2 * 90 + 39 * 2 + 1,
    },
    // empty
    Layout {
        sizes: &[4, 0],
        strides: &[1, 4],
        offset: 0,
        len: 4,
    },
];

fn operand<T>(buffer: &[T], l: &Layout) -> Operand<'static> {
    Operand {
        addr: buffer.as_ptr() as u64,
        offset: l.offset,
        strides: l.strides,
    }
}

fn cpu_ref<T: crate::dtype::Element>(buffer: &mut [T], l: &Layout) -> StridedRef<'static, T, Cpu> {
    StridedRef {
        ptr: CpuPtr::from_mut(buffer),
        sizes: l.sizes,
        strides: l.strides,
        offset: l.offset,
    }
}

/// Values with zeros at two positions in three (`nonzero` has some of
/// each), or a mask of the same pattern.
fn sparse<T: Sample>(len: usize) -> Vec<T> {
    let mut v = data::<T>(len, 1);
    for (i, x) in v.iter_mut().enumerate() {
        if i % 3 != 1 {
            *x = T::ZERO;
        } else if *x == T::ZERO {
            *x = T::ONE;
        }
    }
    v
}

fn check<T: Sample>() {
    for (k, l) in LAYOUTS.iter().enumerate() {
        for chunks in [2, 4096] {
            // nonzero
            let mut x = sparse::<T>(l.len);
            let (want, count) = Cpu::nonzero(cpu_ref(&mut x, l)).unwrap();
            let plan = plan_compact(
                T::DTYPE,
                Mode::Nonzero,
                chunks,
                l.sizes,
                operand(&x, l),
                None,
                None,
            )
            .unwrap();
            match plan {
                None => assert_eq!(count, 0, "layout {k}"),
                Some(launch) => {
                    let mut out = vec![-1i64; count * l.sizes.len()];
                    let total = run(launch, Some(out.as_mut_ptr() as u64));
                    assert_eq!(total as usize, count, "layout {k} of {:?}", T::DTYPE);
                    assert_eq!(out, want.as_slice(), "layout {k} of {:?}", T::DTYPE);
                }
            }
            // masked_select with a mask of the layout over data of another
            let mut mask = sparse::<bool>(l.len);
            let mut src = data::<T>(l.len, 5);
            let want =
                Cpu::masked_select(l.sizes, cpu_ref(&mut src, l), cpu_ref(&mut mask, l)).unwrap();
            let plan = plan_compact(
                T::DTYPE,
                Mode::Select,
                chunks,
                l.sizes,
                operand(&mask, l),
                Some(operand(&src, l)),
                None,
            )
            .unwrap();
            if let Some(launch) = plan {
                let mut out = vec![T::ONE; want.as_slice().len()];
                let total = run(launch, Some(out.as_mut_ptr() as u64));
                assert_eq!(total as usize, out.len(), "layout {k}");
                #[allow(clippy::eq_op)]
                let same = out
                    .iter()
                    .zip(want.as_slice())
                    .all(|(a, b)| a == b || (a != a && b != b));
                assert!(same, "layout {k} of {:?}: masked_select", T::DTYPE);
            }
            // masked_scatter into a target of the layout (its stretched
            // dimension would write one element twice: a contiguous
            // target of the same sizes instead)
            let sizes = l.sizes;
            let strides = super::host_tests::contiguous(sizes);
            let n: usize = sizes.iter().product();
            let mut target = data::<T>(n.max(1), 9);
            let mut expected = target.clone();
            let mut source = data::<T>(n + 3, 13);
            let mask_ref = cpu_ref(&mut mask, l);
            let source_ref = StridedRef {
                ptr: CpuPtr::from_mut(&mut source),
                sizes: &[n + 3][..],
                strides: &[1][..],
                offset: 2,
            };
            Cpu::masked_scatter(
                StridedMut {
                    ptr: CpuPtr::from_mut(&mut expected),
                    sizes,
                    strides: &strides,
                    offset: 0,
                },
                mask_ref,
                source_ref,
            )
            .unwrap();
            let plan = plan_compact(
                T::DTYPE,
                Mode::Scatter,
                chunks,
                sizes,
                operand(&mask, l),
                Some(Operand {
                    addr: target.as_mut_ptr() as u64,
                    offset: 0,
                    strides: &strides,
                }),
                Some(Operand {
                    addr: source.as_ptr() as u64,
                    offset: 2,
                    strides: &[1],
                }),
            )
            .unwrap();
            if let Some(launch) = plan {
                run(launch, None);
            }
            #[allow(clippy::eq_op)]
            let same = target
                .iter()
                .zip(&expected)
                .all(|(a, b)| a == b || (a != a && b != b));
            assert!(same, "layout {k} of {:?}: masked_scatter", T::DTYPE);
        }
    }
}

#[test]
fn compaction_kernels_match_the_cpu() {
    check::<f32>();
    check::<f64>();
    check::<f16>();
    check::<bf16>();
    check::<Complex<f32>>();
    check::<Complex<f64>>();
    check::<u8>();
    check::<i8>();
    check::<i16>();
    check::<i32>();
    check::<i64>();
    check::<bool>();
}
