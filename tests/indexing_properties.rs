//! Property tests of indexing by tensors: the dynamic API against a plain
//! reference (random shapes with sizes 0 to 5, permuted views, random
//! indices in and out of range), large operations (the engine's threads and
//! `index_select`'s block copies) against the reference, and the static
//! forms against the dynamic ones.
//!
//! The reference knows nothing of the library: a shape is a `Vec<usize>`,
//! elements are a row-major `Vec`, and an index reads by coordinates.

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

/// Row-major coordinates of position `flat` in `sizes`.
fn coords(mut flat: usize, sizes: &[usize]) -> Vec<usize> {
    let mut c = vec![0; sizes.len()];
    for d in (0..sizes.len()).rev() {
        c[d] = flat % sizes[d];
        flat /= sizes[d];
    }
    c
}

/// The row-major position of coordinates `c` in `sizes`.
fn position(c: &[usize], sizes: &[usize]) -> usize {
    c.iter().zip(sizes).fold(0, |p, (&k, &n)| p * n + k)
}

/// PyTorch's `gather` by coordinates: `None` for an index outside.
fn reference_gather(
    x: &[i64],
    sizes: &[usize],
    dim: usize,
    idx: &[i64],
    idx_sizes: &[usize],
) -> Option<Vec<i64>> {
    (0..idx.len())
        .map(|flat| {
            let mut c = coords(flat, idx_sizes);
            let i = usize::try_from(idx[flat])
                .ok()
                .filter(|&i| i < sizes[dim])?;
            c[dim] = i;
            Some(x[position(&c, sizes)])
        })
        .collect()
}

/// A shape of rank 1 to 3, values, a permutation to view them through, a
/// dim, and index values (some outside, some negative).
fn case() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, usize, Vec<usize>, Vec<i64>)> {
    vec(1usize..=5, 1..=3).prop_flat_map(|sizes| {
        let rank = sizes.len();
        let longest = *sizes.iter().max().unwrap() as i64;
        (
            Just(sizes.clone()),
            Just((0..rank).collect::<Vec<_>>()).prop_shuffle(),
            0..rank,
            vec(0usize..=4, rank),
            vec(-1..longest + 1, 0..=60),
        )
    })
}

/// Values `0, 1, ...` stored in `perm`'s order of `sizes`' dimensions,
/// and the inverse permutation that views them with `sizes`.
fn stored(sizes: &[usize], perm: &[usize]) -> (DynTensor<i64>, Vec<isize>) {
    let stored: Vec<usize> = perm.iter().map(|&p| sizes[p]).collect();
    let numel: usize = sizes.iter().product();
    let base = DynTensor::<i64>::from_vec((0..numel as i64).collect(), &stored).unwrap();
    let mut inverse = vec![0isize; perm.len()];
    for (k, &p) in perm.iter().enumerate() {
        inverse[p] = k as isize;
    }
    (base, inverse)
}

