//! Elementwise math, `where`, `cat` and `stack` checked against PyTorch
//! 2.15.0 (`tests/fixtures/math.json`, written by `scripts/fixtures/math.py`).
//!
//! Every case runs through `AnyTensor` (the runtime-dtype API, which calls
//! the typed methods underneath) and is compared on dtype, shape, values and
//! PyTorch's error text. Tolerances, per result dtype:
//! - exact (bit for bit, NaN equal to NaN, the sign of zero checked): `abs`,
//!   `relu`, `floor`, `ceil`, `round`, `clamp`, `maximum`, `minimum`,
//!   `where`, `cat`, `stack`, and every integer result;
//! - float32 and float64 results of the transcendental functions and
//!   `pow`: at most [`MAX_ULPS`] units in the last place (PyTorch uses SLEEF,
//!   `shaped` the platform's libm: both are within 1 ULP of the exact value
//!   for these functions);
//! - float16 and bfloat16: at most 1 ULP of the half type (both compute in
//!   float32 and round once; they can differ when the float32 results sit on
//!   either side of a rounding boundary);
//! - complex64 / complex128: each part within `1e-5` / `1e-12` relative to
//!   the value's magnitude (PyTorch and num-complex use different formulas
//!   for complex `exp`, `tanh`, ...).
//!
//! The static methods are checked on one typed tensor per case family at the
//! end, so the compile-time result types are compared with PyTorch's too.

use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;
use std::sync::OnceLock;

use crate::common;
use common::ulps;

use half::{bf16, f16};

/// The largest difference allowed for float32/float64 transcendental results.
const MAX_ULPS: u64 = 2;

/// The cases of one section of the fixture file.
fn section(name: &str) -> &'static [Value] {
    static FIXTURES: OnceLock<Value> = OnceLock::new();
    let all = FIXTURES.get_or_init(|| {
        serde_json::from_str(include_str!("fixtures/math.json")).expect("valid JSON")
    });
    all[name].as_array().expect("a list of cases")
}

/// The dtype PyTorch names `name`.
fn dtype(name: &str) -> DType {
    let found = DType::ALL.into_iter().find(|d| d.name() == name);
    found.unwrap_or_else(|| panic!("unknown dtype {name}"))
}

fn float(v: &Value) -> f64 {
    v.as_str()
        .expect("a float string")
        .parse()
        .expect("a float")
}

/// One fixture value as the number PyTorch's `item()` gives.
fn scalar(dtype: DType, v: &Value) -> Scalar {
    if dtype.is_complex() {
        Scalar::Complex(float(&v[0]), float(&v[1]))
    } else if dtype.is_floating_point() {
        Scalar::Float(float(v))
    } else if dtype == DType::Bool {
        Scalar::Bool(v.as_bool().unwrap())
    } else {
        Scalar::Int(v.as_i64().unwrap())
    }
}

