//! Property tests of the matrix products: the dynamic form, the static
//! form and a plain triple loop written here agree, on random shapes
//! (every rank pairing from 1 to 4, sizes 0 to 5, broadcast batches, often
//! mismatched), random values and random layouts (an operand may be a
//! transposed view).
//!
//! Values are small integers, so every product is exact in f32 and f64
//! too: the floating kernels (gemm) are compared exactly with the integer
//! reference.

use proptest::collection::vec;
use proptest::prelude::*;
use shaped::ops::matmul::MatmulElement;
use shaped::prelude::*;

mod reference {
    /// Broadcast of two batch shapes, or `None` when they clash.
    fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
        let rank = a.len().max(b.len());
        let size = |s: &[usize], i: usize| {
            let from_end = rank - i;
            if from_end <= s.len() {
                s[s.len() - from_end]
            } else {
                1
            }
        };
        (0..rank)
            .map(|i| match (size(a, i), size(b, i)) {
                (x, y) if x == y || y == 1 => Some(x),
                (1, y) => Some(y),
                _ => None,
            })
            .collect()
    }

    /// The row-major index of `index` in `sizes`, where a size-1 dimension
    /// is stretched (its index is 0) and missing leading ones are skipped.
    fn broadcast_index(index: &[usize], sizes: &[usize]) -> usize {
        let skip = index.len() - sizes.len();
        sizes
            .iter()
            .zip(&index[skip..])
            .fold(0, |acc, (&s, &i)| acc * s + if s == 1 { 0 } else { i })
    }

    /// `torch.matmul` of row-major `a` and `b`: the product's sizes and
    /// values, or `None` when the shapes do not multiply.
    pub fn matmul(
        a: &[i64],
        sa: &[usize],
        b: &[i64],
        sb: &[usize],
    ) -> Option<(Vec<usize>, Vec<i64>)> {
        if sa.is_empty() || sb.is_empty() {
            return None;
        }
        let (m, k) = if sa.len() == 1 {
            (1, sa[0])
        } else {
            (sa[sa.len() - 2], sa[sa.len() - 1])
        };
        let (k2, n) = if sb.len() == 1 {
            (sb[0], 1)
        } else {
            (sb[sb.len() - 2], sb[sb.len() - 1])
        };
        if k != k2 {
            return None;
        }
        let batch_a = &sa[..sa.len().saturating_sub(2)];
        let batch_b = &sb[..sb.len().saturating_sub(2)];
        let batch = broadcast(batch_a, batch_b)?;
        let count: usize = batch.iter().product();
        let mut out = Vec::new();
        for flat in 0..count {
            let mut index = vec![0; batch.len()];
            let mut rest = flat;
            for (i, &s) in batch.iter().enumerate().rev() {
                index[i] = rest % s;
                rest /= s;
            }
            let a0 = broadcast_index(&index, batch_a) * m * k;
            let b0 = broadcast_index(&index, batch_b) * k * n;
            for i in 0..m {
                for j in 0..n {
                    let mut acc = 0i64;
                    for p in 0..k {
                        acc += a[a0 + i * k + p] * b[b0 + p * n + j];
                    }
                    out.push(acc);
                }
            }
        }
        let mut sizes = batch;
        if sa.len() > 1 {
            sizes.push(m);
        }
        if sb.len() > 1 {
            sizes.push(n);
        }
        Some((sizes, out))
    }
}

/// Row-major values of `sizes` with the last two dimensions swapped.
fn swap_last_two(values: &[i64], sizes: &[usize]) -> Vec<i64> {
    let r = sizes.len();
    let (rows, cols) = (sizes[r - 2], sizes[r - 1]);
    let mut out = vec![0; values.len()];
    if values.is_empty() {
        return out;
    }
    for (block, chunk) in values.chunks(rows * cols).enumerate() {
        for i in 0..rows {
            for j in 0..cols {
                out[block * rows * cols + j * rows + i] = chunk[i * cols + j];
            }
        }
    }
    out
}

/// `values` of `sizes` as a `DynTensor<T>`: contiguous, or (`transposed`,
/// rank >= 2) a transposed view of a tensor stored the other way round.
fn operand<T: MatmulElement>(
    values: &[i64],
    sizes: &[usize],
    transposed: bool,
    convert: fn(i64) -> T,
) -> DynTensor<T> {
    if transposed && sizes.len() >= 2 {
        let r = sizes.len();
        let mut stored = sizes.to_vec();
        stored.swap(r - 2, r - 1);
        let data = swap_last_two(values, sizes)
            .into_iter()
            .map(convert)
            .collect();
        let t = DynTensor::from_vec(data, &stored).unwrap();
        // `clone` keeps the view's (transposed) strides.
        return t.transpose(-2, -1).unwrap().clone();
    }
    DynTensor::from_vec(values.iter().copied().map(convert).collect(), sizes).unwrap()
}