proptest! {
    #![proptest_config(config(400))]

    /// `gather`, `index_select`, `take` and `take_along_dim` on permuted
    /// inputs against the reference, errors included.
    #[test]
    fn indexing_matches_the_reference((sizes, perm, dim, lens, raw) in case()) {
        let (base, inverse) = stored(&sizes, &perm);
        // A permuted view, read through its strides; its row-major values.
        let view = base.permute(&inverse).unwrap();
        prop_assert_eq!(view.shape(), &sizes[..]);
        let values = view.to_owned().to_vec();
        let rank = sizes.len();

        // gather: an index no larger than the input off `dim`.
        let idx_sizes: Vec<usize> = (0..rank)
            .map(|d| if d == dim { lens[d] } else { lens[d].min(sizes[d]) })
            .collect();
        let n: usize = idx_sizes.iter().product();
        let idx_values: Vec<i64> = (0..n).map(|k| raw.get(k).copied().unwrap_or(0)).collect();
        let idx = DynTensor::<i64>::from_vec(idx_values.clone(), &idx_sizes).unwrap();
        let got = view.gather(dim as isize, &idx);
        match reference_gather(&values, &sizes, dim, &idx_values, &idx_sizes) {
            Some(want) => {
                let got = got.unwrap();
                prop_assert_eq!(got.shape(), &idx_sizes[..]);
                prop_assert_eq!(got.to_vec(), want);
            }
            None => prop_assert!(got.unwrap_err().to_string().contains("is out of bounds for dimension")),
        }

        // index_select: a vector of the first `lens[dim]` raw values.
        let picks: Vec<i64> = raw.iter().copied().take(lens[dim]).collect();
        let vector = DynTensor::<i64>::from_vec(picks.clone(), &[picks.len()]).unwrap();
        let got = view.index_select(dim as isize, &vector);
        let mut out_sizes = sizes.clone();
        out_sizes[dim] = picks.len();
        let expanded: Vec<i64> = (0..out_sizes.iter().product::<usize>())
            .map(|flat| picks[coords(flat, &out_sizes)[dim]])
            .collect();
        match reference_gather(&values, &sizes, dim, &expanded, &out_sizes) {
            Some(want) => prop_assert_eq!(got.unwrap().to_vec(), want),
            None => prop_assert!(got.is_err()),
        }

        // take: negative indices count from the end.
        let numel = values.len() as i64;
        let got = view.take(&vector);
        let want: Option<Vec<i64>> = picks
            .iter()
            .map(|&i| {
                let at = if i < 0 { i + numel } else { i };
                (0..numel).contains(&at).then(|| values[at as usize])
            })
            .collect();
        match want {
            Some(want) => prop_assert_eq!(got.unwrap().to_vec(), want),
            None => prop_assert!(got.is_err()),
        }

        // take_along_dim: every index modulo the size; the index broadcasts
        // (size 1 off `dim` where `lens` says 0 or 1).
        let size = sizes[dim] as i64;
        let t_sizes: Vec<usize> = (0..rank)
            .map(|d| if d == dim { lens[d] } else if lens[d] <= 1 { 1 } else { sizes[d] })
            .collect();
        let t_n: usize = t_sizes.iter().product();
        let t_values: Vec<i64> = (0..t_n).map(|k| raw.get(k).copied().unwrap_or(0)).collect();
        let t_idx = DynTensor::<i64>::from_vec(t_values.clone(), &t_sizes).unwrap();
        let out_sizes: Vec<usize> = (0..rank).map(|d| if d == dim { lens[d] } else { sizes[d] }).collect();
        let wrapped: Vec<i64> = (0..out_sizes.iter().product::<usize>())
            .map(|flat| {
                let c: Vec<usize> = coords(flat, &out_sizes)
                    .iter()
                    .zip(&t_sizes)
                    .map(|(&k, &n)| if n == 1 { 0 } else { k })
                    .collect();
                t_values[position(&c, &t_sizes)].rem_euclid(size)
            })
            .collect();
        let got = view.take_along_dim(&t_idx, Some(dim as isize)).unwrap();
        prop_assert_eq!(got.shape(), &out_sizes[..]);
        let want = reference_gather(&values, &sizes, dim, &wrapped, &out_sizes).unwrap();
        prop_assert_eq!(got.to_vec(), want);
    }
}

