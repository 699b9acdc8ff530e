//! Regression tests for the layouts that used to lie: calls of the safe API
//! whose size and stride arithmetic overflowed before any check saw it, so
//! that a view reached past its storage (heap corruption) or an output was
//! allocated infallibly (an abort). Every layout a tensor holds now passes
//! `shaped::layout::check_layout`: its element count fits in `isize`, every
//! index lies inside the storage, and a writable one has no two indices on
//! one element. Each case ends in `Ok` with PyTorch's result or in PyTorch's
//! error, in debug and in release.
//!
//! PyTorch's own results at these limits are in
//! `tests/fixtures/view_limits.json` (checked by `tests/views_fixtures.rs`);
//! the cases here are the reported ones, and those where PyTorch 2.15's
//! int64 arithmetic overflows and `shaped` deliberately gives the right
//! answer instead.

use num_complex::Complex;
use shaped::layout::views::SliceItem;
use shaped::prelude::*;

const OUT_OF_RANGE_1: &str = "index 1 is out of bounds for dimension 0 with size 1";
const NUMEL_OVERFLOW: &str = "numel: integer multiplication overflow";

fn step_range(start: isize, end: Option<isize>, step: isize) -> [SliceItem; 1] {
    [SliceItem::Range { start, end, step }]
}

#[test]
fn a_runtime_slice_step_near_isize_max_has_the_right_length() {
    // It used to give shape [usize::MAX], and writing element 1 wrote
    // 8 bytes before the buffer.
    let mut x = DynTensor::<i64>::arange(3);
    let step = isize::MAX;
    let items = s![0..3;step];
    let mut v = x.slice_mut(items).unwrap();
    assert_eq!(v.shape(), [1]);
    assert_eq!(v.get_mut(&[1]).unwrap_err().to_string(), OUT_OF_RANGE_1);
    *v.get_mut(&[0]).unwrap() = 9;
    assert_eq!(x.to_vec(), vec![9, 1, 2]);
}

#[test]
fn a_static_slice_with_a_runtime_step_near_isize_max_has_the_right_length() {
    let mut t = Tensor::<f32, shape![3]>::zeros();
    let step = isize::MAX;
    let items = s![..;step];
    let mut v = t.slice_mut(items);
    assert_eq!(v.shape(), [1]);
    assert_eq!(v.get_mut(&[1]).unwrap_err().to_string(), OUT_OF_RANGE_1);
    *v.get_mut(&[0]).unwrap() = 1.5;
    assert_eq!(t.to_vec(), vec![1.5, 0.0, 0.0]);
    let items = s![1..;step];
    assert_eq!(t.slice(items).to_vec(), vec![0.0]);
}

#[test]
fn steps_where_pytorchs_int64_arithmetic_overflows_give_the_right_length() {
    // PyTorch 2.15 computes `(end - start + step - 1) / step` and
    // `stride * step` in int64; for these steps that wraps, and PyTorch
    // reports "Storage size calculation overflowed with sizes=[-1] ...",
    // "as_strided: Negative strides are not supported ..." or gives a length
    // of 0. The mathematically right view is one entry (or none).
    let m = isize::MAX;
    let x = DynTensor::<i64>::arange(3);
    for (start, end, step, values) in [
        (0, Some(3), m, vec![0]),
        (1, Some(3), m, vec![1]),
        (0, None, m - 1, vec![0]),
        (2, None, m, vec![2]),
        (3, None, m, vec![]),
    ] {
        let v = x.slice(step_range(start, end, step)).unwrap();
        assert_eq!(v.to_vec(), values, "x[{start}:{end:?}:{step}]");
    }
    let grid = DynTensor::<i64>::arange(24)
        .view(&[2, 3, 4])
        .unwrap()
        .to_owned();
    let items = [
        SliceItem::Range {
            start: 0,
            end: None,
            step: m,
        },
        SliceItem::Range {
            start: 0,
            end: None,
            step: m,
        },
        SliceItem::Range {
            start: 1,
            end: None,
            step: 2,
        },
    ];
    let v = grid.slice(items).unwrap();
    assert_eq!(v.shape(), [1, 1, 2]);
    assert_eq!(v.to_vec(), vec![1, 3]);
    // A stride-0 dimension of isize::MAX entries, stepped by isize::MAX:
    // one entry (PyTorch: none).
    let one = DynTensor::<f32>::ones(&[1]);
    let e = one.expand(&[m]).unwrap();
    assert_eq!(e.slice(step_range(0, None, m)).unwrap().to_vec(), vec![1.0]);
}

