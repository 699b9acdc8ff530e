//! (A module of `pairs_fixtures`: one test binary for the pointwise
//! catalogue's functions of two and three operands.)
//!
//! The pointwise functions of three operands checked against PyTorch
//! 2.15.0 (`tests/fixtures/ternary.json`, written by
//! `scripts/fixtures/ternary.py`): `lerp` (with a weight tensor or a
//! number), `addcmul` and `addcdiv`, out of place and in place (`lerp_`,
//! `addcmul_`, `addcdiv_` on a clone), on every floating and complex dtype
//! over grids of edge values broadcast as a column against a row against a
//! third shape (±0, ±inf, NaN, subnormals, 3e38, 1e300; weights 0.5, -0.5,
//! 0.49999997, 1, 0, 2, -1), random values in runs of 64 (PyTorch's
//! vectorized loop) and of 5 (its scalar loop), number weights and values
//! of every kind, weight tensors and ends of another dtype, integer and
//! bool operands (integer `addcmul` wraps; lerp and bool `addcmul` and
//! integer `addcdiv` are refused), mixed dtypes, empty and rank-0
//! operands, shape mismatches, and in-place results that do not fit self's
//! shape or dtype.
//!
//! Result dtypes, shapes, integers, NaN, infinities and zeros (with their
//! signs) are exact, and so are finite real values: `shaped` computes
//! `lerp` as `fma(w, end - start, start)` for `|w| < 0.5`, else
//! `fma(w - 1, end - start, end)`, `addcmul` as `fma(value * t1, t2,
//! self)` and `addcdiv` as `self + (value * t1) / t2`, float16 and
//! bfloat16 in float32 rounded once, and these formulas give PyTorch's
//! values bit for bit: checked with exact rational arithmetic on every
//! real result of the fixture file (about 26,000 values, float16,
//! bfloat16, float32 and float64, the runs of 64 and of 5, the grids, the
//! in-place float32 results computed in float64 from float64 operands).
//! PyTorch's scalar loops are compiled with the same contractions into
//! fused multiply-adds as its vectorized ones (`a + b * c` unfused differs
//! in about 1 of 5 random float32 and float64 elements); `addcdiv`'s
//! `(value * t1) / t2` is not `value * (t1 / t2)`. The one exception, in
//! [`zero_sign_free`]: a zero `lerp` at a weight of exactly 1, whose sign
//! PyTorch's two loops give differently.
//!
//! Complex results: each part within [`COMPLEX_EPSILONS`] epsilons of the
//! magnitudes summed ([`scale`]); NaN, infinities exactly.
//!
//! Each case runs through `AnyTensor`.

use std::cell::Cell;

use super::common::number;
use super::common::tensors::{Outcome, any_of, any_outcome, check_elementwise_cases, ints};
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("../fixtures/ternary.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// A number argument (`weight`, `value`) as the [`Scalar`] of its kind: a
/// JSON integer an `Int`, a float (or "nan", "inf", "-inf") a `Float`,
/// `{"re", "im"}` a `Complex`.
fn number_arg(v: &Value) -> Scalar {
    match v {
        Value::Object(_) => Scalar::Complex(number(&v["re"]), number(&v["im"])),
        Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap()),
        other => Scalar::Float(number(other)),
    }
}