/// Large operations split across threads and copied in blocks, against the
/// reference: `index_select` of rows (block copies) and of columns, and
/// `gather` along each dim of a transposed input.
#[test]
fn large_operations_match_the_reference() {
    let (rows, cols) = (700, 300);
    let x = DynTensor::<i64>::from_vec((0..(rows * cols) as i64).collect(), &[rows, cols]).unwrap();
    let values = x.to_vec();
    let picks: Vec<i64> = (0..1000).map(|k| (k * 7919) % rows as i64).collect();
    let idx = DynTensor::<i64>::from_vec(picks.clone(), &[1000]).unwrap();
    let got = x.index_select(0, &idx).unwrap().to_vec();
    for (r, &p) in picks.iter().enumerate() {
        assert_eq!(
            got[r * cols..(r + 1) * cols],
            values[p as usize * cols..(p as usize + 1) * cols]
        );
    }
    let cols_picked: Vec<i64> = picks.iter().map(|p| p % cols as i64).collect();
    let idx = DynTensor::<i64>::from_vec(cols_picked.clone(), &[1000]).unwrap();
    let got = x.index_select(1, &idx).unwrap().to_vec();
    for r in 0..rows {
        for (c, &p) in cols_picked.iter().enumerate() {
            assert_eq!(got[r * 1000 + c], values[r * cols + p as usize]);
        }
    }
    let xt = x.t().unwrap();
    let xt_values = xt.to_owned().to_vec();
    let shape = [cols, rows];
    for dim in 0..2 {
        let n = cols * rows;
        let raw: Vec<i64> = (0..n as i64)
            .map(|k| (k * 31) % shape[dim] as i64)
            .collect();
        let idx = DynTensor::<i64>::from_vec(raw.clone(), &shape).unwrap();
        let got = xt.gather(dim as isize, &idx).unwrap().to_vec();
        let want = reference_gather(&xt_values, &shape, dim, &raw, &shape).unwrap();
        assert_eq!(got, want, "gather along {dim}");
    }
    // A bad index far into a large operation is found, whichever thread
    // meets it, and the first in row-major order is reported.
    let mut raw = vec![0i64; rows * cols];
    raw[rows * cols - 5] = -3;
    raw[rows * cols - 1] = 999;
    let idx = DynTensor::<i64>::from_vec(raw, &[rows, cols]).unwrap();
    assert_eq!(
        x.gather(1, &idx).unwrap_err().to_string(),
        "index -3 is out of bounds for dimension 1 with size 300"
    );
}

/// The static forms give the dynamic forms' results.
#[test]
fn static_forms_match_the_dynamic_ones() {
    let x = Tensor::<f32, shape![4, 3]>::from_vec((0..12).map(|v| v as f32).collect()).unwrap();
    let dx = x.clone().into_dyn();
    let rows = Tensor::<i32, shape![5]>::from_vec(vec![3, 0, 0, 2, 1]).unwrap();
    let selected: Tensor<f32, shape![5, 3]> = x.index_select::<0>(&rows);
    assert_eq!(
        selected.to_vec(),
        dx.index_select(0, &rows).unwrap().to_vec()
    );
    let one = Tensor::<i64, shape![]>::from_vec(vec![2]).unwrap();
    let column: Tensor<f32, shape![4, 1]> = x.index_select::<1>(&one);
    assert_eq!(column.to_vec(), [2.0, 5.0, 8.0, 11.0]);

    let idx = Tensor::<i64, shape![2, 5]>::from_vec(vec![0, 1, 2, 2, 1, 3, 3, 0, 1, 2]).unwrap();
    let along_rows: Tensor<f32, shape![2, 3]> = x.gather::<0>(&idx.narrow::<1, 3>(0));
    assert_eq!(
        along_rows.to_vec(),
        dx.gather(0, &idx.narrow::<1, 3>(0)).unwrap().to_vec()
    );
    let wide: Tensor<f32, shape![2, 5]> = x.gather::<1>(&idx.clamp(0, 2));
    assert_eq!(
        wide.to_vec(),
        dx.gather(1, &idx.clamp(0, 2)).unwrap().to_vec()
    );
    assert_eq!(
        x.try_gather::<1>(&idx).unwrap_err().to_string(),
        "index 3 is out of bounds for dimension 1 with size 3"
    );

    let flat = Tensor::<i64, shape![2, 2]>::from_vec(vec![-1, 0, 11, -12]).unwrap();
    let taken: Tensor<f32, shape![2, 2]> = x.take(&flat);
    assert_eq!(taken.to_vec(), dx.take(&flat).unwrap().to_vec());

    let per_row = Tensor::<i64, shape![1, 2]>::from_vec(vec![2, -1]).unwrap();
    let along: Tensor<f32, shape![4, 2]> = x.take_along_dim::<1>(&per_row);
    assert_eq!(
        along.to_vec(),
        dx.take_along_dim(&per_row, Some(1)).unwrap().to_vec()
    );
    assert_eq!(along.to_vec(), [2.0, 2.0, 5.0, 5.0, 8.0, 8.0, 11.0, 11.0]);
}

