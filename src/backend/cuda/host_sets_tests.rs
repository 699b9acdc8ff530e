//! The sets and bins of `sets.rs`, their steps run on the CPU backend (its
//! sort, scan and reductions) with the kernels of `kernels/sets.cuh`
//! compiled for the host, against the CPU's own `SetOps`, bit for bit:
//! every sortable dtype; `unique` counted (small integer ranges) and
//! sorted (wide ranges, floats with NaNs of both signs, both zeros and
//! infinities), consecutive, of strided views, along each dim of 2-D and
//! 3-D tensors, empty; `searchsorted` of one line and of many, with a
//! sorter, both sides; `bincount` with and without weights and
//! `minlength`, and its refusal of negative values; `histc` of every float
//! type with values outside the range, NaNs, the maximum, and counts that
//! round in the narrow types.

use super::host_sort_tests::{SortSample, bits_of, strides_in_order};
use super::host_tests::Sample;
use super::sets::{
    BLOCK, SetsArgs, SetsDevice, bincount_on, bincount_weighted_on, extremes_on, histc,
    kernel_name, search, unique_elements, unique_slices,
};
use super::sort::thread_grid;
use crate::backend::cpu::sets::{BinIndex, HistcElement, SetElement};
use crate::backend::cpu::{CpuBuffer, CpuPtr};
use crate::backend::{Cpu, SetOps, StridedRef, Uniques};
use crate::dtype::{DType, Element};
use crate::error::Error;
use core::ffi::c_char;
use core::mem::offset_of;
use half::{bf16, f16};
use std::ffi::CString;

// SAFETY: the C++ functions of kernels/host_launch.cpp, with the same
// signatures; build.rs links that library with the `cuda` feature.
unsafe extern "C" {
    fn shaped_host_sets_launch(
        name: *const c_char,
        grid: u32,
        block: u32,
        args: *const SetsArgs,
    ) -> i32;
    fn shaped_host_sets_args_layout(out: *mut u64);
}

/// The CPU as a device of the sets' steps: host memory, and the kernels
/// compiled for the host on a grid of at most 4 blocks, so that the loops
/// over items go round.
impl SetsDevice for Cpu {
    fn zeroed<T: Element, U: Element>(_: CpuPtr<U>, len: usize) -> Result<CpuBuffer<T>, Error> {
        CpuBuffer::try_full(len, T::ZERO)
    }

    fn address<T: Element>(ptr: CpuPtr<T>, offset: usize) -> u64 {
        ptr.as_ptr().wrapping_add(offset) as u64
    }

    unsafe fn launch<U: Element>(
        _: CpuPtr<U>,
        dtype: DType,
        items: u64,
        args: SetsArgs,
    ) -> Result<(), Error> {
        if items == 0 {
            return Ok(());
        }
        let kernel = kernel_name(dtype);
        let name = CString::new(kernel.as_str()).unwrap();
        // SAFETY: `name` is a C string; `args` mirrors the kernels'
        // (`sets_args_layout_matches_the_kernels`) and its addresses are
        // host buffers the caller keeps alive (the trait's contract).
        let status =
            unsafe { shaped_host_sets_launch(name.as_ptr(), thread_grid(items, 1), BLOCK, &args) };
        assert_eq!(status, 0, "{kernel} ran on the host");
        Ok(())
    }
}

#[test]
fn sets_args_layout_matches_the_kernels() {
    let mut c = [0u64; 10];
    // SAFETY: the function writes 10 values.
    unsafe { shaped_host_sets_args_layout(c.as_mut_ptr()) };
    let rust = [
        size_of::<SetsArgs>(),
        offset_of!(SetsArgs, x),
        offset_of!(SetsArgs, out),
        offset_of!(SetsArgs, n),
        offset_of!(SetsArgs, lo),
        offset_of!(SetsArgs, min),
        offset_of!(SetsArgs, max),
        offset_of!(SetsArgs, phase),
        offset_of!(SetsArgs, right),
        offset_of!(SetsArgs, weight_kind),
    ];
    assert_eq!(c.map(|x| x as usize), rust);
}

