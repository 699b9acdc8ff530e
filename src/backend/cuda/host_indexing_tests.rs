//! The gather kernels (`kernels/indexing.cuh`) compiled for the host,
//! against the CPU backend's `gather`: the layouts `index_select`, `gather`,
//! `take` and `take_along_dim` give the kernel (rows and columns, a
//! transposed source, offsets, a stretched index), with int64 and int32
//! indices and every wrap, including indices outside: the kernel must
//! report the first bad position in row-major order, as the CPU does, and
//! `check_indices`' mode must write nothing.

use super::host_tests::{Sample, contiguous, data};
use super::indexing::{GatherArgs, GatherOperands, plan_gather};
use super::launch::Operand;
use crate::backend::cpu::CpuPtr;
use crate::backend::{Cpu, GatherFault, GatherSource, IndexWrap, Indexing, StridedRef};
use crate::dtype::IndexElement;
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use num_complex::Complex;
use std::ffi::CString;

// SAFETY: these are the C++ functions of kernels/host_launch.cpp, with the
// same signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_gather_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const GatherArgs,
    ) -> i32;
    fn shaped_host_gather_args_layout(out: *mut u64);
}

#[test]
fn gather_args_layout_matches_the_kernels() {
    let mut c = [0u64; 11];
    // SAFETY: the function writes 11 values.
    unsafe { shaped_host_gather_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<GatherArgs>(),
        offset_of!(GatherArgs, sizes),
        offset_of!(GatherArgs, out),
        offset_of!(GatherArgs, src),
        offset_of!(GatherArgs, index),
        offset_of!(GatherArgs, dim_stride),
        offset_of!(GatherArgs, fault),
        offset_of!(GatherArgs, rank),
        offset_of!(GatherArgs, index_dtype),
        offset_of!(GatherArgs, vec),
        offset_of!(GatherArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// One gather as the front-end hands it to a device: the output's sizes,
/// the source's strides over them (0 along the gathered dimension), its
/// offset, the gathered dimension's stride and length, the index's values,
/// strides over the sizes and offset, and the wrap.
struct Case {
    sizes: &'static [usize],
    src_len: usize,
    src_strides: &'static [usize],
    src_offset: usize,
    dim_stride: usize,
    dim_len: usize,
    index: &'static [i64],
    index_strides: &'static [usize],
    index_offset: usize,
    wrap: IndexWrap,
}

const CASES: &[Case] = &[
    // index_select of rows 4, 0, 2, 2 of a (5, 3) matrix.
    Case {
        sizes: &[4, 3],
        src_len: 15,
        src_strides: &[0, 1],
        src_offset: 0,
        dim_stride: 3,
        dim_len: 5,
        index: &[4, 0, 2, 2],
        index_strides: &[1, 0],
        index_offset: 0,
        wrap: IndexWrap::Never,
    },
    // index_select of columns of a transposed (3, 5) view at an offset.
    Case {
        sizes: &[3, 4],
        src_len: 17,
        src_strides: &[1, 0],
        src_offset: 2,
        dim_stride: 3,
        dim_len: 5,
        index: &[0, 4, 1, 3],
        index_strides: &[0, 1],
        index_offset: 0,
        wrap: IndexWrap::Never,
    },
    // gather along dim 1 of a (3, 4) matrix with a (3, 2) index at an offset.
    Case {
        sizes: &[3, 2],
        src_len: 12,
        src_strides: &[4, 0],
        src_offset: 0,
        dim_stride: 1,
        dim_len: 4,
        index: &[9, 3, 0, 1, 1, 2, 3],
        index_strides: &[2, 1],
        index_offset: 1,
        wrap: IndexWrap::Never,
    },
    // take: a (2, 3) index into 12 elements, from the end too.
    Case {
        sizes: &[2, 3],
        src_len: 12,
        src_strides: &[0, 0],
        src_offset: 0,
        dim_stride: 1,
        dim_len: 12,
        index: &[-1, 0, 11, -12, 5, 6],
        index_strides: &[3, 1],
        index_offset: 0,
        wrap: IndexWrap::FromEnd,
    },
    // take_along_dim: a (1, 3) index stretched over 4 rows, modulo 5.
    Case {
        sizes: &[4, 3],
        src_len: 20,
        src_strides: &[5, 0],
        src_offset: 0,
        dim_stride: 1,
        dim_len: 5,
        index: &[-1, 7, i64::MIN],
        index_strides: &[0, 1],
        index_offset: 0,
        wrap: IndexWrap::Modulo,
    },
    // index_select of rows of 16 elements (a (5, 16) source): each index
    // names a contiguous run, which the kernel moves 16 bytes at a time
    // where the buffers are aligned (`runs`); from the end too.
    Case {
        sizes: &[4, 16],
        src_len: 80,
        src_strides: &[0, 1],
        src_offset: 0,
        dim_stride: 16,
        dim_len: 5,
        index: &[4, 0, -2, 2],
        index_strides: &[1, 0],
        index_offset: 0,
        wrap: IndexWrap::FromEnd,
    },
    // The same with a bad row: the run's first position is reported.
    Case {
        sizes: &[4, 16],
        src_len: 80,
        src_strides: &[0, 1],
        src_offset: 0,
        dim_stride: 16,
        dim_len: 5,
        index: &[1, 7, 2, 9],
        index_strides: &[1, 0],
        index_offset: 0,
        wrap: IndexWrap::Never,
    },
    // Bad indices: the first in row-major order is reported (position 2,
    // the value -1), not the later 7 nor the larger one before it in memory.
    Case {
        sizes: &[2, 3],
        src_len: 6,
        src_strides: &[3, 0],
        src_offset: 0,
        dim_stride: 1,
        dim_len: 3,
        index: &[0, 1, -1, 7, 2, 0],
        index_strides: &[3, 1],
        index_offset: 0,
        wrap: IndexWrap::Never,
    },
    Case {
        sizes: &[2, 3],
        src_len: 6,
        src_strides: &[3, 0],
        src_offset: 0,
        dim_stride: 1,
        dim_len: 3,
        index: &[0, -5, 1, 2, i64::MAX, 0],
        index_strides: &[1, 2],
        index_offset: 0,
        wrap: IndexWrap::FromEnd,
    },
];

/// The case on the CPU backend.
fn on_cpu<T: Sample, I: IndexElement>(
    c: &Case,
    src: &mut [T],
    index: &mut [I],
) -> Result<Vec<T>, GatherFault> {
    let source = GatherSource {
        elements: StridedRef {
            ptr: CpuPtr::from_mut(src),
            sizes: c.sizes,
            strides: c.src_strides,
            offset: c.src_offset,
        },
        dim_stride: c.dim_stride,
        dim_len: c.dim_len,
    };
    let index = StridedRef {
        ptr: CpuPtr::from_mut(index),
        sizes: c.sizes,
        strides: c.index_strides,
        offset: c.index_offset,
    };
    Cpu::gather(c.sizes, source, index, c.wrap).map(|b| b.as_slice().to_vec())
}

/// The case on the host kernels, into `out` (or checking only): the bad
/// index first met in row-major order, if any, and the elements each
/// thread moved at once (`GatherArgs::vec`).
fn on_host<T: Sample, I: IndexElement>(
    c: &Case,
    src: &[T],
    index: &[I],
    out: Option<&mut [T]>,
    walk: Walk,
) -> (Option<i64>, i32) {
    let mut fault = u64::MAX;
    let out_strides = contiguous(c.sizes);
    let x = GatherOperands {
        element: T::DTYPE,
        out: out.map(|o| Operand {
            addr: o.as_mut_ptr() as u64,
            offset: 0,
            strides: &out_strides,
        }),
        src: Operand {
            addr: src.as_ptr() as u64,
            offset: c.src_offset,
            strides: c.src_strides,
        },
        dim_stride: c.dim_stride,
        dim_len: c.dim_len,
        index: (
            I::DTYPE,
            Operand {
                addr: index.as_ptr() as u64,
                offset: c.index_offset,
                strides: c.index_strides,
            },
        ),
        wrap: c.wrap,
        fault: &mut fault as *mut u64 as u64,
    };
    let mut launch = plan_gather(c.sizes, x).unwrap().expect("elements");
    assert_eq!(launch.args.narrow, 1, "small cases walk in 32 bits");
    if walk == Walk::Wide {
        launch.args.narrow = 0;
    }
    let name = CString::new(launch.kernel.as_str()).unwrap();
    // At most 2 blocks of 4 threads: the grid-stride loop goes round.
    let grid = launch.grid(4, 2);
    // SAFETY: `name` is a C string; the arguments mirror the kernel's
    // (`gather_args_layout_matches_the_kernels`); the source and index hold
    // every index of their layouts, the output `numel` elements, and the
    // fault word is a live `u64`.
    let status = unsafe { shaped_host_gather_launch(name.as_ptr(), grid, 4, &launch.args) };
    assert_eq!(status, 0, "{} ran on the host", launch.kernel);
    let fault = (fault != u64::MAX).then(|| index[launch.index_at(fault)].to_index());
    (fault, launch.args.vec)
}

/// Which offset arithmetic the kernel takes: as planned (32 bits, for these
/// small cases), or 64 bits as for the largest tensors.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Walk {
    Planned,
    Wide,
}

/// `len` elements of `buffer` from its first 16-byte aligned one (or its
/// first, where none is), so that the kernels' vector path may run.
fn aligned<T>(buffer: &mut [T], len: usize) -> &mut [T] {
    let start = buffer.as_ptr().align_offset(16);
    let start = if start + len <= buffer.len() {
        start
    } else {
        0
    };
    &mut buffer[start..start + len]
}

fn check<T: Sample, I: IndexElement + TryFrom<i64>>() {
    for (k, c) in CASES.iter().enumerate() {
        let Ok(mut index) = c
            .index
            .iter()
            .map(|&v| I::try_from(v))
            .collect::<Result<Vec<I>, _>>()
        else {
            continue;
        };
        let mut src_buffer = data::<T>(c.src_len + 16, 3);
        let src = aligned(&mut src_buffer, c.src_len);
        let want = on_cpu(c, src, &mut index);
        let numel: usize = c.sizes.iter().product();
        let mut out_buffer = vec![T::ONE; numel + 16];
        let got = aligned(&mut out_buffer, numel);
        let (fault, vec) = on_host(c, src, &index, Some(&mut *got), Walk::Planned);
        let mut wide_buffer = vec![T::ONE; numel + 16];
        let wide = aligned(&mut wide_buffer, numel);
        let (wide_fault, _) = on_host(c, src, &index, Some(&mut *wide), Walk::Wide);
        assert_eq!(wide_fault, fault, "case {k}: 64-bit walk");
        #[allow(clippy::eq_op)]
        let same_walks = got
            .iter()
            .zip(wide.iter())
            .all(|(x, y)| x == y || (x != x && y != y));
        assert!(same_walks, "case {k} of {:?}: 64-bit walk", T::DTYPE);
        // The runs of 16 elements move as vectors wherever both buffers
        // are aligned (elements of at most 8 bytes).
        let runs = c.dim_stride == 16 && size_of::<T>() <= 8;
        let both_aligned = [src.as_ptr() as usize, got.as_ptr() as usize]
            .iter()
            .all(|a| a.is_multiple_of(16));
        let expected = if runs && both_aligned {
            16 / size_of::<T>() as i32
        } else {
            1
        };
        assert_eq!(
            vec,
            expected,
            "case {k} of {:?}: elements per thread",
            T::DTYPE
        );
        match want {
            Ok(want) => {
                assert_eq!(fault, None, "case {k}: {:?}", T::DTYPE);
                #[allow(clippy::eq_op)]
                let same = got
                    .iter()
                    .zip(&want)
                    .all(|(x, y)| x == y || (x != x && y != y));
                assert!(
                    same,
                    "case {k} of {:?}: host {got:?}, CPU {want:?}",
                    T::DTYPE
                );
            }
            Err(GatherFault::Index(bad)) => assert_eq!(fault, Some(bad), "case {k}"),
            Err(e) => panic!("case {k}: {e:?}"),
        }
        // Checking only: the same verdict, and nothing written.
        let (checked, _) = on_host::<T, I>(c, src, &index, None, Walk::Planned);
        assert_eq!(checked, fault, "case {k}, checking only");
    }
}

#[test]
fn gather_kernels_match_the_cpu() {
    check::<f32, i64>();
    check::<f64, i32>();
    check::<f16, i64>();
    check::<bf16, i32>();
    check::<Complex<f32>, i64>();
    check::<Complex<f64>, i64>();
    check::<u8, i64>();
    check::<i8, i32>();
    check::<i16, i64>();
    check::<i32, i32>();
    check::<i64, i64>();
    check::<bool, i64>();
}

// SAFETY: as above, for the scatter kernels.
unsafe extern "C" {
    fn shaped_host_scatter_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const super::indexing::ScatterArgs,
    ) -> i32;
    fn shaped_host_scatter_args_layout(out: *mut u64);
}

#[test]
fn scatter_args_layout_matches_the_kernels() {
    use super::indexing::ScatterArgs;
    let mut c = [0u64; 12];
    // SAFETY: the function writes 12 values.
    unsafe { shaped_host_scatter_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<ScatterArgs>(),
        offset_of!(ScatterArgs, sizes),
        offset_of!(ScatterArgs, out),
        offset_of!(ScatterArgs, src),
        offset_of!(ScatterArgs, index),
        offset_of!(ScatterArgs, dim_stride),
        offset_of!(ScatterArgs, value),
        offset_of!(ScatterArgs, rank),
        offset_of!(ScatterArgs, op),
        offset_of!(ScatterArgs, src_scalar),
        offset_of!(ScatterArgs, narrow),
        offset_of!(ScatterArgs, shift),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

/// One scatter on the CPU backend and on the host kernels, from the same
/// target: a (3, 4) target written along dim 1 by a (3, 5) index with
/// repeated entries (or, with `flat`, the 12 elements as one line by a
/// 5-long index with negative entries), a source or a value, combined by
/// `f`; the results must match exactly (the host runs the threads one after
/// the other, so even the atomic updates combine in index order).
fn check_scatter<T: Sample, F: crate::ops::functions::BinaryFn<T, T, T>>(
    f: F,
    value: Option<T>,
    flat: bool,
) {
    use super::indexing::{ScatterOperands, plan_scatter};
    use crate::backend::{ScatterTarget, ScatterValues, Scattering, StridedMut};
    let (sizes, target_strides, index_values, wrap, dim_stride, dim_len, dim): (
        Vec<usize>,
        Vec<usize>,
        Vec<i64>,
        _,
        _,
        _,
        _,
    ) = match flat {
        false => (
            vec![3, 5],
            vec![4, 0],
            vec![0, 3, 3, 1, 0, 2, 2, 2, 1, 3, 0, 0, 0, 0, 1],
            IndexWrap::Never,
            1,
            4,
            Some(1),
        ),
        true => (
            vec![5],
            vec![0],
            vec![-1, 0, 11, -12, 11],
            IndexWrap::FromEnd,
            1,
            12,
            None,
        ),
    };
    let index_strides = contiguous(&sizes);
    let src_strides = contiguous(&sizes);
    let n: usize = sizes.iter().product();
    let start = data::<T>(12, 5);
    let src = data::<T>(n, 9);
    let mut index = index_values.clone();
    let mut src_cpu = src.clone();
    let mut want = start.clone();
    let values = |p: CpuPtr<T>| match value {
        Some(v) => ScatterValues::Value(v),
        None => ScatterValues::Tensor(StridedRef {
            ptr: p,
            sizes: &sizes,
            strides: &src_strides,
            offset: 0,
        }),
    };
    Cpu::scatter(
        &sizes,
        ScatterTarget {
            elements: StridedMut {
                ptr: CpuPtr::from_mut(&mut want),
                sizes: &sizes,
                strides: &target_strides,
                offset: 0,
            },
            dim,
            dim_stride,
            dim_len,
        },
        values(CpuPtr::from_mut(&mut src_cpu)),
        StridedRef {
            ptr: CpuPtr::from_mut(&mut index),
            sizes: &sizes,
            strides: &index_strides,
            offset: 0,
        },
        wrap,
        f,
    )
    .unwrap();
    let mut got = start.clone();
    let op = f.kernel_op().expect("a device op").code;
    let x = ScatterOperands {
        element: T::DTYPE,
        out: Operand {
            addr: got.as_mut_ptr() as u64,
            offset: 0,
            strides: &target_strides,
        },
        dim_stride,
        dim_len,
        src: value.is_none().then(|| Operand {
            addr: src.as_ptr() as u64,
            offset: 0,
            strides: &src_strides,
        }),
        value: value.map_or([0; 2], |v| {
            super::launch::scalar_bits(v.to_scalar(), T::DTYPE)
        }),
        index: (
            crate::dtype::DType::I64,
            Operand {
                addr: index_values.as_ptr() as u64,
                offset: 0,
                strides: &index_strides,
            },
        ),
        wrap,
        op,
    };
    let launch = plan_scatter(&sizes, x).unwrap().expect("positions");
    let name = CString::new(launch.kernel.as_str()).unwrap();
    // SAFETY: `name` is a C string; the arguments mirror the kernel's
    // (`scatter_args_layout_matches_the_kernels`); the target holds 12
    // elements, the source and index `n`, and every index is in range.
    let status =
        unsafe { shaped_host_scatter_launch(name.as_ptr(), launch.grid(4), 4, &launch.args) };
    assert_eq!(status, 0, "{} ran on the host", launch.kernel);
    #[allow(clippy::eq_op)]
    let same = got
        .iter()
        .zip(&want)
        .all(|(a, b)| a == b || (a != a && b != b));
    assert!(same, "{:?} {:?}: host {got:?}, CPU {want:?}", T::DTYPE, op);
}

#[test]
fn scatter_kernels_match_the_cpu() {
    use crate::ops::functions::{Add, Mul};
    use crate::ops::indexing::scatter_assign;
    use crate::ops::math::{Maximum, Minimum};
    for flat in [false, true] {
        check_scatter::<f32, _>(Add, None, flat);
        check_scatter::<f64, _>(Add, None, flat);
        check_scatter::<f16, _>(Add, None, flat);
        check_scatter::<bf16, _>(Mul, None, flat);
        check_scatter::<Complex<f32>, _>(Add, None, flat);
        check_scatter::<Complex<f64>, _>(Add, None, flat);
        check_scatter::<u8, _>(Mul, None, flat);
        check_scatter::<i8, _>(Add, None, flat);
        check_scatter::<i16, _>(Maximum, None, flat);
        check_scatter::<i32, _>(Minimum, None, flat);
        check_scatter::<i64, _>(Add, None, flat);
        // (The hardware's own sums and integer extremes.)
        check_scatter::<i32, _>(Add, None, flat);
        check_scatter::<i32, _>(Maximum, None, flat);
        check_scatter::<i64, _>(Maximum, None, flat);
        check_scatter::<i64, _>(Minimum, None, flat);
        check_scatter::<bool, _>(Add, None, flat);
        check_scatter::<f32, _>(Maximum, None, flat);
        check_scatter::<u8, _>(scatter_assign(), Some(7), flat);
        check_scatter::<f16, _>(scatter_assign(), Some(f16::from_f32(-2.5)), flat);
    }
}