proptest! {
    #![proptest_config(config(300))]

    /// `scatter_add`, `scatter_reduce` (amax, without self) and `put` with
    /// accumulation on permuted targets against a plain reference; a bad
    /// index leaves the target as it was.
    #[test]
    fn scatter_matches_the_reference((sizes, perm, dim, lens, raw) in case()) {
        let (base, inverse) = stored(&sizes, &perm);
        let rank = sizes.len();
        let idx_sizes: Vec<usize> = (0..rank)
            .map(|d| if d == dim { lens[d] } else { lens[d].min(sizes[d]) })
            .collect();
        let n: usize = idx_sizes.iter().product();
        let idx_values: Vec<i64> = (0..n).map(|k| raw.get(k).copied().unwrap_or(0)).collect();
        let idx = DynTensor::<i64>::from_vec(idx_values.clone(), &idx_sizes).unwrap();
        let src = DynTensor::<i64>::from_vec((0..n as i64).map(|v| v * 3 - 7).collect(), &idx_sizes).unwrap();
        let mut target = base.permute(&inverse).unwrap().clone();
        let before = target.to_vec();
        let in_range = idx_values.iter().all(|&i| (0..sizes[dim] as i64).contains(&i));
        let got = target.scatter_add_(dim as isize, &idx, &src);
        if !in_range {
            prop_assert!(got.is_err());
            prop_assert_eq!(target.to_vec(), before);
            return Ok(());
        }
        got.unwrap();
        let mut want = before.clone();
        let mut amax: Vec<Option<i64>> = vec![None; want.len()];
        for (flat, &i) in idx_values.iter().enumerate() {
            let mut c = coords(flat, &idx_sizes);
            c[dim] = i as usize;
            let p = position(&c, &sizes);
            want[p] += flat as i64 * 3 - 7;
            amax[p] = Some(amax[p].map_or(flat as i64 * 3 - 7, |m| m.max(flat as i64 * 3 - 7)));
        }
        prop_assert_eq!(target.to_vec(), want);
        let reduced = base.permute(&inverse).unwrap().scatter_reduce(dim as isize, &idx, &src, Reduce::Amax, false).unwrap();
        let want: Vec<i64> = before.iter().zip(&amax).map(|(&b, m)| m.unwrap_or(b)).collect();
        prop_assert_eq!(reduced.to_vec(), want);
        // put with accumulation: flat positions, negative from the end.
        let total = before.len() as i64;
        let flat: Vec<i64> = idx_values.iter().map(|&i| if i % 2 == 0 { i } else { -i - 1 }).collect();
        let fidx = DynTensor::<i64>::from_vec(flat.clone(), &[n]).unwrap();
        let got = base.permute(&inverse).unwrap().put(&fidx, &src, true).unwrap();
        let mut want = before.clone();
        for (k, &i) in flat.iter().enumerate() {
            let at = if i < 0 { i + total } else { i };
            want[at as usize] += k as i64 * 3 - 7;
        }
        prop_assert_eq!(got.to_vec(), want);
    }
}