fn view<T: Element>(
    buf: &mut [T],
    sizes: &'static [usize],
    strides: &[usize],
) -> StridedRef<'static, T, Cpu> {
    // (The strides live as long as the test: leaked, a few words.)
    let strides: &'static [usize] = Vec::leak(strides.to_vec());
    StridedRef {
        ptr: CpuPtr::from_mut(buf),
        sizes,
        strides,
        offset: 0,
    }
}

/// The two results agree: the values bit for bit, the inverse and counts.
fn same<T: SortSample>(got: &Uniques<T, Cpu>, want: &Uniques<T, Cpu>, what: &str) {
    assert_eq!(got.count, want.count, "{what}: count");
    assert_eq!(
        bits_of(got.values.as_slice()),
        bits_of(want.values.as_slice()),
        "{what}: values"
    );
    let words = |b: &Option<CpuBuffer<i64>>| b.as_ref().map(|b| b.as_slice().to_vec());
    assert_eq!(words(&got.inverse), words(&want.inverse), "{what}: inverse");
    assert_eq!(words(&got.counts), words(&want.counts), "{what}: counts");
}

/// Inputs: the edge values repeating (`special`), and a wide spread of
/// integers (sorted, not counted).
fn inputs<T: SortSample + SetElement>(len: usize) -> [Vec<T>; 3] {
    [
        (0..len).map(T::special).collect(),
        (0..len).map(|i| T::sample(i * 5 + 1)).collect(),
        (0..len)
            .map(|i| T::from_int(((i * 7919 + 13) % 60_001) as i64 * 40_009 - 1_200_000_000))
            .collect(),
    ]
}

/// Shapes with the order of their dims in memory.
const SHAPES: [(&[usize], &[usize]); 7] = [
    (&[3000], &[0]),
    (&[40, 75], &[0, 1]),
    (&[40, 75], &[1, 0]),
    (&[6, 5, 7], &[2, 0, 1]),
    (&[7], &[0]),
    (&[0], &[0]),
    (&[3, 0], &[0, 1]),
];

fn check_unique<T: SortSample + SetElement>() {
    for (sizes, order) in SHAPES {
        let len: usize = sizes.iter().product();
        for mut data in inputs::<T>(len) {
            let strides = strides_in_order(sizes, order);
            for consecutive in [false, true] {
                for (inverse, counts) in [(true, true), (false, false), (true, false)] {
                    let x = view(&mut data, sizes, &strides);
                    let got = unique_elements(x, consecutive, inverse, counts).unwrap();
                    let want = <Cpu as SetOps>::unique(x, consecutive, inverse, counts).unwrap();
                    let what = format!(
                        "{:?} {sizes:?} {order:?} consecutive {consecutive}",
                        T::DTYPE
                    );
                    same(&got, &want, &what);
                }
                for dim in 0..sizes.len() {
                    let x = view(&mut data, sizes, &strides);
                    let got = unique_slices(x, dim, consecutive, true, true).unwrap();
                    let want =
                        <Cpu as SetOps>::unique_dim(x, dim, consecutive, true, true).unwrap();
                    let what = format!(
                        "{:?} {sizes:?} dim {dim} consecutive {consecutive}",
                        T::DTYPE
                    );
                    same(&got, &want, &what);
                }
            }
        }
    }
}

/// Rows that repeat, so that `unique` along a dim finds few: each row of
/// (rows, cols) one of `kinds` patterns, ties broken by later columns.
fn check_repeated_rows<T: SortSample + SetElement>() {
    const SIZES: &[usize] = &[300, 4];
    let mut data: Vec<T> = (0..1200)
        .map(|i| T::special((i / 4) % 9 * 3 + (i % 4) * ((i / 4) % 2)))
        .collect();
    for (dim, order) in [(0, [0, 1]), (1, [1, 0]), (0, [1, 0])] {
        let strides = strides_in_order(SIZES, &order);
        let x = view(&mut data, SIZES, &strides);
        for consecutive in [false, true] {
            let got = unique_slices(x, dim, consecutive, true, true).unwrap();
            let want = <Cpu as SetOps>::unique_dim(x, dim, consecutive, true, true).unwrap();
            same(
                &got,
                &want,
                &format!("{:?} rows dim {dim} {order:?}", T::DTYPE),
            );
        }
    }
}

