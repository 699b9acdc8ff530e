//! Property tests of the reductions: the dynamic API against a plain
//! reference loop (random shapes with sizes 0 to 5, random dims, permuted
//! views), long float sums against an `f64` reference (the lanes, pairwise
//! splits and threads of the engine), and the static forms against the
//! dynamic ones.
//!
//! The reference knows nothing of the library: a shape is a `Vec<usize>`,
//! elements are a row-major `Vec`, and each output element folds its group of
//! inputs in index order.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 400,
        ..ProptestConfig::default()
    }
}

/// The groups of a reduction: for each output element (row-major over the
/// kept dims), the inputs' row-major positions and their index along the
/// reduced dims (row-major over them), in index order.
fn reference_groups(sizes: &[usize], mask: &[bool]) -> Vec<Vec<(usize, usize)>> {
    let out: usize = sizes
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| !m)
        .map(|(&n, _)| n)
        .product();
    let mut groups = vec![Vec::new(); out];
    let numel: usize = sizes.iter().product();
    for flat in 0..numel {
        let (mut rest, mut o, mut r) = (flat, 0, 0);
        let (mut ostride, mut rstride) = (1, 1);
        for d in (0..sizes.len()).rev() {
            let k = rest % sizes[d];
            rest /= sizes[d];
            if mask[d] {
                r += k * rstride;
                rstride *= sizes[d];
            } else {
                o += k * ostride;
                ostride *= sizes[d];
            }
        }
        groups[o].push((flat, r));
    }
    groups
}

/// A shape, row-major values, a permutation to view them through, a list of
/// dims (some negative) and keepdim.
fn case() -> impl Strategy<Value = (Vec<usize>, Vec<i64>, Vec<usize>, Vec<isize>, bool)> {
    vec(0usize..=5, 0..=4).prop_flat_map(|sizes| {
        let rank = sizes.len();
        let numel: usize = sizes.iter().product();
        (
            Just(sizes),
            vec(-4i64..=4, numel),
            Just((0..rank).collect::<Vec<_>>()).prop_shuffle(),
            proptest::sample::subsequence((0..rank).collect::<Vec<_>>(), 0..=rank),
            any::<bool>(),
            any::<u8>(),
        )
            .prop_map(move |(sizes, values, perm, dims, keepdim, neg)| {
                let dims = dims
                    .into_iter()
                    .enumerate()
                    .map(|(i, d)| {
                        if neg >> i & 1 == 1 {
                            d as isize - rank as isize
                        } else {
                            d as isize
                        }
                    })
                    .collect();
                (sizes, values, perm, dims, keepdim)
            })
    })
}

/// The row-major values of `sizes` laid out so that `permute(perm)` of the
/// result shows them: a non-contiguous view of the same logical tensor.
fn permuted(sizes: &[usize], values: &[i64], perm: &[usize]) -> (Vec<usize>, Vec<i64>, Vec<isize>) {
    // Base tensor of shape `base[j] = sizes[inv[j]]` with `permute(inv_back)`
    // giving `sizes`.
    let rank = sizes.len();
    let mut base_sizes = vec![0; rank];
    for (j, &p) in perm.iter().enumerate() {
        base_sizes[j] = sizes[p];
    }
    let numel = values.len();
    let mut base = vec![0; numel];
    for (flat, &v) in values.iter().enumerate() {
        let mut idx = vec![0; rank];
        let mut rest = flat;
        for d in (0..rank).rev() {
            idx[d] = rest % sizes[d];
            rest /= sizes[d];
        }
        let mut at = 0;
        for (j, &p) in perm.iter().enumerate() {
            at = at * base_sizes[j] + idx[p];
        }
        base[at] = v;
    }
    let mut back = vec![0isize; rank];
    for (j, &p) in perm.iter().enumerate() {
        back[p] = j as isize;
    }
    (base_sizes, base, back)
}