/// The static scatters give the dynamic forms' results.
#[test]
fn static_scatters_match_the_dynamic_ones() {
    let x = Tensor::<f32, shape![3, 4]>::from_vec((0..12).map(|v| v as f32).collect()).unwrap();
    let idx = Tensor::<i64, shape![2, 4]>::from_vec(vec![0, 2, 2, 1, 1, 1, 0, 2]).unwrap();
    let src =
        Tensor::<f32, shape![2, 5]>::from_vec((0..10).map(|v| v as f32 * 0.5).collect()).unwrap();
    let dx = x.clone().into_dyn();
    let (di, ds) = (idx.clone().into_dyn(), src.clone().into_dyn());
    let added: Tensor<f32, shape![3, 4]> = x.scatter_add::<0>(&idx, &src);
    assert_eq!(
        added.to_vec(),
        dx.scatter_add(0, &di, &ds).unwrap().to_vec()
    );
    let written = x.scatter::<0>(&idx.narrow::<1, 1>(0), &src);
    assert_eq!(
        written.to_vec(),
        dx.scatter(0, &di.narrow(1, 0, 1).unwrap(), &ds)
            .unwrap()
            .to_vec()
    );
    for reduce in [
        Reduce::Sum,
        Reduce::Prod,
        Reduce::Mean,
        Reduce::Amax,
        Reduce::Amin,
    ] {
        for include_self in [true, false] {
            let s = x.scatter_reduce::<0>(&idx, &src, reduce, include_self);
            let d = dx
                .scatter_reduce(0, &di, &ds, reduce, include_self)
                .unwrap();
            assert_eq!(
                s.to_vec(),
                d.to_vec(),
                "{reduce:?}, include_self {include_self}"
            );
        }
    }
    let mut y = x.clone();
    y.scatter_add_::<0>(&idx, &src);
    assert_eq!(y.to_vec(), added.to_vec());
    let bad = Tensor::<i64, shape![2, 4]>::full(3);
    assert_eq!(
        y.try_scatter_add_::<0>(&bad, &src).unwrap_err().to_string(),
        "index 3 is out of bounds for dimension 0 with size 3"
    );
    assert_eq!(
        y.to_vec(),
        added.to_vec(),
        "a failed scatter leaves its tensor as it was"
    );
}

