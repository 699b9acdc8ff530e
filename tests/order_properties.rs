//! Property tests of the order statistics: `kthvalue`, `median_dim`,
//! `nanmedian_dim`, `mode` and the quantiles of the dynamic forms against
//! a plain reference (a stable sort with PyTorch's order: NaN above every
//! number, `-0.0` equal to `0.0`; quantiles interpolated in float64), on
//! random shapes (sizes 1 to 6, every dim, lines long enough for the
//! threads), and the static forms against the dynamic ones. Values and
//! indices agree exactly (this library picks the element at the `k`-th
//! place of the stable order, and the last occurrence for `mode`); the
//! linear quantiles within a few float32 roundings of the float64
//! reference.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::prelude::*;
use std::cmp::Ordering;

/// PyTorch's order of floats: NaN above all, -0.0 == 0.0.
fn order(a: f32, b: f32) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).unwrap(),
    }
}

/// The lines of row-major `x` along `dim`: each line's elements, the
/// lines in row-major order of the other dims.
fn lines(x: &[f32], sizes: &[usize], dim: usize) -> Vec<Vec<f32>> {
    let n = sizes[dim];
    let inner: usize = sizes[dim + 1..].iter().product();
    let outer: usize = sizes[..dim].iter().product();
    let mut out = Vec::new();
    for o in 0..outer {
        for i in 0..inner {
            out.push((0..n).map(|k| x[o * n * inner + k * inner + i]).collect());
        }
    }
    out
}

/// The positions of `line` in stable ascending order.
fn stable_order(line: &[f32]) -> Vec<usize> {
    let mut ks: Vec<usize> = (0..line.len()).collect();
    ks.sort_by(|&a, &b| order(line[a], line[b]));
    ks
}

/// The reference statistic of one line: its position.
fn reference(line: &[f32], op: &str, k: usize) -> usize {
    let sorted = stable_order(line);
    let numbers = line.iter().filter(|v| !v.is_nan()).count();
    match op {
        "kthvalue" => sorted[k - 1],
        "median" if numbers < line.len() => line.iter().position(|v| v.is_nan()).unwrap(),
        "median" => sorted[(line.len() - 1) / 2],
        "nanmedian" if numbers == 0 => 0,
        "nanmedian" => sorted[(numbers - 1) / 2],
        "mode" => {
            // The smallest of the most frequent values, at its last place.
            let mut best = (0, 0);
            let mut start = 0;
            while start < sorted.len() {
                let mut end = start;
                while end < sorted.len() && order(line[sorted[end]], line[sorted[start]]).is_eq() {
                    end += 1;
                }
                let last = *sorted[start..end].iter().max().unwrap();
                if end - start > best.1 {
                    best = (last, end - start);
                }
                start = end;
            }
            best.0
        }
        op => panic!("{op}"),
    }
}

fn case() -> impl Strategy<Value = (Vec<usize>, usize, Vec<f32>)> {
    (
        vec(1usize..7, 1..4),
        any::<prop::sample::Index>(),
        0usize..4,
        1usize..300,
    )
        .prop_flat_map(|(mut sizes, dim, long, factor)| {
            let dim = dim.index(sizes.len());
            if long == 0 {
                sizes[dim] *= factor;
            }
            let n: usize = sizes.iter().product();
            // Few distinct values (ties), signed zeros and NaNs.
            let value = prop_oneof![
                8 => (-4i32..4).prop_map(|v| v as f32 * 0.5),
                1 => Just(-0.0f32),
                1 => Just(f32::NAN),
                1 => -1e6f32..1e6,
            ];
            (Just(sizes), Just(dim), vec(value, n))
        })
}