/// The case on `AnyTensor`: out of place, or in place on a clone of `a`
/// (the result is the mutated clone).
fn run(case: &Value) -> Result<AnyTensor, String> {
    let (a, b) = (any_of(&case["a"]), any_of(&case["b"]));
    let c = case.get("c").map(any_of);
    let in_place = case["in_place"].as_bool().unwrap();
    let result = match case["op"].as_str().unwrap() {
        "lerp" => match (&c, in_place) {
            (Some(w), false) => a.try_lerp(&b, w),
            (None, false) => a.try_lerp(&b, number_arg(&case["weight"])),
            (Some(w), true) => {
                let mut x = a.clone();
                x.try_lerp_(&b, w).map(|()| x)
            }
            (None, true) => {
                let mut x = a.clone();
                x.try_lerp_(&b, number_arg(&case["weight"])).map(|()| x)
            }
        },
        op @ ("addcmul" | "addcdiv") => {
            let t2 = c.as_ref().expect("addcmul and addcdiv have a `c`");
            let value = number_arg(&case["value"]);
            match (op, in_place) {
                ("addcmul", false) => a.try_addcmul(&b, t2, value),
                ("addcdiv", false) => a.try_addcdiv(&b, t2, value),
                ("addcmul", true) => {
                    let mut x = a.clone();
                    x.try_addcmul_(&b, t2, value).map(|()| x)
                }
                _ => {
                    let mut x = a.clone();
                    x.try_addcdiv_(&b, t2, value).map(|()| x)
                }
            }
        }
        op => panic!("unknown op {op}"),
    };
    result.map_err(|e| e.to_string())
}

/// An operand of a case, read where it broadcasts to the result.
struct Broadcast {
    values: Vec<Scalar>,
    sizes: Vec<usize>,
}

impl Broadcast {
    fn of(t: &Value) -> Broadcast {
        let o = any_outcome(&any_of(t));
        Broadcast {
            values: o.values,
            sizes: o.sizes,
        }
    }

    /// The element that lands at row-major index `i` of a result of shape
    /// `result` (dims aligned from the right; size-1 dims repeat).
    fn at(&self, result: &[usize], mut i: usize) -> Scalar {
        let (mut flat, mut stride) = (0, 1);
        for (back, &n) in result.iter().rev().enumerate() {
            let coordinate = i % n;
            i /= n;
            if back < self.sizes.len() {
                let m = self.sizes[self.sizes.len() - 1 - back];
                if m != 1 {
                    flat += coordinate * stride;
                }
                stride *= m;
            }
        }
        self.values[flat]
    }
}

fn magnitude(s: Scalar) -> f64 {
    match s {
        Scalar::Bool(b) => f64::from(u8::from(b)),
        Scalar::Int(i) => (i as f64).abs(),
        Scalar::Float(x) => x.abs(),
        Scalar::Complex(re, im) => re.hypot(im),
    }
}

/// The operands of a case, each read at an element of the result.
struct Operands {
    op: String,
    result: Vec<usize>,
    a: Broadcast,
    b: Broadcast,
    c: Option<Broadcast>,
    /// `weight` or `value`.
    number: Option<Scalar>,
}

impl Operands {
    fn of(case: &Value) -> Operands {
        Operands {
            op: case["op"].as_str().unwrap().to_string(),
            result: ints(&case["result"]["sizes"]),
            a: Broadcast::of(&case["a"]),
            b: Broadcast::of(&case["b"]),
            c: case.get("c").map(Broadcast::of),
            number: case.get("weight").or(case.get("value")).map(number_arg),
        }
    }

    /// The third operand (lerp's weight, addcmul's and addcdiv's `t2`) or
    /// the number at element `i`.
    fn third(&self, i: usize) -> Scalar {
        match &self.c {
            Some(c) => c.at(&self.result, i),
            None => self.number.expect("a number weight"),
        }
    }
}

/// Where PyTorch's scalar loop and its vectorized loop disagree, on the
/// sign of a zero: `lerp` at a weight of exactly 1 computes `end - (end -
/// start) * (1 - w)` in the scalar loop (a fused `fma(-(end - start), 1 -
/// w, end)`) and `fma(w - 1, end - start, end)` in the vectorized loop;
/// `1 - w` and `w - 1` are both +0 there, so the products are zeros of
/// opposite signs and an `end` of -0 gives +0 in one loop and -0 in the
/// other (`lerp(0.0, -0.0, 1.0)` is 0.0 on PyTorch's edge grids, which
/// run the scalar loop, and -0.0 in `shaped`). Any other value is exact.
fn zero_sign_free(operands: &Operands, i: usize) -> bool {
    let weight = match operands.third(i) {
        Scalar::Float(w) => Some(w),
        Scalar::Complex(w, 0.0) => Some(w),
        _ => None,
    };
    operands.op == "lerp" && weight == Some(1.0)
}