/// The static index_add and index_copy give the dynamic forms' results.
#[test]
fn static_index_writes_match_the_dynamic_ones() {
    let x = Tensor::<i32, shape![4, 3]>::from_vec((0..12).collect()).unwrap();
    let idx = Tensor::<i64, shape![2]>::from_vec(vec![3, 0]).unwrap();
    let src = Tensor::<i32, shape![4, 2]>::from_vec(vec![1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let (dx, di, ds) = (
        x.clone().into_dyn(),
        idx.clone().into_dyn(),
        src.clone().into_dyn(),
    );
    let added: Tensor<i32, shape![4, 3]> =
        x.index_add::<1>(&idx.narrow::<0, 2>(0).clamp(0, 2), &src, 3);
    let want = dx.index_add(1, &di.clamp(0, 2), &ds, 3).unwrap();
    assert_eq!(added.to_vec(), want.to_vec());
    let rows = Tensor::<i64, shape![2]>::from_vec(vec![2, 1]).unwrap();
    let src_rows = Tensor::<i32, shape![2, 3]>::full(-1);
    let copied = x.index_copy::<0>(&rows, &src_rows);
    assert_eq!(
        copied.to_vec(),
        dx.index_copy(0, &rows.clone().into_dyn(), &src_rows.clone().into_dyn())
            .unwrap()
            .to_vec()
    );
    let mut y = x.clone();
    y.index_copy_::<0>(&rows, &src_rows);
    assert_eq!(y.to_vec(), copied.to_vec());
    let far = Tensor::<i64, shape![2]>::from_vec(vec![2, 4]).unwrap();
    assert_eq!(
        y.try_index_copy_::<0>(&far, &src_rows)
            .unwrap_err()
            .to_string(),
        "index_copy_(): index 4 is out of bounds for dimension 0 with size 4"
    );
    assert_eq!(
        y.to_vec(),
        copied.to_vec(),
        "a failed index_copy_ leaves its tensor as it was"
    );
}

/// Advanced indexing against the reference on operations large enough for
/// the threads: `x[i, j]` of many pairs, `index_put_` with repeated pairs
/// (accumulating, and the last write winning in row-major order, which
/// the CPU promises: the threads split the target's storage by offset, not
/// the positions), reading from a transposed view.
#[test]
fn large_advanced_indexing_matches_the_reference() {
    let (rows, cols, n) = (37usize, 53usize, 300_000usize);
    let mut state = 7u64;
    let mut next = |bound: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % bound as u64) as i64
    };
    let ri: Vec<i64> = (0..n).map(|_| next(rows) - rows as i64 / 2).collect();
    let rj: Vec<i64> = (0..n).map(|_| next(cols)).collect();
    let values: Vec<i64> = (0..n).map(|_| next(1000)).collect();
    let i = DynTensor::<i64>::from_vec(ri.clone(), &[n]).unwrap();
    let j = DynTensor::<i32>::from_vec(rj.iter().map(|&v| v as i32).collect(), &[n]).unwrap();
    let v = DynTensor::<i64>::from_vec(values.clone(), &[n]).unwrap();
    let wrap = |r: i64| if r < 0 { r + rows as i64 } else { r } as usize;
    // x (rows, cols) stored transposed.
    let base: Vec<i64> = (0..(rows * cols) as i64).collect();
    let stored = DynTensor::<i64>::from_vec(base, &[cols, rows]).unwrap();
    let x = stored.t().unwrap();
    let read = x.index(&[Index::Tensor(&i), Index::Tensor(&j)]).unwrap();
    let logical = x.to_vec();
    let want: Vec<i64> = (0..n)
        .map(|k| logical[wrap(ri[k]) * cols + rj[k] as usize])
        .collect();
    assert_eq!(read.to_vec(), want);
    let mut sum = DynTensor::<i64>::zeros(&[rows, cols]);
    let mut last = sum.clone();
    sum.index_put_(&[&i, &j], &v, true).unwrap();
    last.index_put_(&[&i, &j], &v, false).unwrap();
    let (mut want_sum, mut want_last) = (vec![0i64; rows * cols], vec![0i64; rows * cols]);
    for k in 0..n {
        let at = wrap(ri[k]) * cols + rj[k] as usize;
        want_sum[at] += values[k];
        want_last[at] = values[k];
    }
    assert_eq!(sum.to_vec(), want_sum);
    assert_eq!(last.to_vec(), want_last);
}

/// `$x.index($typed)` (the compiler's shape) and `$x.index(&$listed)` (a
/// runtime shape) agree: both fail with the same text, or both give the
/// same sizes and elements.
macro_rules! same_as_listed {
    ($x:expr, $typed:expr, $listed:expr) => {{
        let typed = $x.index($typed);
        let listed = $x.index(&$listed);
        match (typed, listed) {
            (Ok(t), Ok(l)) => {
                assert_eq!(t.shape().as_ref(), l.shape().as_ref());
                assert_eq!(t.to_vec(), l.to_vec());
                Some(t)
            }
            (Err(t), Err(l)) => {
                assert_eq!(t.to_string(), l.to_string());
                None
            }
            (t, l) => panic!(
                "typed {:?} vs listed {:?}",
                t.map(|t| t.shape().to_vec()),
                l.map(|l| l.shape().to_vec())
            ),
        }
    }};
}

/// What a typed read gives: `None` where it fails.
type Read<S> = Option<Tensor<i64, S>>;