fn shape_of(t: &Value) -> Vec<usize> {
    t["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as usize)
        .collect()
}

/// A typed tensor from a fixture tensor's values.
fn typed<T: Element>(t: &Value, convert: impl Fn(Scalar) -> T) -> DynTensor<T> {
    let d = dtype(t["dtype"].as_str().unwrap());
    let values = t["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| convert(scalar(d, v)))
        .collect();
    DynTensor::from_vec(values, &shape_of(t)).unwrap()
}

fn as_f64(s: Scalar) -> f64 {
    match s {
        Scalar::Float(x) => x,
        Scalar::Int(i) => i as f64,
        Scalar::Bool(b) => f64::from(u8::from(b)),
        Scalar::Complex(re, _) => re,
    }
}
fn as_complex(s: Scalar) -> Complex<f64> {
    match s {
        Scalar::Complex(re, im) => Complex::new(re, im),
        other => Complex::new(as_f64(other), 0.0),
    }
}
fn as_i64(s: Scalar) -> i64 {
    match s {
        Scalar::Int(i) => i,
        Scalar::Bool(b) => i64::from(b),
        other => panic!("not an integer: {other:?}"),
    }
}

/// A fixture tensor as an `AnyTensor` (contiguous).
fn any(t: &Value) -> AnyTensor {
    match dtype(t["dtype"].as_str().unwrap()) {
        DType::F16 => typed(t, |s| f16::from_f64(as_f64(s))).into(),
        DType::BF16 => typed(t, |s| bf16::from_f64(as_f64(s))).into(),
        DType::F32 => typed(t, |s| as_f64(s) as f32).into(),
        DType::F64 => typed(t, as_f64).into(),
        DType::C64 => typed(t, |s| {
            let z = as_complex(s);
            Complex::new(z.re as f32, z.im as f32)
        })
        .into(),
        DType::C128 => typed(t, as_complex).into(),
        DType::U8 => typed(t, |s| as_i64(s) as u8).into(),
        DType::I8 => typed(t, |s| as_i64(s) as i8).into(),
        DType::I16 => typed(t, |s| as_i64(s) as i16).into(),
        DType::I32 => typed(t, |s| as_i64(s) as i32).into(),
        DType::I64 => typed(t, as_i64).into(),
        DType::Bool => typed(t, |s| matches!(s, Scalar::Bool(true))).into(),
    }
}

/// How closely a result must match PyTorch's.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Tolerance {
    Exact,
    Approximate,
}

/// Compares a result with the fixture's; `what` names the case.
fn check_result(got: &AnyTensor, want: &Value, tolerance: Tolerance, what: &str) {
    let d = dtype(want["dtype"].as_str().unwrap());
    assert_eq!(got.dtype(), d, "{what}: dtype");
    assert_eq!(got.shape(), shape_of(want), "{what}: shape");
    let values = got.to_scalars();
    let expected = want["values"].as_array().unwrap();
    assert_eq!(values.len(), expected.len(), "{what}: element count");
    for (i, (g, w)) in values.iter().zip(expected).enumerate() {
        let w = scalar(d, w);
        let ok = match (g, w, tolerance) {
            (Scalar::Float(g), Scalar::Float(w), Tolerance::Exact) => {
                (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits()
            }
            (Scalar::Float(g), Scalar::Float(w), Tolerance::Approximate) => {
                let limit = if d.itemsize() == 2 { 1 } else { MAX_ULPS };
                ulps(d, *g, w) <= limit
            }
            (Scalar::Complex(gr, gi), Scalar::Complex(wr, wi), Tolerance::Approximate) => {
                let rel = if d == DType::C64 { 1e-5 } else { 1e-12 };
                let scale = wr.hypot(wi).max(1e-30);
                let close = |g: f64, w: f64| {
                    (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= rel * scale
                };
                close(*gr, wr) && close(*gi, wi)
            }
            (Scalar::Complex(gr, gi), Scalar::Complex(wr, wi), Tolerance::Exact) => {
                let same =
                    |g: f64, w: f64| (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits();
                same(*gr, wr) && same(*gi, wi)
            }
            (g, w, _) => *g == w,
        };
        assert!(ok, "{what}: element {i}: got {g:?}, PyTorch {w:?}");
    }
}

/// Checks a result or an error against the case's `result` or `error`.
fn check(case: &Value, got: Result<AnyTensor, Error>, tolerance: Tolerance, what: &str) {
    match (&case["result"], got) {
        (Value::Null, Ok(t)) => panic!(
            "{what}: PyTorch raised {:?}, shaped gave a {} tensor",
            case["error"]["message"],
            t.dtype()
        ),
        (Value::Null, Err(e)) => {
            assert_eq!(
                e.to_string(),
                case["error"]["message"].as_str().unwrap(),
                "{what}"
            )
        }
        (want, Ok(t)) => check_result(&t, want, tolerance, what),
        (_, Err(e)) => panic!("{what}: shaped raised {e}, PyTorch gave a result"),
    }
}

// ------------------------------------------------------------------- unary

#[test]
fn unary_functions_on_every_dtype() {
    let cases = section("unary");
    assert_eq!(cases.len(), 14 * 12);
    for c in cases {
        let op = c["op"].as_str().unwrap();
        let x = any(&c["input"]);
        let (got, tolerance) = match op {
            "abs" => (x.abs(), Tolerance::Exact),
            "relu" => (x.relu(), Tolerance::Exact),
            "floor" => (x.floor(), Tolerance::Exact),
            "ceil" => (x.ceil(), Tolerance::Exact),
            "round" => (x.round(), Tolerance::Exact),
            "exp" => (x.exp(), Tolerance::Approximate),
            "log" => (x.ln(), Tolerance::Approximate),
            "log2" => (x.log2(), Tolerance::Approximate),
            "sqrt" => (x.sqrt(), Tolerance::Approximate),
            "sin" => (x.sin(), Tolerance::Approximate),
            "cos" => (x.cos(), Tolerance::Approximate),
            "tanh" => (x.tanh(), Tolerance::Approximate),
            "sigmoid" => (x.sigmoid(), Tolerance::Approximate),
            "reciprocal" => (x.recip(), Tolerance::Approximate),
            other => panic!("unknown op {other}"),
        };
        check(c, got, tolerance, &format!("{op}({})", x.dtype()));
    }
}

/// PyTorch's function `op` of one tensor, on `AnyTensor`.
fn function(op: &str, x: &AnyTensor) -> Result<AnyTensor, Error> {
    match op {
        "exp" => x.exp(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "sqrt" => x.sqrt(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tanh" => x.tanh(),
        "sigmoid" => x.sigmoid(),
        "reciprocal" => x.recip(),
        "abs" => x.abs(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "asinh" => x.asinh(),
        "acosh" => x.acosh(),
        "atanh" => x.atanh(),
        "exp2" => x.exp2(),
        "expm1" => x.expm1(),
        "log10" => x.log10(),
        "log1p" => x.log1p(),
        "rsqrt" => x.rsqrt(),
        other => panic!("unknown op {other}"),
    }
}

/// The catalogue of issue 25: trigonometric, hyperbolic and their
/// inverses, `exp2`, `expm1`, `log10`, `log1p`, `rsqrt`, on every dtype.
#[test]
fn catalogue_functions_on_every_dtype() {
    let cases = section("catalogue");
    assert_eq!(cases.len(), 14 * 12);
    for c in cases {
        let op = c["op"].as_str().unwrap();
        let x = any(&c["input"]);
        let got = function(op, &x);
        check(
            c,
            got,
            Tolerance::Approximate,
            &format!("{op}({})", x.dtype()),
        );
    }
}

/// Every complex function on ±0, ±inf, NaN and finite values in each
/// part: NaN where PyTorch gives NaN, the same infinities and the same
/// signs of zero (C99's annex G, which PyTorch's CPU kernels follow), the
/// finite values within the usual tolerance.
#[test]
fn complex_functions_at_edge_values() {
    let cases = section("complex_edges");
    assert_eq!(cases.len(), 24 * 2);
    let mut failures = Vec::new();
    for c in cases {
        let op = c["op"].as_str().unwrap();
        let x = any(&c["input"]);
        let got = function(op, &x).unwrap();
        let want = &c["result"];
        let d = dtype(want["dtype"].as_str().unwrap());
        assert_eq!(got.dtype(), d, "{op}: dtype");
        let rel = if matches!(d, DType::C64 | DType::F32) {
            1e-5
        } else {
            1e-12
        };
        // NaN for NaN, infinities and zeros exactly (with their signs),
        // finite values within `rel`.
        let close = |g: f64, w: f64| {
            if w.is_nan() || g.is_nan() {
                return w.is_nan() && g.is_nan();
            }
            if w.is_infinite() || w == 0.0 {
                return g.to_bits() == w.to_bits();
            }
            (g - w).abs() <= rel * w.abs().max(1e-30)
        };
        let inputs = c["input"]["values"].as_array().unwrap();
        for (i, (g, w)) in got
            .to_scalars()
            .iter()
            .zip(want["values"].as_array().unwrap())
            .enumerate()
        {
            let ok = match (*g, scalar(d, w)) {
                (Scalar::Complex(gr, gi), Scalar::Complex(wr, wi)) => {
                    close(gr, wr) && close(gi, wi)
                }
                (Scalar::Float(g), Scalar::Float(w)) => close(g, w),
                (g, w) => g == w,
            };
            if !ok {
                failures.push(format!(
                    "{op}({d}) of {}: got {g:?}, PyTorch {:?}",
                    inputs[i],
                    scalar(d, w)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn clamp_with_number_bounds() {
    let number = |v: &Value| match v {
        Value::Bool(b) => Scalar::Bool(*b),
        v if v.is_i64() => Scalar::Int(v.as_i64().unwrap()),
        v => Scalar::Float(v.as_f64().unwrap()),
    };
    for c in section("clamp") {
        let x = any(&c["input"]);
        let (lo, hi) = (number(&c["min"]), number(&c["max"]));
        let what = format!("clamp({}, {lo:?}, {hi:?})", x.dtype());
        check(c, x.clamp(lo, hi), Tolerance::Exact, &what);
    }
}

#[test]
fn pow_with_a_float_exponent() {
    for c in section("powf") {
        let x = any(&c["input"]);
        let e = float(&c["exponent"]);
        let what = format!("pow({}, {e})", x.dtype());
        check(c, x.powf(e), Tolerance::Approximate, &what);
    }
}

// ------------------------------------------------------------------ binary

#[test]
fn maximum_minimum_pow_broadcast_and_promote() {
    for c in section("binary") {
        let (a, b) = (any(&c["a"]), any(&c["b"]));
        let op = c["op"].as_str().unwrap();
        let what = format!(
            "{op}({} {:?}, {} {:?})",
            a.dtype(),
            a.shape(),
            b.dtype(),
            b.shape()
        );
        let (got, tolerance) = match op {
            "maximum" => (a.try_maximum(&b), Tolerance::Exact),
            "minimum" => (a.try_minimum(&b), Tolerance::Exact),
            _ => (a.try_pow(&b), Tolerance::Approximate),
        };
        check(c, got, tolerance, &what);
    }
}

#[test]
fn where_broadcasts_three_operands() {
    for c in section("where") {
        let (cond, a, b) = (any(&c["cond"]), any(&c["a"]), any(&c["b"]));
        let what = format!(
            "where({:?}, {:?}, {:?})",
            cond.shape(),
            a.shape(),
            b.shape()
        );
        check(c, AnyTensor::where_(&cond, &a, &b), Tolerance::Exact, &what);
    }
}

// ---------------------------------------------------------------- cat/stack

fn parts(c: &Value) -> Vec<AnyTensor> {
    c["tensors"].as_array().unwrap().iter().map(any).collect()
}

#[test]
fn cat_and_stack_of_any_dtypes() {
    for (name, stack) in [("cat", false), ("stack", true)] {
        for c in section(name) {
            let owned = parts(c);
            let refs: Vec<&AnyTensor> = owned.iter().collect();
            let dim = c["dim"].as_i64().unwrap() as isize;
            let shapes: Vec<Vec<usize>> = owned.iter().map(|t| t.shape()).collect();
            let what = format!("{name}({shapes:?}, {dim})");
            let got = if stack {
                AnyTensor::stack(&refs, dim)
            } else {
                AnyTensor::cat(&refs, dim)
            };
            check(c, got, Tolerance::Exact, &what);
        }
    }
}

/// The cases with transposed parts, through strided views (the tiled copy
/// path), typed.
#[test]
fn cat_and_stack_of_strided_views() {
    let mut seen = 0;
    for (name, stack) in [("cat", false), ("stack", true)] {
        for c in section(name) {
            let specs = c["tensors"].as_array().unwrap();
            if !specs.iter().any(|t| t["transposed"] == true) {
                continue;
            }
            seen += 1;
            // Every such case holds one dtype with values that are exact in f64.
            let bases: Vec<DynTensor<f64>> = specs
                .iter()
                .map(|t| {
                    let logical = typed(t, as_f64);
                    if t["transposed"] == true {
                        logical.t().unwrap().to_owned() // the stored layout, reversed
                    } else {
                        logical
                    }
                })
                .collect();
            let views: Vec<_> = bases
                .iter()
                .zip(specs)
                .map(|(b, t)| {
                    if t["transposed"] == true {
                        let v = b.t().unwrap();
                        assert!(!v.is_contiguous());
                        v
                    } else {
                        b.as_view()
                    }
                })
                .collect();
            let refs: Vec<_> = views.iter().collect();
            let dim = c["dim"].as_i64().unwrap() as isize;
            let got = if stack {
                DynTensor::stack(&refs, dim)
            } else {
                DynTensor::cat(&refs, dim)
            }
            .unwrap();
            let want = &c["result"];
            assert_eq!(
                got.shape().to_vec(),
                shape_of(want),
                "{name} strided: shape"
            );
            let d = dtype(want["dtype"].as_str().unwrap());
            let expected: Vec<f64> = want["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| as_f64(scalar(d, v)))
                .collect();
            assert_eq!(got.to_vec(), expected, "{name} strided: values");
        }
    }
    assert_eq!(seen, 3, "the fixture's strided cases");
}

// ------------------------------------------------------------ static forms

/// The typed methods give PyTorch's result dtypes at compile time.
#[test]
fn static_result_types_match_pytorch() {
    let int = Tensor::<i64, shape![3]>::from_vec(vec![1, 4, 9]).unwrap();
    let f: Tensor<f32, shape![3]> = int.sqrt();
    assert_eq!(f.to_vec(), vec![1.0, 2.0, 3.0]);
    let b = Tensor::<bool, shape![2]>::from_vec(vec![true, false]).unwrap();
    let e: Tensor<f32, shape![2]> = b.exp();
    assert_eq!(e.to_vec(), vec![1.0f32.exp(), 1.0]);
    let z = Tensor::<Complex<f64>, shape![1]>::from_vec(vec![Complex::new(3.0, 4.0)]).unwrap();
    let m: Tensor<f64, shape![1]> = z.abs();
    assert_eq!(m.to_vec(), vec![5.0]);
    let i8s = Tensor::<i8, shape![2]>::from_vec(vec![-128, 5]).unwrap();
    let a: Tensor<i8, shape![2]> = i8s.abs();
    assert_eq!(a.to_vec(), vec![-128, 5]);
    let r: Tensor<i8, shape![2]> = i8s.round();
    assert_eq!(r.to_vec(), vec![-128, 5]);
    let c: Tensor<f32, shape![2]> = i8s.clamp(0.5, 1.5);
    assert_eq!(c.to_vec(), vec![0.5, 1.5]);
    let ci: Tensor<i8, shape![2]> = i8s.clamp(0, 3);
    assert_eq!(ci.to_vec(), vec![0, 3]);
    let p: Tensor<f32, shape![2]> = i8s.powf(2.0);
    assert_eq!(p.to_vec(), vec![16384.0, 25.0]);
    let zero_dim = Tensor::<f64, shape![]>::full(1.5);
    let mx: Tensor<f64, shape![2]> = i8s.maximum(&zero_dim); // a float64 rank-0 tensor: float64
    assert_eq!(mx.to_vec(), vec![1.5, 5.0]);
    let w: Tensor<f32, shape![2, 2]> = shaped::where_(
        &Tensor::<bool, shape![2, 1]>::from_vec(vec![true, false]).unwrap(),
        &i8s,
        &Tensor::<f32, shape![1]>::full(0.25),
    );
    assert_eq!(w.to_vec(), vec![-128.0, 5.0, 0.25, 0.25]);
}

// -------------------------------------------------------------- properties

mod properties {
    use proptest::prelude::*;
    use shaped::prelude::*;

    /// Row-major index of `index` in `sizes`.
    fn flat(sizes: &[usize], index: &[usize]) -> usize {
        index.iter().zip(sizes).fold(0, |acc, (&i, &s)| acc * s + i)
    }

    /// Every index of `sizes`, row-major.
    fn indices(sizes: &[usize]) -> Vec<Vec<usize>> {
        let mut out = vec![vec![]];
        for &s in sizes {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..s).map(move |i| {
                        let mut q = p.clone();
                        q.push(i);
                        q
                    })
                })
                .collect();
        }
        out
    }

    /// A rank-3 shape, a cat axis, and the second part's size along it.
    fn cat_case() -> impl Strategy<Value = (Vec<usize>, usize, usize, bool)> {
        (
            prop::collection::vec(0usize..4, 3),
            0usize..3,
            0usize..4,
            any::<bool>(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// `DynTensor::cat` and `stack` of a contiguous part and a permuted
        /// (strided) one equal a plain loop over the result's indices.
        #[test]
        fn cat_and_stack_match_a_reference_loop((sizes, axis, other, permuted) in cat_case()) {
            let n: usize = sizes.iter().product();
            let a = DynTensor::<i64>::from_vec((0..n as i64).collect(), &sizes).unwrap();
            let mut bs = sizes.clone();
            bs[axis] = other;
            let nb: usize = bs.iter().product();
            // `b` stored with its first two dimensions swapped, viewed back.
            let stored = [bs[1], bs[0], bs[2]];
            let base = DynTensor::<i64>::from_vec((1000..1000 + nb as i64).collect(), &stored).unwrap();
            let b_view = base.transpose(0, 1).unwrap();
            let b_owned = b_view.to_owned();
            let b = if permuted { b_view } else { b_owned.as_view() };
            let got = DynTensor::cat(&[&a.as_view(), &b], axis as isize).unwrap();
            let mut out = sizes.clone();
            out[axis] += other;
            prop_assert_eq!(got.shape().to_vec(), out.clone());
            let (av, bv) = (a.to_vec(), b.to_vec());
            let got_v = got.to_vec();
            for idx in indices(&out) {
                let want = if idx[axis] < sizes[axis] {
                    av[flat(&sizes, &idx)]
                } else {
                    let mut j = idx.clone();
                    j[axis] -= sizes[axis];
                    bv[flat(&bs, &j)]
                };
                prop_assert_eq!(got_v[flat(&out, &idx)], want);
            }
            // stack of two equal shapes along `axis`.
            let s = DynTensor::stack(&[&a.as_view(), &a.as_view()], axis as isize).unwrap();
            let mut ss = sizes.clone();
            ss.insert(axis, 2);
            prop_assert_eq!(s.shape().to_vec(), ss.clone());
            let sv = s.to_vec();
            for idx in indices(&ss) {
                let mut j = idx.clone();
                j.remove(axis);
                prop_assert_eq!(sv[flat(&ss, &idx)], av[flat(&sizes, &j)]);
            }
        }

        /// Static `cat` equals the dynamic one.
        #[test]
        fn static_cat_equals_dynamic(values in prop::collection::vec(-50i32..50, 2 * 3 + 2 * 5)) {
            let a = Tensor::<i32, shape![2, 3]>::from_vec(values[..6].to_vec()).unwrap();
            let b = Tensor::<i32, shape![2, 5]>::from_vec(values[6..].to_vec()).unwrap();
            let s: Tensor<i32, shape![2, 8]> = (&a, &b).cat::<1>();
            let (da, db) = (a.clone().into_dyn(), b.clone().into_dyn());
            let d = DynTensor::cat(&[&da, &db], 1).unwrap();
            prop_assert_eq!(s.to_vec(), d.to_vec());
            let t: Tensor<i32, shape![2, 2, 3]> = [&a, &a].stack::<0>();
            prop_assert_eq!(t.to_vec(), DynTensor::stack(&[&da, &da], 0).unwrap().to_vec());
        }

        /// `maximum`, `minimum`, `where_` and `clamp` of broadcast operands
        /// equal an elementwise loop, NaN included.
        #[test]
        fn maximum_minimum_where_clamp_match_a_loop(
            a in prop::collection::vec(prop_oneof![Just(f32::NAN), -5.0f32..5.0], 6),
            b in prop::collection::vec(prop_oneof![Just(f32::NAN), -5.0f32..5.0], 3),
            mask in prop::collection::vec(any::<bool>(), 2),
        ) {
            let ta = Tensor::<f32, shape![2, 3]>::from_vec(a.clone()).unwrap();
            let tb = Tensor::<f32, shape![3]>::from_vec(b.clone()).unwrap();
            let cond = Tensor::<bool, shape![2, 1]>::from_vec(mask.clone()).unwrap();
            let (mx, mn) = (ta.maximum(&tb).to_vec(), ta.minimum(&tb).to_vec());
            let w = shaped::where_(&cond, &ta, &tb).to_vec();
            let c = ta.clamp(-1.0, 1.0).to_vec();
            let same = |x: f32, y: f32| (x.is_nan() && y.is_nan()) || x == y;
            for i in 0..6 {
                let (x, y) = (a[i], b[i % 3]);
                let nan = x.is_nan() || y.is_nan();
                let (want_max, want_min) = if nan { (f32::NAN, f32::NAN) } else { (x.max(y), x.min(y)) };
                let want_where = if mask[i / 3] { x } else { y };
                let want_clamp = if x.is_nan() { x } else { x.clamp(-1.0, 1.0) };
                prop_assert!(same(mx[i], want_max), "maximum {} {}", x, y);
                prop_assert!(same(mn[i], want_min), "minimum {} {}", x, y);
                prop_assert!(same(w[i], want_where), "where at {}", i);
                prop_assert!(same(c[i], want_clamp), "clamp {}", x);
            }
        }
    }
}