fn out_sizes(sizes: &[usize], mask: &[bool], keepdim: bool) -> Vec<usize> {
    sizes
        .iter()
        .zip(mask)
        .filter_map(|(&n, &m)| if m { keepdim.then_some(1) } else { Some(n) })
        .collect()
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn dynamic_reductions_match_a_plain_loop((sizes, values, perm, dims, keepdim) in case()) {
        let rank = sizes.len();
        let (base_sizes, base, back) = permuted(&sizes, &values, &perm);
        let owner = DynTensor::<i64>::from_vec(base, &base_sizes).unwrap();
        let x = owner.permute(&back).unwrap();
        prop_assert_eq!(x.to_vec(), values.clone());
        let mut mask = vec![dims.is_empty(); rank];
        for &d in &dims {
            mask[d.rem_euclid(rank.max(1) as isize) as usize] = true;
        }
        let groups = reference_groups(&sizes, &mask);
        let shape = out_sizes(&sizes, &mask, keepdim);

        let sum = x.sum(&dims, keepdim).unwrap();
        prop_assert_eq!(sum.shape().to_vec(), shape.clone());
        let want: Vec<i64> = groups.iter().map(|g| g.iter().map(|&(i, _)| values[i]).sum()).collect();
        prop_assert_eq!(sum.to_vec(), want);

        let any = x.any(&dims, keepdim).unwrap();
        if !dims.is_empty() {
            let want: Vec<bool> = groups.iter().map(|g| g.iter().any(|&(i, _)| values[i] != 0)).collect();
            prop_assert_eq!(any.to_vec(), want);
        }

        match x.amax(&dims, keepdim) {
            Ok(m) => {
                let want: Vec<i64> = groups.iter().map(|g| g.iter().map(|&(i, _)| values[i]).max().unwrap()).collect();
                prop_assert_eq!(m.to_vec(), want);
            }
            Err(e) => prop_assert!(values.is_empty(), "{}", e),
        }

        if let Some(&dim) = dims.first() {
            let mut one = vec![false; rank];
            one[dim.rem_euclid(rank as isize) as usize] = true;
            let groups = reference_groups(&sizes, &one);
            match x.min(dim, keepdim) {
                Ok((v, i)) => {
                    let want: Vec<(i64, i64)> = groups
                        .iter()
                        .map(|g| g.iter().map(|&(i, r)| (values[i], r as i64)).min().unwrap())
                        .collect();
                    let got: Vec<(i64, i64)> = v.to_vec().into_iter().zip(i.to_vec()).collect();
                    prop_assert_eq!(got, want);
                }
                Err(e) => prop_assert_eq!(
                    e.to_string(),
                    format!("min(): Expected reduction dim {} to have non-zero size.", dim.rem_euclid(rank as isize))
                ),
            }
            let prod = x.prod(dim, keepdim).unwrap();
            let want: Vec<i64> = groups.iter().map(|g| g.iter().map(|&(i, _)| values[i]).product()).collect();
            prop_assert_eq!(prod.to_vec(), want);
        }
    }

    #[test]
    fn long_float_sums_are_close_to_exact(
        len in 0usize..200_000,
        start in 0usize..40,
        step in 1usize..3,
        seed in any::<u32>(),
    ) {
        let n = start + len * step;
        let data: Vec<f32> = (0..n)
            .map(|i| ((i as u64 * 2654435761 + seed as u64) % 2001) as f32 * 0.01 - 10.0)
            .collect();
        let owner = DynTensor::<f32>::from_vec(data.clone(), &[n]).unwrap();
        let x = owner.as_strided(&[len], &[step], start).unwrap();
        let exact: f64 = (0..len).map(|k| f64::from(data[start + k * step])).sum();
        let abs: f64 = (0..len).map(|k| f64::from(data[start + k * step]).abs()).sum();
        let got = f64::from(x.sum_all().to_vec()[0]);
        // Pairwise summation: error within a few units of f32 rounding of
        // the sum of magnitudes, times log2 of the length.
        let bound = abs * f64::from(f32::EPSILON) * (len.max(2) as f64).log2() + 1e-6;
        prop_assert!((got - exact).abs() <= bound, "{} vs {} (bound {})", got, exact, bound);
        let mean = x.mean_all().unwrap().to_vec()[0];
        if len > 0 {
            prop_assert!((f64::from(mean) - exact / len as f64).abs() <= bound / len as f64 + 1e-6);
        } else {
            prop_assert!(mean.is_nan());
        }
    }

    #[test]
    fn static_forms_match_dynamic_ones(values in vec(-50i32..50, 60)) {
        let s = Tensor::<i32, shape![3, 4, 5]>::from_vec(values.clone()).unwrap();
        let d = s.clone().into_dyn();
        prop_assert_eq!(s.sum_dim::<1>().to_vec(), d.sum(&[1], false).unwrap().to_vec());
        prop_assert_eq!(s.sum_keepdim::<2>().shape(), [3, 4, 1]);
        prop_assert_eq!(s.sum_dims::<axes![2, 0]>().to_vec(), d.sum(&[0, 2], false).unwrap().to_vec());
        prop_assert_eq!(s.sum().to_vec(), d.sum_all().to_vec());
        prop_assert_eq!(s.prod_keepdim::<0>().to_vec(), d.prod(0, true).unwrap().to_vec());
        prop_assert_eq!(s.amin_dims_keepdim::<axes![1]>().to_vec(), d.amin(&[1], true).unwrap().to_vec());
        let (sv, si) = s.max_dim::<2>();
        let (dv, di) = d.max(2, false).unwrap();
        prop_assert_eq!((sv.to_vec(), si.to_vec()), (dv.to_vec(), di.to_vec()));
        prop_assert_eq!(s.argmin_keepdim::<0>().to_vec(), d.argmin(0, true).unwrap().to_vec());
        prop_assert_eq!(s.argmax().to_vec(), d.argmax_all().unwrap().to_vec());
        prop_assert_eq!(s.any_dim::<1>().to_vec(), d.any(&[1], false).unwrap().to_vec());
        let f = s.cast::<f64>();
        prop_assert_eq!(f.mean_dims::<axes![0, 1]>().to_vec(), f.clone().into_dyn().mean(&[0, 1], false).unwrap().to_vec());
        // The transposed view reduces to the same values as a copy of it.
        let t = s.transpose::<0, 2>();
        prop_assert_eq!(t.sum_dim::<0>().to_vec(), t.to_owned().sum_dim::<0>().to_vec());
    }
}

