//! The pointwise catalogue's functions of two tensors checked against
//! PyTorch 2.15.0 (`tests/fixtures/pairs.json`, written by
//! `scripts/fixtures/pairs.py`): `atan2 hypot copysign nextafter logaddexp
//! logaddexp2 xlogy` on every floating dtype over a grid of edge values
//! against each other (±0, ±inf, NaN, subnormals, huge and tiny
//! magnitudes), random values, integer and bool operands (float32 where
//! PyTorch promotes them, its texts where it refuses them), mixed dtypes,
//! complex `logaddexp`, empty and rank-0 operands, and a shape mismatch;
//! and the number forms `copysign(t, number)`, `xlogy(t, number)`,
//! `xlogy(number, t)` and `float_power(number, t)` on every real dtype
//! with edge numbers (±0, NaN, ±inf, subnormal, int, bool, complex).
//!
//! Result dtypes, shapes, NaN, infinities and zeros (with their signs) are
//! exact everywhere; finite values are exact but where PyTorch's kernels
//! and `shaped`'s compute by different (equally valid) means, named in
//! [`allowed_ulps`]. Each case runs through `AnyTensor`; the typed methods
//! are checked against it below.

use crate::common;
/// `lerp`, `addcmul` and `addcdiv` (`tests/ternary/mod.rs`).
mod ternary;

use common::tensors::{Outcome, any_of, check_elementwise_cases};
use common::ulps;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/pairs.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// The case on `AnyTensor`.
fn run(case: &Value) -> Result<AnyTensor, String> {
    if case.get("number").is_some() {
        return run_number(case);
    }
    let (a, b) = (any_of(&case["a"]), any_of(&case["b"]));
    match case["op"].as_str().unwrap() {
        "atan2" => a.try_atan2(&b),
        "hypot" => a.try_hypot(&b),
        "copysign" => a.try_copysign(&b),
        "nextafter" => a.try_nextafter(&b),
        "logaddexp" => a.try_logaddexp(&b),
        "logaddexp2" => a.try_logaddexp2(&b),
        "xlogy" => a.try_xlogy(&b),
        op => panic!("unknown op {op}"),
    }
    .map_err(|e| e.to_string())
}

/// A number form: `copysign(a, number)`, `xlogy(a, number)`,
/// `xlogy(number, a)` or `float_power(number, a)`.
fn run_number(case: &Value) -> Result<AnyTensor, String> {
    let a = any_of(&case["a"]);
    let n = &case["number"];
    let number = match n {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Object(_) => Scalar::Complex(common::number(&n["re"]), common::number(&n["im"])),
        Value::Number(i) if i.is_i64() => Scalar::Int(i.as_i64().unwrap()),
        other => Scalar::Float(common::number(other)),
    };
    let left = case["side"] == "left";
    match (case["op"].as_str().unwrap(), left) {
        ("copysign", false) => a.try_copysign(number),
        ("xlogy", false) => a.try_xlogy(number),
        ("xlogy", true) => AnyTensor::try_xlogy_scalar_self(number, &a),
        ("float_power", true) => AnyTensor::try_float_power_scalar(number, &a),
        (op, _) => panic!("unknown number form {op}"),
    }
    .map_err(|e| e.to_string())
}

/// The units in the last place allowed between PyTorch's value and
/// `shaped`'s (0 elsewhere): PyTorch's vectorized float32 and float64
/// kernels are SLEEF's (`atan2`, `exp`, `exp2`, `log1p` within 1 ulp,
/// `hypot` within 0.5), `shaped` calls the C library's (within 1 ulp), and
/// the half types round float32 results that may differ so. `copysign`,
/// `nextafter` and `xlogy` (PyTorch's scalar loop with the C library's
/// `log`) are exact.
fn allowed_ulps(op: &str, dtype: DType) -> u64 {
    match (op, dtype) {
        ("copysign" | "nextafter" | "xlogy", _) => 0,
        // A number to tensor powers: PyTorch's vectorized `pow` (SLEEF)
        // is 1 ulp from the C library's at 2^0.5.
        ("float_power", _) => 1,
        (_, DType::F16 | DType::BF16) => 1,
        ("logaddexp" | "logaddexp2", _) => 2,
        _ => 1,
    }
}

/// Complex `logaddexp`: PyTorch's `std::log1p` of a complex number is its
/// own formula (`log1p(x (x + 2) + y²) / 2` and `atan2`), `shaped`'s
/// `ln(1 + z)`, as PyTorch's `logcumsumexp` kernel on CUDA; a few epsilons
/// of the result's magnitude apart.
const COMPLEX_EPSILONS: f64 = 4.0;