#[test]
fn unfold_of_an_expanded_view_past_isize_max_elements_is_refused() {
    // The element count wrapped to 1, and copying the view walked
    // 7 x 7.9e18 elements into a one-element buffer.
    let one = DynTensor::<f32>::ones(&[1]);
    let e = one.expand(&[7905747460161236413]).unwrap();
    let u = e.unfold(0, 7905747460161236407, 1);
    assert_eq!(u.unwrap_err().to_string(), NUMEL_OVERFLOW);
    // Windows that fit are fine, and read the one element.
    let u = e.unfold(0, 3, 7905747460161236413 / 2).unwrap();
    assert_eq!(u.shape(), [2, 3]);
    assert_eq!(u.to_vec(), vec![1.0; 6]);
    assert_eq!(u.sum_all().to_vec(), vec![6.0]);
    // The static form: 999999999^2 elements fit, 99 windows' worth do not.
    let static_one = Tensor::<f32, shape![1]>::ones();
    let wide = static_one
        .try_expand::<shape![999999999, 999999999]>()
        .unwrap();
    assert_eq!(wide.numel(), 999999999 * 999999999);
    assert_eq!(
        wide.try_unfold::<1, 99, 1>().unwrap_err().to_string(),
        NUMEL_OVERFLOW
    );
}

#[test]
fn a_static_expand_past_isize_max_elements_is_refused() {
    let one = Tensor::<f32, shape![1]>::ones();
    let e = one.try_expand::<shape![9999999999, 9999999999, 9999999999]>();
    assert_eq!(e.unwrap_err().to_string(), NUMEL_OVERFLOW);
}

#[test]
fn reductions_of_a_huge_empty_tensor_return_the_allocation_error() {
    // The output of 2^40 elements was allocated with an infallible `vec!`:
    // an abort. PyTorch's text names the bytes of the output. (2^58 here:
    // past any address space, so refused even where the kernel overcommits.)
    let x = DynTensor::<f32>::zeros(&[0, 1 << 58]);
    let oom = |bytes: u64| {
        format!(
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {bytes} bytes. Error code 12 (Cannot allocate memory)"
        )
    };
    let text = |r: Result<DynTensor<f32>, Error>| r.map(|t| t.numel()).map_err(|e| e.to_string());
    assert_eq!(text(x.sum(&[0], false)), Err(oom(4 << 58)));
    assert_eq!(text(x.mean(&[0], false)), Err(oom(4 << 58)));
    assert_eq!(text(x.prod(0, false)), Err(oom(4 << 58)));
    let ints = DynTensor::<i32>::zeros(&[0, 1 << 58]);
    let sum = ints
        .sum(&[0], true)
        .map(|t| t.numel())
        .map_err(|e| e.to_string());
    assert_eq!(sum, Err(oom(8 << 58)), "integer sums give int64");
}

#[test]
fn huge_counts_of_pieces_are_errors() {
    let empty = DynTensor::<f32>::zeros(&[0]);
    let count = |r: Result<Vec<TensorView<'_, f32, DynShape>>, Error>| {
        r.map(|v| v.len()).map_err(|e| e.to_string())
    };
    let too_long = Err("cannot create std::vector larger than max_size()".to_string());
    let bad_alloc = Err("std::bad_alloc".to_string());
    assert_eq!(count(empty.chunk(isize::MAX, 0)), too_long);
    assert_eq!(count(empty.chunk(1 << 58, 0)), bad_alloc);
    assert_eq!(count(empty.tensor_split(isize::MAX, 0)), too_long);
    assert_eq!(count(empty.tensor_split(1 << 58, 0)), bad_alloc);
    let wide = DynTensor::<f32>::zeros(&[1 << 58, 0]);
    assert_eq!(count(wide.unbind(0)), bad_alloc);
    assert_eq!(count(wide.split(1, 0)), bad_alloc);
    // Counts that fit are as many as asked for.
    assert_eq!(count(empty.chunk(1000, 0)), Ok(1000));
}