/// The static order reductions return their tensors where the types prove
/// an element along each reduced axis; a `Dyn` size of 0 panics with
/// PyTorch's message, which the `try_` forms return (as for `bool` argmax).
#[test]
fn static_extremes_are_infallible_where_the_types_prove_an_element() {
    let x = Tensor::<i32, shape![2, 3]>::from_vec(vec![4, -1, 9, 0, 9, -7]).unwrap();
    assert_eq!(x.amax_dim::<1>().to_vec(), vec![9, 9]);
    assert_eq!(x.amin_keepdim::<0>().shape(), [1, 3]);
    assert_eq!(x.amax_dims::<axes![0, 1]>().to_vec(), vec![9]);
    assert_eq!(x.argmax().to_vec(), vec![2]);
    assert_eq!(x.argmin_dim::<1>().to_vec(), vec![1, 2]);
    assert_eq!(x.min().to_vec(), vec![-7]);
    let (v, i) = x.max_keepdim::<0>();
    assert_eq!((v.to_vec(), i.to_vec()), (vec![4, 9, 9], vec![0, 1, 0]));
    // A `Dyn` axis: the same methods, checked at run time.
    let rows = Tensor::<f32, shape![Dyn, 2]>::zeros_with(&[0, 2]);
    assert_eq!(rows.amax_dim::<1>().shape(), [0]);
    assert_eq!(
        rows.try_amax_dim::<0>().unwrap_err().to_string(),
        "amax(): Expected reduction dim 0 to have non-zero size."
    );
    assert_eq!(
        rows.try_max().unwrap_err().to_string(),
        "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
    );
    let panic = std::panic::catch_unwind(|| rows.argmax_dim::<0>()).unwrap_err();
    assert_eq!(
        panic.downcast_ref::<String>().map(String::as_str),
        Some("argmax(): Expected reduction dim 0 to have non-zero size.")
    );
    // The `try_` forms take any element type; bool argmax is PyTorch's error.
    let b = Tensor::<bool, shape![2]>::ones();
    assert_eq!(
        b.try_argmax_dim::<0>().unwrap_err().to_string(),
        "argmax(): does not support bool input"
    );
    assert_eq!(b.max().to_vec(), vec![true]);
}