fn check_search<T: SortSample + SetElement>() {
    // One line of sorted boundaries (with repeats), values around them.
    let mut line: Vec<T> = (0..500).map(|i| T::special(i * 3 + 2)).collect();
    line.sort_by_key(|a| a.key());
    let mut values: Vec<T> = (0..700).map(T::special).collect();
    for right in [false, true] {
        let b = view(&mut line, &[500], &[1]);
        let v = view(&mut values, &[35, 20], &[20, 1]);
        let got = search(b, v, None, right).unwrap();
        let want = <Cpu as SetOps>::searchsorted(b, v, None, right).unwrap();
        assert_eq!(got.as_slice(), want.as_slice(), "{:?} one line", T::DTYPE);
        // A line per row of the values, read through a sorter.
        let mut rows: Vec<T> = (0..35 * 12).map(|i| T::sample(i * 11 + 5)).collect();
        let mut sorter: Vec<i64> = (0..35 * 12).map(|i| i % 12).collect();
        for (r, chunk) in sorter.chunks_mut(12).enumerate() {
            let row = &rows[r * 12..][..12];
            chunk.sort_by(|&a, &b| row[a as usize].key().cmp(&row[b as usize].key()));
        }
        let b = view(&mut rows, &[35, 12], &[12, 1]);
        let s = view(&mut sorter, &[35, 12], &[12, 1]);
        let got = search(b, v, Some(s), right).unwrap();
        let want = <Cpu as SetOps>::searchsorted(b, v, Some(s), right).unwrap();
        assert_eq!(got.as_slice(), want.as_slice(), "{:?} lines", T::DTYPE);
        // Transposed values.
        let vt = view(&mut values, &[35, 20], &[1, 35]);
        let got = search(b, vt, None, right).unwrap();
        let want = <Cpu as SetOps>::searchsorted(b, vt, None, right).unwrap();
        assert_eq!(got.as_slice(), want.as_slice(), "{:?} transposed", T::DTYPE);
    }
}

#[test]
fn unique_matches_the_cpu() {
    check_unique::<f32>();
    check_unique::<f64>();
    check_unique::<f16>();
    check_unique::<bf16>();
    check_unique::<u8>();
    check_unique::<i8>();
    check_unique::<i16>();
    check_unique::<i32>();
    check_unique::<i64>();
    check_unique::<bool>();
}

#[test]
fn unique_rows_match_the_cpu() {
    check_repeated_rows::<f32>();
    check_repeated_rows::<f64>();
    check_repeated_rows::<bf16>();
    check_repeated_rows::<i16>();
    check_repeated_rows::<i64>();
    check_repeated_rows::<bool>();
}

#[test]
fn searchsorted_matches_the_cpu() {
    check_search::<f32>();
    check_search::<f64>();
    check_search::<f16>();
    check_search::<bf16>();
    check_search::<u8>();
    check_search::<i8>();
    check_search::<i32>();
    check_search::<i64>();
    check_search::<bool>();
}

#[test]
fn searchsorted_refuses_a_sorter_out_of_its_line() {
    let mut line = vec![1.0f32, 2.0, 3.0];
    let mut values = vec![2.5f32];
    for bad in [3i64, -1] {
        let mut sorter = vec![0i64, bad, 1];
        let b = view(&mut line, &[3], &[1]);
        let v = view(&mut values, &[1], &[1]);
        let s = view(&mut sorter, &[3], &[1]);
        let err = search(b, v, Some(s), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "torch.searchsorted(): sorter index out of range"
        );
    }
}