/// The product through the dynamic API, as row-major i64 values.
fn dynamic<T: MatmulElement>(
    case: &Case,
    convert: fn(i64) -> T,
    back: fn(T) -> i64,
) -> Result<(Vec<usize>, Vec<i64>), String> {
    let a = operand(&case.a, &case.sa, case.a_transposed, convert);
    let b = operand(&case.b, &case.sb, case.b_transposed, convert);
    a.matmul(&b)
        .map(|t| {
            (
                t.shape().to_vec(),
                t.to_vec().into_iter().map(back).collect(),
            )
        })
        .map_err(|e| e.to_string())
}

#[derive(Clone, Debug)]
struct Case {
    sa: Vec<usize>,
    sb: Vec<usize>,
    a: Vec<i64>,
    b: Vec<i64>,
    a_transposed: bool,
    b_transposed: bool,
}

/// Shape pairs that mostly multiply: a batch, then the matrix sizes, with
/// the inner size shared three times in four and batch sizes often 1.
fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    let batch = vec(prop_oneof![Just(1usize), 0usize..4], 0..3);
    (
        1usize..=2,
        1usize..=2,
        batch.clone(),
        batch,
        0usize..6,
        0usize..6,
        0usize..6,
        0usize..6,
        0..4,
    )
        .prop_map(|(ra, rb, ba, bb, m, k, n, k_other, mismatch)| {
            let k2 = if mismatch == 0 { k_other } else { k };
            let mut sa = if ra == 1 {
                vec![k]
            } else {
                [ba, vec![m, k]].concat()
            };
            let sb = if rb == 1 {
                vec![k2]
            } else {
                [bb, vec![k2, n]].concat()
            };
            if sa.len() > 4 {
                sa.truncate(4);
            }
            (sa, sb)
        })
}