/// The magnitudes a complex result sums at element `i`: the result's, and
/// those of the terms of the formula (`lerp`: `(|start| + |end|)(2 +
/// |w|)`, which bounds `start`, `end` and `(w or w - 1)(end - start)`;
/// `addcmul`: `|self| + |value| |t1| |t2|`; `addcdiv`: `|self| + |value|
/// |t1| / |t2|`). PyTorch's parts are within 1.1 epsilons of it from a
/// textbook complex multiply and divide on every finite case of the file
/// (its own error against the exact result: within 0.95); relative to the
/// result's magnitude alone they are not (6.8 epsilons where the terms
/// cancel).
fn scale(operands: &Operands, i: usize, result: f64) -> f64 {
    let (a, b, c) = (
        magnitude(operands.a.at(&operands.result, i)),
        magnitude(operands.b.at(&operands.result, i)),
        magnitude(operands.third(i)),
    );
    let terms = match operands.op.as_str() {
        "lerp" => (a + b) * (2.0 + c),
        "addcmul" => a + magnitude(operands.number.unwrap()) * b * c,
        _ => a + magnitude(operands.number.unwrap()) * b / c,
    };
    terms.max(result)
}

/// Complex parts within this many epsilons of [`scale`]: PyTorch's
/// vectorized complex multiply (its own arrangement of the products and
/// sums, without the fused multiply-adds of the real kernels) and
/// division (Smith's algorithm, scaled), and `shaped`'s, each round
/// differently.
const COMPLEX_EPSILONS: f64 = 4.0;