fn check_bincount<T: BinIndex + Sample>() {
    for len in [0usize, 1, 7, 5000] {
        // Non-negative values, a few of them large.
        let mut data: Vec<T> = (0..len)
            .map(|i| T::from_int(((i * 37 + 11) % 101) as i64 + if i % 97 == 5 { 20 } else { 0 }))
            .collect();
        let mut weights: Vec<f64> = (0..len).map(|i| (i % 13) as f64 * 0.25 - 1.0).collect();
        let mut narrow: Vec<f32> = (0..len).map(|i| (i % 7) as f32 * 0.5).collect();
        for minlength in [0, 3, 200] {
            let sizes = Vec::leak(vec![len]);
            let x = view(&mut data, sizes, &[1]);
            let (got, bins) = bincount_on(x, minlength).unwrap();
            let (want, want_bins) = <Cpu as SetOps>::bincount(x, minlength).unwrap();
            assert_eq!((got.as_slice(), bins), (want.as_slice(), want_bins));
            let w = view(&mut weights, sizes, &[1]);
            let (got, _) = bincount_weighted_on(x, w, minlength).unwrap();
            let (want, _) = <Cpu as SetOps>::bincount_weighted(x, w, minlength).unwrap();
            assert_eq!(bits_of(got.as_slice()), bits_of(want.as_slice()));
            let w = view(&mut narrow, sizes, &[1]);
            let (got, _) = bincount_weighted_on(x, w, minlength).unwrap();
            let (want, _) = <Cpu as SetOps>::bincount_weighted(x, w, minlength).unwrap();
            assert_eq!(bits_of(got.as_slice()), bits_of(want.as_slice()));
        }
    }
    if T::DTYPE != DType::U8 {
        let mut data: Vec<T> = [3, -1, 2].map(T::from_int).to_vec();
        let err = bincount_on(view(&mut data, &[3], &[1]), 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bincount only supports 1-d non-negative integral inputs."
        );
    }
}

#[test]
fn bincount_matches_the_cpu() {
    check_bincount::<u8>();
    check_bincount::<i8>();
    check_bincount::<i16>();
    check_bincount::<i32>();
    check_bincount::<i64>();
}

fn check_histc<T: HistcElement + SortSample>() {
    // Values around [-1, 1.5], the ends, NaNs, infinities, and 4097
    // copies of one value (a count that the half types round).
    let mut data: Vec<T> = (0..3000).map(T::special).collect();
    data.extend((0..4097).map(|_| T::from_f64(0.25)));
    data.extend([-1.0, 1.5, 1.4999].map(T::from_f64));
    let sizes = Vec::leak(vec![data.len()]);
    for (bins, lo, hi) in [
        (1, -1.0, 1.5),
        (7, -1.0, 1.5),
        (100, -1.0, 1.5),
        (3, 0.25, 0.5),
        // more bins than a block counts in shared memory
        (5000, -1.0, 1.5),
    ] {
        let x = view(&mut data, sizes, &[1]);
        let (lo, hi) = (T::from_f64(lo), T::from_f64(hi));
        let got = histc(x, bins, lo, hi).unwrap();
        let want = <Cpu as SetOps>::histc(x, bins, lo, hi).unwrap();
        assert_eq!(
            bits_of(got.as_slice()),
            bits_of(want.as_slice()),
            "{:?} {bins}",
            T::DTYPE
        );
    }
    let got = extremes_on(view(&mut data[3000..7097], &[4097], &[1])).unwrap();
    assert_eq!(
        got.map(|(a, b)| (a.bits(), b.bits())),
        Some((T::from_f64(0.25).bits(), T::from_f64(0.25).bits()))
    );
    let got = extremes_on(view(&mut data, sizes, &[1])).unwrap().unwrap();
    assert!(
        got.0.key() == T::from_f64(f64::NAN).key() && got.1.key() == T::from_f64(f64::NAN).key(),
        "a NaN makes both extremes NaN"
    );
    assert_eq!(
        extremes_on(view(&mut data, &[0], &[1]))
            .unwrap()
            .map(|_| ()),
        None
    );
}

#[test]
fn histc_matches_the_cpu() {
    check_histc::<f32>();
    check_histc::<f64>();
    check_histc::<f16>();
    check_histc::<bf16>();
}