/// Within the tolerance: NaN, infinities and zeros exactly (zeros with
/// their signs), finite values within [`allowed_ulps`].
fn close(op: &str, got: &Outcome, want: &Outcome) -> bool {
    let limit = allowed_ulps(op, want.dtype);
    let part_dtype = match want.dtype {
        DType::C64 => DType::F32,
        DType::C128 => DType::F64,
        d => d,
    };
    let epsilon = if part_dtype == DType::F32 {
        f64::from(f32::EPSILON)
    } else {
        f64::EPSILON
    };
    let real = |g: f64, w: f64| {
        if g.is_nan() || w.is_nan() {
            return g.is_nan() && w.is_nan();
        }
        if w.is_infinite() || w == 0.0 || g.is_infinite() || g == 0.0 {
            return g.to_bits() == w.to_bits();
        }
        ulps(part_dtype, g, w) <= limit
    };
    let part = |g: f64, w: f64, magnitude: f64| {
        real(g, w)
            || (g.is_finite()
                && w.is_finite()
                && (g - w).abs() <= COMPLEX_EPSILONS * epsilon * magnitude)
    };
    got.dtype == want.dtype
        && got.sizes == want.sizes
        && got.values.len() == want.values.len()
        && got
            .values
            .iter()
            .zip(&want.values)
            .all(|(g, w)| match (g, w) {
                (Scalar::Float(g), Scalar::Float(w)) => real(*g, *w),
                (Scalar::Complex(a, b), Scalar::Complex(c, d)) => {
                    let magnitude = c.hypot(*d);
                    part(*a, *c, magnitude) && part(*b, *d, magnitude)
                }
                (g, w) => g == w,
            })
}

#[test]
fn pair_functions_match_pytorch() {
    let cases = cases();
    assert!(cases.len() > 170, "the fixture file lost its cases");
    check_elementwise_cases(&cases, run, |case, got, want, _| {
        close(case["op"].as_str().unwrap(), got, want)
    });
}

/// The typed methods give what `AnyTensor` gives, with the result types
/// and broadcast shapes the compiler computes.
#[test]
fn typed_forms_agree_with_the_runtime_forms() {
    let x = tensor![[-3.5f32, -0.0, 0.0], [0.75, 2.5, f32::NAN]];
    let y = tensor![[2.0f32], [-0.5]];
    let (a, b) = (
        AnyTensor::from(DynTensor::<f32>::from_vec(x.to_vec(), &[2, 3]).unwrap()),
        AnyTensor::from(DynTensor::<f32>::from_vec(y.to_vec(), &[2, 1]).unwrap()),
    );
    type Static = Tensor<f32, shape![2, 3]>;
    let same: [(Static, AnyTensor); 7] = [
        (x.atan2(&y), a.try_atan2(&b).unwrap()),
        (x.hypot(&y), a.try_hypot(&b).unwrap()),
        (x.copysign(&y), a.try_copysign(&b).unwrap()),
        (x.nextafter(&y), a.try_nextafter(&b).unwrap()),
        (x.logaddexp(&y), a.try_logaddexp(&b).unwrap()),
        (x.logaddexp2(&y), a.try_logaddexp2(&b).unwrap()),
        (x.xlogy(&y), a.try_xlogy(&b).unwrap()),
    ];
    for (typed, any) in same {
        let (t, r) = (typed.to_vec(), any.downcast::<f32>().unwrap().to_vec());
        assert!(
            t.iter().zip(&r).all(|(p, q)| p.to_bits() == q.to_bits()),
            "{t:?} vs {r:?}"
        );
    }
    // Integers and bool compute in float32 for atan2, copysign and xlogy.
    let n = tensor![[0i64, 1], [2, -3]];
    let angle: Tensor<f32, shape![2, 2]> = n.atan2(&tensor![true, false]);
    assert_eq!(angle.to_vec()[1], core::f32::consts::FRAC_PI_2);
    let signed: Tensor<f32, shape![2, 2]> = n.copysign(&tensor![-1i8, 1]);
    assert_eq!(signed.to_vec(), vec![-0.0, 1.0, -2.0, 3.0]);
    assert!(signed.to_vec()[0].is_sign_negative());
    let v: Tensor<f32, shape![2, 2]> = n.xlogy(&n);
    assert_eq!(v.to_vec()[0], 0.0);
    assert!(v.to_vec()[3].is_nan());
    // A float16 and a float64 operand compute in float64.
    let h = tensor![half::f16::ONE];
    let d: Tensor<f64, shape![1]> = h.nextafter(&tensor![2.0f64]);
    assert_eq!(d.to_vec(), vec![1.0 + f64::EPSILON]);
    // Complex logaddexp, and a Dyn shape that does not broadcast.
    let z = tensor![num_complex::Complex::new(0.0f64, 0.0)];
    assert_eq!(
        z.logaddexp(&z).to_vec(),
        vec![num_complex::Complex::new(2f64.ln(), 0.0)]
    );
    let err = DynTensor::<f32>::ones(&[2, 3])
        .try_hypot(&DynTensor::<f32>::ones(&[4]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
    );
}

/// On views (a transposed and a stepped one) the functions give what they
/// give on the same values made contiguous.
#[test]
fn views_give_what_contiguous_tensors_give() {
    let x = DynTensor::<f64>::from_vec(
        (0..24).map(|i| f64::from(i) * 0.37 - 4.1).collect(),
        &[4, 6],
    )
    .unwrap();
    let t = x.t().unwrap();
    let s = x.slice(s![.., ..;2]).unwrap().t().unwrap();
    let bits = |v: Vec<f64>| v.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    let row = DynTensor::<f64>::from_vec(vec![0.5, -2.0, 3.0, -0.0], &[4]).unwrap();
    assert_eq!(
        bits(t.atan2(&row).to_vec()),
        bits(t.contiguous().atan2(&row).to_vec())
    );
    assert_eq!(
        bits(s.logaddexp(&s).to_vec()),
        bits(s.contiguous().logaddexp(&s.contiguous()).to_vec())
    );
}