/// Within the tolerance: reals exactly (NaN with NaN, zeros with their
/// signs but where [`zero_sign_free`]), complex parts within
/// [`COMPLEX_EPSILONS`] of [`scale`] (NaN, infinities exactly), integers
/// and bools exactly. `element`: the index in the result of the one
/// element compared, where the check writes a failure's line.
fn close(case: &Value, got: &Outcome, want: &Outcome, element: Option<usize>) -> bool {
    if got.dtype != want.dtype || got.sizes != want.sizes || got.values.len() != want.values.len() {
        return false;
    }
    let operands = Operands::of(case);
    let epsilon = if want.dtype == DType::C64 {
        f64::from(f32::EPSILON)
    } else {
        f64::EPSILON
    };
    let exact = |g: f64, w: f64| (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits();
    got.values
        .iter()
        .zip(&want.values)
        .enumerate()
        .all(|(k, (g, w))| {
            let i = element.unwrap_or(k);
            match (*g, *w) {
                (Scalar::Float(g), Scalar::Float(w)) => {
                    exact(g, w) || (g == 0.0 && w == 0.0 && zero_sign_free(&operands, i))
                }
                (Scalar::Complex(a, b), Scalar::Complex(c, d)) => {
                    let limit = COMPLEX_EPSILONS * epsilon * scale(&operands, i, c.hypot(d));
                    let part = |g: f64, w: f64| {
                        exact(g, w)
                            || (g.is_finite()
                                && w.is_finite()
                                && limit.is_finite()
                                && (g - w).abs() <= limit)
                    };
                    part(a, c) && part(b, d)
                }
                (g, w) => g == w,
            }
        })
}

#[test]
fn ternary_functions_match_pytorch() {
    let cases = cases();
    assert!(cases.len() >= 500, "the fixture file lost its cases");
    let ran = Cell::new(0usize);
    check_elementwise_cases(
        &cases,
        |case| {
            ran.set(ran.get() + 1);
            run(case)
        },
        close,
    );
    assert_eq!(ran.get(), cases.len(), "every case runs once");
    // Each op, out of place and in place, with values and with errors.
    for op in ["lerp", "addcmul", "addcdiv"] {
        for in_place in [false, true] {
            for outcome in ["result", "error"] {
                assert!(
                    cases.iter().any(|c| c["op"] == op
                        && c["in_place"] == in_place
                        && c.get(outcome).is_some()),
                    "no {op} case (in place: {in_place}) with a {outcome}"
                );
            }
        }
    }
}

/// `AnyTensor`'s result as `f64`s (to compare with a typed result).
fn values_f64(x: &AnyTensor) -> Vec<f64> {
    x.to_scalars()
        .into_iter()
        .map(|s| match s {
            Scalar::Float(v) => v,
            Scalar::Int(i) => i as f64,
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

/// The typed forms (static shapes, `DynTensor`, views, in place) give
/// `AnyTensor`'s bits, on a transposed (non-contiguous) operand too.
#[test]
fn typed_forms_agree_with_any_tensor() {
    let data = |seed: usize, n: usize| -> Vec<f32> {
        (0..n)
            .map(|i| (((i * 7919 + seed * 104729) % 2000) as f32) * 0.01 - 10.0)
            .collect()
    };
    let a = Tensor::<f32, shape![3, 4]>::from_vec(data(1, 12)).unwrap();
    let b = Tensor::<f32, shape![4, 3]>::from_vec(data(2, 12)).unwrap();
    let bt = b.t(); // (3, 4), transposed
    let w = Tensor::<f32, shape![4]>::from_vec(vec![0.0, 0.3, 0.5, 1.25]).unwrap();
    let any = |x: Vec<f32>, shape: &[usize]| {
        AnyTensor::from(DynTensor::<f32>::from_vec(x, shape).unwrap())
    };
    let (aa, ab, aw) = (
        any(a.to_vec(), &[3, 4]),
        any(bt.to_vec(), &[3, 4]),
        any(w.to_vec(), &[4]),
    );
    let to_f64 = |v: Vec<f32>| v.into_iter().map(f64::from).collect::<Vec<_>>();

    let typed = a.lerp(&bt, &w);
    assert_eq!(typed.shape(), [3, 4]);
    assert_eq!(
        to_f64(typed.to_vec()),
        values_f64(&aa.try_lerp(&ab, &aw).unwrap())
    );
    let typed = a.lerp(&bt, 0.3);
    assert_eq!(
        to_f64(typed.to_vec()),
        values_f64(&aa.try_lerp(&ab, Scalar::Float(0.3)).unwrap())
    );
    let typed = a.addcmul(&bt, &w, 0.5);
    let any_r = aa.try_addcmul(&ab, &aw, Scalar::Float(0.5)).unwrap();
    assert_eq!(to_f64(typed.to_vec()), values_f64(&any_r));
    let typed = a.addcdiv(&bt, &w, -2.0);
    let any_r = aa.try_addcdiv(&ab, &aw, Scalar::Float(-2.0)).unwrap();
    assert_eq!(to_f64(typed.to_vec()), values_f64(&any_r));

    // In place, on an owned tensor and on a writable view (every other
    // column of a wider tensor).
    let mut x = a.clone();
    x.addcmul_(&bt, &w, 0.5).unwrap();
    assert_eq!(
        to_f64(x.to_vec()),
        values_f64(&aa.try_addcmul(&ab, &aw, Scalar::Float(0.5)).unwrap())
    );
    let mut wide = DynTensor::<f32>::zeros(&[3, 8]);
    let dyn_of = |v: Vec<f32>, shape: &[usize]| DynTensor::<f32>::from_vec(v, shape).unwrap();
    let mut view = wide.slice_mut(s![.., ..;2]).unwrap();
    view.copy_from(&dyn_of(a.to_vec(), &[3, 4]));
    view.lerp_(&dyn_of(bt.to_vec(), &[3, 4]), &dyn_of(w.to_vec(), &[4]))
        .unwrap();
    let expected = values_f64(&aa.try_lerp(&ab, &aw).unwrap());
    let strided: Vec<f64> = wide.to_vec().chunks(2).map(|p| f64::from(p[0])).collect();
    assert_eq!(strided, expected);
    assert!(
        wide.to_vec().chunks(2).all(|p| p[1] == 0.0),
        "the other columns stay"
    );

    // Dyn sizes that do not broadcast: PyTorch's text, `self` untouched.
    let d = DynTensor::<f32>::ones(&[2]);
    let e = DynTensor::<f32>::ones(&[3]);
    assert_eq!(
        d.try_lerp(&e, 0.5).unwrap_err().to_string(),
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"
    );
    let mut d2 = d.clone();
    let big = DynTensor::<f32>::ones(&[3, 2]);
    assert_eq!(
        d2.addcdiv_(&big, &d, 1.0).unwrap_err().to_string(),
        "output with shape [2] doesn't match the broadcast shape [3, 2]"
    );
    assert_eq!(d2.to_vec(), vec![1.0, 1.0]);
    assert_eq!(
        d.try_addcmul(&d, &d, 1e300).unwrap_err().to_string(),
        "value cannot be converted to type float without overflow"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// Broadcast shapes of rank 0 to 3: the static-free `DynTensor` forms
    /// against a plain loop over the broadcast index of each formula.
    #[test]
    fn broadcast_forms_match_a_plain_reference(
        dims in proptest::collection::vec((1usize..4, 0usize..3), 0..4),
        seed in 0usize..1000,
        weight in -1.0f64..2.0,
    ) {
        // Each operand takes a dimension's size or 1 (per its bit).
        let shape_of = |bit: usize| -> Vec<usize> {
            dims.iter().map(|&(n, ones)| if ones == bit { 1 } else { n }).collect()
        };
        let (sa, sb, sc) = (shape_of(0), shape_of(1), shape_of(2));
        let full: Vec<usize> = dims.iter().map(|&(n, _)| n).collect();
        let make = |shape: &[usize], k: usize| {
            let n: usize = shape.iter().product();
            let v: Vec<f64> = (0..n).map(|i| (((i + k * 31 + seed) * 7919) % 1000) as f64 * 0.01 - 5.0).collect();
            DynTensor::<f64>::from_vec(v, shape).unwrap()
        };
        let (a, b, c) = (make(&sa, 1), make(&sb, 2), make(&sc, 3));
        let at = |x: &DynTensor<f64>, idx: &[usize]| {
            let i: Vec<usize> = idx.iter().zip(x.shape().as_ref()).map(|(&i, &n)| if n == 1 { 0 } else { i }).collect();
            *x.get(&i).unwrap()
        };
        let lerp = a.lerp(&b, &c);
        let by = a.lerp(&b, weight);
        let mul = a.addcmul(&b, &c, weight);
        let div = a.addcdiv(&b, &c, weight);
        proptest::prop_assert_eq!(lerp.shape(), &full[..]);
        let numel: usize = full.iter().product();
        for flat in 0..numel {
            let mut idx = vec![0; full.len()];
            let mut rest = flat;
            for d in (0..full.len()).rev() {
                idx[d] = rest % full[d];
                rest /= full[d];
            }
            let (x, y, z) = (at(&a, &idx), at(&b, &idx), at(&c, &idx));
            let lerp_ref = |w: f64| if w.abs() < 0.5 { w.mul_add(y - x, x) } else { (w - 1.0).mul_add(y - x, y) };
            proptest::prop_assert_eq!(*lerp.get(&idx).unwrap(), lerp_ref(z));
            proptest::prop_assert_eq!(*by.get(&idx).unwrap(), lerp_ref(weight));
            proptest::prop_assert_eq!(*mul.get(&idx).unwrap(), (weight * y).mul_add(z, x));
            let d = *div.get(&idx).unwrap();
            let d_ref = x + weight * y / z;
            proptest::prop_assert!(d == d_ref || (d.is_nan() && d_ref.is_nan()));
        }
    }
}