proptest! {
    #![proptest_config(config(200))]

    /// Typed advanced indexing (`x.index((&i, .., &j))`, the result shape
    /// computed by the compiler) against the list form and a plain
    /// reference, over every adjacency case, with indices in and out of
    /// range.
    #[test]
    fn typed_advanced_indexing_matches_the_list_form(
        vi in vec(-6i64..6, 6),
        vj in vec(-7i32..7, 3),
        bits in vec(any::<bool>(), 30),
        at in 0usize..5,
    ) {
        let x = Tensor::<i64, shape![4, 5, 6]>::from_vec((0..120).collect()).unwrap();
        let i = Tensor::<i64, shape![2, 3]>::from_vec(vi.clone()).unwrap();
        let j = Tensor::<i32, shape![3]>::from_vec(vj.clone()).unwrap();
        let mask = Tensor::<bool, shape![5, 6]>::from_vec(bits.clone()).unwrap();
        let wrap = |v: i64, n: usize| if v < 0 { v + n as i64 } else { v } as usize;
        let inside = |v: i64, n: usize| -(n as i64) <= v && v < n as i64;

        // x[i, :, j]: separated, the broadcast shape (2, 3) first.
        let got: Read<shape![2, 3, 5]> = same_as_listed!(
            x, (&i, .., &j), [Index::Tensor(&i), Index::Slice(..), Index::Tensor(&j)]);
        let fits = vi.iter().all(|&v| inside(v, 4)) && vj.iter().all(|&v| inside(v as i64, 6));
        prop_assert_eq!(got.is_some(), fits);
        if let Some(got) = got {
            let mut want = Vec::new();
            for a in 0..2 {
                for b in 0..3 {
                    for c in 0..5 {
                        want.push((wrap(vi[a * 3 + b], 4) * 30 + c * 6 + wrap(vj[b] as i64, 6)) as i64);
                    }
                }
            }
            prop_assert_eq!(got.to_vec(), want);
        }
        // x[:, i, j]: adjacent, in place.
        let _: Read<shape![4, 2, 3]> = same_as_listed!(
            x, (.., &i, &j), [Index::Slice(..), Index::Tensor(&i), Index::Tensor(&j)]);
        // x[i, at, j]: the integer separates nothing.
        let _: Read<shape![2, 3]> = same_as_listed!(
            x, (&i, at, &j), [Index::Tensor(&i), Index::Slice(at), Index::Tensor(&j)]);
        // x[..., j], x[None, i], x[i] and x[i, None, j].
        let _: Read<shape![4, 5, 3]> =
            same_as_listed!(x, (Ellipsis, &j), [Index::Ellipsis, Index::Tensor(&j)]);
        let _: Read<shape![1, 2, 3, 5, 6]> =
            same_as_listed!(x, (NewAxis, &i), [Index::NewAxis, Index::Tensor(&i)]);
        let _: Read<shape![2, 3, 5, 6]> = same_as_listed!(x, &i, [Index::Tensor(&i)]);
        let _: Read<shape![2, 3, 1, 5]> = same_as_listed!(
            x, (&i, NewAxis, .., &j), [Index::Tensor(&i), Index::NewAxis, Index::Slice(..), Index::Tensor(&j)]);
        // A range of runtime bounds keeps a `Dyn` dimension.
        let _: Read<(Dyn, Dec<2>, Dec<3>)> = same_as_listed!(
            x, (1..at as i64, &i, &j), [Index::Slice(1..at as i64), Index::Tensor(&i), Index::Tensor(&j)]);
        // A mask covers its two dimensions; x[:, mask] and x[at % 4, mask].
        let masked: Read<(Dec<4>, Dyn)> =
            same_as_listed!(x, (.., &mask), [Index::Slice(..), Index::Tensor(&mask)]);
        let count = bits.iter().filter(|&&b| b).count();
        prop_assert_eq!(masked.unwrap().shape(), [4, count]);
        let _: Read<(Dyn,)> =
            same_as_listed!(x, (at % 4, &mask), [Index::Slice(at % 4), Index::Tensor(&mask)]);
    }
}

/// A `DynTensor` takes the typed items too, and gives a runtime shape.
#[test]
fn typed_items_on_a_dyn_tensor_give_a_runtime_shape() {
    let x = DynTensor::<i64>::from_vec((0..24).collect(), &[2, 3, 4]).unwrap();
    let j = Tensor::<i64, shape![2]>::from_vec(vec![3, -4]).unwrap();
    let y: DynTensor<i64> = x.index((1, .., &j)).unwrap();
    assert_eq!(y.shape(), [3, 2]);
    assert_eq!(y.to_vec(), [15, 12, 19, 16, 23, 20]);
}