/// Bit-equal, NaN equal to NaN.
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn selections_pick_the_stable_orders_element((sizes, dim, x) in case(), k in any::<prop::sample::Index>()) {
        let t = DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap();
        let k = k.index(sizes[dim]) + 1;
        let lines = lines(&x, &sizes, dim);
        for op in ["kthvalue", "median", "nanmedian", "mode"] {
            let (values, indices) = match op {
                "kthvalue" => t.kthvalue(k as isize, dim as isize, false),
                "median" => t.median_dim(dim as isize, false),
                "nanmedian" => t.nanmedian_dim(dim as isize, false),
                _ => t.mode(dim as isize, false),
            }
            .unwrap();
            let want: Vec<usize> = lines.iter().map(|l| reference(l, op, k)).collect();
            let want_values: Vec<f32> = lines.iter().zip(&want).map(|(l, &i)| l[i]).collect();
            let got: Vec<usize> = indices.to_vec().iter().map(|&i| i as usize).collect();
            prop_assert_eq!(&got, &want, "{} indices", op);
            prop_assert!(same_bits(&values.to_vec(), &want_values), "{} values", op);
        }
    }

    #[test]
    fn quantiles_interpolate_the_sorted_line((sizes, dim, x) in case(), q in 0.0f64..=1.0) {
        let t = DynTensor::<f32>::from_vec(x.clone(), &sizes).unwrap();
        let lines = lines(&x, &sizes, dim);
        for ignore_nan in [false, true] {
            let got = match ignore_nan {
                false => t.quantile(q, Some(dim as isize), false, Interpolation::Linear),
                true => t.nanquantile(q, Some(dim as isize), false, Interpolation::Linear),
            }
            .unwrap()
            .to_vec();
            for (line, got) in lines.iter().zip(&got) {
                let mut numbers: Vec<f64> =
                    line.iter().filter(|v| !v.is_nan()).map(|&v| v as f64).collect();
                numbers.sort_by(|a, b| a.partial_cmp(b).unwrap());
                let nan = (!ignore_nan && numbers.len() < line.len()) || numbers.is_empty();
                if nan {
                    prop_assert!(got.is_nan());
                    continue;
                }
                let rank = (q as f32 as f64) * (numbers.len() - 1) as f64;
                let (lo, hi) = (numbers[rank.floor() as usize], numbers[rank.ceil() as usize]);
                let want = lo + (hi - lo) * (rank - rank.floor());
                let scale = lo.abs().max(hi.abs());
                prop_assert!(
                    ((*got as f64) - want).abs() <= 4.0 * f32::EPSILON as f64 * scale,
                    "{got} vs {want}"
                );
            }
        }
    }
}

/// The static forms give the dynamic forms' tensors, bit for bit.
#[test]
fn static_forms_match_the_dynamic_ones() {
    let data: Vec<f32> = (0..28)
        .map(|i| match i % 9 {
            4 => f32::NAN,
            7 => -0.0,
            _ => ((i * 37) % 11) as f32 * 0.5 - 2.0,
        })
        .collect();
    let x = Tensor::<f32, shape![4, 7]>::from_vec(data.clone()).unwrap();
    let d = DynTensor::<f32>::from_vec(data, &[4, 7]).unwrap();
    let (v, i) = x.kthvalue::<3, 1>();
    let (dv, di) = d.kthvalue(3, 1, false).unwrap();
    assert!(same_bits(&v.to_vec(), &dv.to_vec()));
    assert_eq!(i.to_vec(), di.to_vec());
    let (v, i) = x.median_dim::<0>();
    let (dv, di) = d.median_dim(0, false).unwrap();
    assert!(same_bits(&v.to_vec(), &dv.to_vec()));
    assert_eq!(i.to_vec(), di.to_vec());
    let (v, i) = x.nanmedian_keepdim::<1>();
    let (dv, di) = d.nanmedian_dim(1, true).unwrap();
    assert_eq!(&v.shape()[..], &dv.shape()[..]);
    assert!(same_bits(&v.to_vec(), &dv.to_vec()));
    assert_eq!(i.to_vec(), di.to_vec());
    let (v, i) = x.mode::<1>();
    let (dv, di) = d.mode(1, false).unwrap();
    assert!(same_bits(&v.to_vec(), &dv.to_vec()));
    assert_eq!(i.to_vec(), di.to_vec());
    let (v, i) = x.topk::<2, 1>();
    let (dv, di) = d.topk(2, 1, true, true).unwrap();
    assert!(same_bits(&v.to_vec(), &dv.to_vec()));
    assert_eq!(i.to_vec(), di.to_vec());
    let q = x.nanquantile_dim::<1>(0.3, Interpolation::Nearest);
    let dq = d
        .nanquantile(0.3, Some(1), false, Interpolation::Nearest)
        .unwrap();
    assert!(same_bits(&q.to_vec(), &dq.to_vec()));
    assert!(same_bits(
        &[x.nanmedian().to_vec()[0]],
        &d.nanmedian().unwrap().to_vec()
    ));
    assert!(x.median().to_vec()[0].is_nan());
}