fn cases() -> impl Strategy<Value = Case> {
    shapes().prop_flat_map(|(sa, sb)| {
        let na: usize = sa.iter().product();
        let nb: usize = sb.iter().product();
        (
            vec(-4i64..5, na),
            vec(-4i64..5, nb),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(move |(a, b, a_transposed, b_transposed)| Case {
                sa: sa.clone(),
                sb: sb.clone(),
                a,
                b,
                a_transposed,
                b_transposed,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// Every dtype family (gemm's f32/f64/complex, the widened half types,
    /// the integer loop) gives the reference's sizes and values, or an
    /// error exactly where the reference has none.
    #[test]
    fn dynamic_matmul_matches_the_reference(case in cases()) {
        let want = reference::matmul(&case.a, &case.sa, &case.b, &case.sb);
        let outcomes = [
            dynamic::<i64>(&case, |x| x, |x| x),
            dynamic::<i32>(&case, |x| x as i32, i64::from),
            dynamic::<f32>(&case, |x| x as f32, |x| x as i64),
            dynamic::<f64>(&case, |x| x as f64, |x| x as i64),
            dynamic::<num_complex::Complex<f32>>(
                &case,
                |x| num_complex::Complex::new(x as f32, 0.0),
                |z| z.re as i64,
            ),
            dynamic::<half::f16>(&case, |x| half::f16::from_f64(x as f64), |x| x.to_f64() as i64),
        ];
        for got in outcomes {
            match (&want, got) {
                (Some(w), Ok(g)) => prop_assert_eq!(w, &g),
                (None, Err(_)) => {}
                (w, g) => prop_assert!(false, "reference {:?}, shaped {:?}", w, g),
            }
        }
    }

    /// Complex products with imaginary parts (`x + (2x - 1)i`), over
    /// transposed and batched operands: the reference's four real products
    /// (`re = ar br - ai bi`, `im = ar bi + ai br`), each result element
    /// encoded as `re * 10^6 + im`. Both complex types, and both orders of
    /// the kernel's operands (`n > 1` computes `b^T a^T`).
    #[test]
    fn complex_matmul_matches_four_real_products(case in cases()) {
        let imag = |v: &[i64]| v.iter().map(|&x| 2 * x - 1).collect::<Vec<_>>();
        let (ai, bi) = (imag(&case.a), imag(&case.b));
        let product = |a: &[i64], b: &[i64]| reference::matmul(a, &case.sa, b, &case.sb);
        let want = match (product(&case.a, &case.b), product(&ai, &bi), product(&case.a, &bi), product(&ai, &case.b)) {
            (Some((sizes, rr)), Some((_, ii)), Some((_, ri)), Some((_, ir))) => Some((
                sizes,
                (0..rr.len()).map(|i| (rr[i] - ii[i]) * 1_000_000 + ri[i] + ir[i]).collect::<Vec<_>>(),
            )),
            _ => None,
        };
        let outcomes = [
            dynamic::<num_complex::Complex<f32>>(
                &case,
                |x| num_complex::Complex::new(x as f32, (2 * x - 1) as f32),
                |z| z.re as i64 * 1_000_000 + z.im as i64,
            ),
            dynamic::<num_complex::Complex<f64>>(
                &case,
                |x| num_complex::Complex::new(x as f64, (2 * x - 1) as f64),
                |z| z.re as i64 * 1_000_000 + z.im as i64,
            ),
        ];
        for got in outcomes {
            match (&want, got) {
                (Some(w), Ok(g)) => prop_assert_eq!(w, &g),
                (None, Err(_)) => {}
                (w, g) => prop_assert!(false, "reference {:?}, shaped {:?}", w, g),
            }
        }
    }
}

/// One static pair: the static product equals the dynamic one and the
/// reference.
macro_rules! static_pair {
    ($name:ident, $a:ty, $b:ty) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
            #[test]
            fn $name(
                a in vec(-4i64..5, <$a as shaped::shape::FixedShape>::NUMEL),
                b in vec(-4i64..5, <$b as shaped::shape::FixedShape>::NUMEL),
            ) {
                let ta = Tensor::<f32, $a>::from_vec(a.iter().map(|&x| x as f32).collect()).unwrap();
                let tb = Tensor::<f32, $b>::from_vec(b.iter().map(|&x| x as f32).collect()).unwrap();
                let product = ta.matmul(&tb);
                let dynamic = ta.clone().into_dyn().matmul(&tb.clone().into_dyn()).unwrap();
                let sa = <$a as shaped::shape::FixedShape>::SIZES;
                let sb = <$b as shaped::shape::FixedShape>::SIZES;
                let (sizes, values) = reference::matmul(&a, &sa, &b, &sb).unwrap();
                prop_assert_eq!(product.shape().to_vec(), sizes.clone());
                prop_assert_eq!(dynamic.shape().to_vec(), sizes.clone());
                let got: Vec<i64> = product.to_vec().into_iter().map(|x| x as i64).collect();
                prop_assert_eq!(&got, &values);
                prop_assert_eq!(product.to_vec(), dynamic.to_vec());
                // The transposed view of a transposed copy is the same operand.
                let tb_t = tb.mt().contiguous();
                prop_assert_eq!(ta.matmul(&tb_t.mt()).to_vec(), product.to_vec());
            }
        }
    };
}
static_pair!(
    static_matrix_matrix,
    shaped::shape![3, 4],
    shaped::shape![4, 2]
);
static_pair!(
    static_batch_matrix,
    shaped::shape![2, 3, 4],
    shaped::shape![4, 5]
);
static_pair!(
    static_matrix_batch,
    shaped::shape![3, 4],
    shaped::shape![2, 4, 5]
);
static_pair!(
    static_broadcast_batches,
    shaped::shape![2, 1, 3, 4],
    shaped::shape![3, 4, 2]
);
static_pair!(
    static_row_batch,
    shaped::shape![1, 4],
    shaped::shape![2, 4, 3]
);

#[test]
fn static_vector_forms_match_dynamic() {
    let v = Tensor::<i64, shaped::shape![4]>::from_vec(vec![1, -2, 3, 4]).unwrap();
    let m = Tensor::<i64, shaped::shape![3, 4]>::from_vec((0..12).collect()).unwrap();
    let vd = v.clone().into_dyn();
    let md = m.clone().into_dyn();
    assert_eq!(v.matmul(&v).to_vec(), vd.matmul(&vd).unwrap().to_vec());
    assert_eq!(v.dot(&v).to_vec(), vec![30]);
    assert_eq!(m.matmul(&v).to_vec(), md.mv(&vd).unwrap().to_vec());
    assert_eq!(m.mv(&v).to_vec(), vec![16, 40, 64]);
    assert_eq!(
        v.matmul(&m.mt()).to_vec(),
        vd.matmul(&md.mt().unwrap()).unwrap().to_vec()
    );
}

#[test]
fn a_dyn_size_that_does_not_fit_panics_with_pytorchs_text() {
    let a = Tensor::<f32, shaped::shape![2, Dyn]>::zeros_with(&[2, 4]);
    let b = Tensor::<f32, shaped::shape![3, 5]>::zeros();
    let err = std::panic::catch_unwind(|| a.matmul(&b)).unwrap_err();
    assert_eq!(
        err.downcast_ref::<String>().unwrap(),
        "mm: mat1 and mat2 shapes cannot be multiplied (2x4 and 3x5)"
    );
}