#[test]
fn views_of_no_elements_may_sit_anywhere() {
    // PyTorch does not bound-check a layout with no elements; neither does
    // shaped, and nothing reads through one. The complex parts of such a
    // view double an offset near usize::MAX: that used to overflow in
    // debug builds.
    let z = DynTensor::<Complex<f32>>::zeros(&[2]);
    let nowhere = z.as_strided(&[0, 3], &[1, 1], usize::MAX).unwrap();
    assert_eq!(nowhere.numel(), 0);
    assert!(nowhere.real().to_vec().is_empty());
    assert_eq!(nowhere.imag().storage_offset(), usize::MAX);
    assert_eq!(nowhere.view_as_real().shape(), [0, 3, 2]);
    assert!(nowhere.to_owned().to_vec().is_empty());
    let x = DynTensor::<f32>::zeros(&[4, 8]);
    let tail = x.narrow(0, 4, 0).unwrap();
    assert_eq!(tail.storage_offset(), 32);
    assert!(
        tail.sum(&[0], false)
            .unwrap()
            .to_vec()
            .iter()
            .all(|&v| v == 0.0)
    );
}

#[test]
fn as_strided_checks_in_pytorchs_order() {
    let x = DynTensor::<i64>::arange(4);
    let text = |r: Result<TensorView<'_, i64, DynShape>, Error>| {
        r.map(|v| v.shape().to_vec()).map_err(|e| e.to_string())
    };
    // Bounds before the element count, as PyTorch.
    assert_eq!(
        text(x.as_strided(&[1 << 40, 1 << 40, 1 << 40], &[0, 0, 1], 0)),
        Err("setStorage: sizes [1099511627776, 1099511627776, 1099511627776], strides [0, 0, 1], storage offset 0, and itemsize 8 requiring a storage size of 8796093022208 are out of bounds for storage of size 32".to_string())
    );
    assert_eq!(
        text(x.as_strided(&[1 << 62, 4], &[0, 0], 0)),
        Err(NUMEL_OVERFLOW.to_string())
    );
    assert_eq!(
        text(x.as_strided(&[2], &[1], usize::MAX)),
        Err("Storage size calculation overflowed with sizes=[2] and strides=[1]".to_string())
    );
    assert_eq!(text(x.as_strided(&[1], &[usize::MAX], 3)), Ok(vec![1]));
}

#[test]
fn writable_views_never_share_an_element() {
    // Every `_mut` view passes the overlap check; a stride-0 layout cannot
    // be had writable.
    let mut x = DynTensor::<i32>::zeros(&[3, 3]);
    let mut d = x.diagonal_mut(0, 0, 1).unwrap();
    d.fill(1);
    assert_eq!(x.to_vec(), vec![1, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert_eq!(
        x.diagonal_mut(0, 1, 1).unwrap_err().to_string(),
        "diagonal dimensions cannot be identical 1, 1"
    );
    assert!(shaped::layout::check_layout(&[3, 3], &[0, 1], 0, 9, 4, true).is_err());
}

#[test]
fn empty_tensors_with_huge_sizes_behave_as_in_pytorch() {
    // Found by tests/soundness_driver.rs: each panicked on an overflow in
    // debug builds (and in release `flatten` and the reductions happened to
    // agree with PyTorch only by wrapping around).
    let zero = DynTensor::<f32>::zeros(&[0, 1, 1]);
    let x = zero.expand(&[0, 1 << 40, 1 << 40]).unwrap();
    // PyTorch's `flatten` multiplies the merged sizes modulo 2^64.
    assert_eq!(x.flatten(1, 2).unwrap().shape(), [0, 0]);
    let y = zero.expand(&[0, 1 << 62, 4]).unwrap();
    assert_eq!(y.sum(&[], false).unwrap().to_vec(), vec![0.0]);
    assert_eq!(y.sum(&[1, 2], false).unwrap().shape(), [0]);
    assert_eq!(y.amax(&[1, 2], false).unwrap().shape(), [0]);
    assert_eq!(
        y.sum(&[0], false).unwrap_err().to_string(),
        "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"
    );
    let one = DynTensor::<Complex<f32>>::ones(&[1]);
    let many = one.expand(&[isize::MAX]).unwrap();
    assert_eq!(
        many.try_view_as_real().unwrap_err().to_string(),
        NUMEL_OVERFLOW
    );
    // Sizes multiply first, then the item size, as PyTorch's `empty`.
    assert_eq!(DynTensor::<f32>::zeros(&[1 << 62, 0]).numel(), 0);
    assert_eq!(DynTensor::<u8>::zeros(&[1 << 62, 2, 0]).numel(), 0);
    assert_eq!(
        DynTensor::<u8>::try_full_with(&[1 << 62, 4, 0], 0)
            .map(|t| t.numel())
            .unwrap_err()
            .to_string(),
        "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]"
    );
}
