//! The activations of `torch.nn.functional` checked against PyTorch 2.15.0
//! (`tests/fixtures/activations.json`, written by
//! `scripts/fixtures/activations.py`): every floating dtype on edge values
//! (±0, ±inf, NaN, subnormals, the thresholds of `softplus` and the hard
//! functions, large magnitudes) and random ones, every parameter set, and
//! the refusals' texts. Results within [`ULPS`] units in the last place of
//! float32/float64 (PyTorch's vectorized `erf`, `exp` and `log1p` are SLEEF's,
//! `shaped`'s the C library's and its own polynomials, each within an ulp
//! or two), 1 ulp of float16/bfloat16 (both round once from float32); NaN,
//! infinities and zeros (with their signs) exactly. Each case runs through
//! `AnyTensor`; the typed methods are checked against it below.

use crate::common;

use common::tensors::{Outcome, any_of, any_outcome, check_elementwise_cases};
use common::{number, ulps};
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

/// The largest difference allowed for float32 and float64 results.
const ULPS: u64 = 4;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/activations.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// The case on `AnyTensor`.
fn run(case: &Value) -> Result<AnyTensor, String> {
    let a = any_of(&case["a"]);
    let args = &case["args"];
    let arg = |name: &str| number(&args[name]);
    match case["op"].as_str().unwrap() {
        "gelu" => a.gelu(args["approximate"].as_str().unwrap()),
        "silu" => a.silu(),
        "softplus" => a.softplus(arg("beta"), arg("threshold")),
        "mish" => a.mish(),
        "elu" => a.elu(arg("alpha")),
        "leaky_relu" => a.leaky_relu(arg("negative_slope")),
        "hardtanh" => a.hardtanh(arg("min_val"), arg("max_val")),
        "hardsigmoid" => a.hardsigmoid(),
        "hardswish" => a.hardswish(),
        "logsigmoid" => a.logsigmoid(),
        op => panic!("unknown op {op}"),
    }
    .map_err(|e| e.to_string())
}

/// Within the tolerance: NaN, infinities and zeros exactly, finite values
/// within a few ulps, complex parts within a relative 1e-12. Two looser
/// rules, each for a known difference:
/// - PyTorch's `gelu` computes `1 + erf(x / sqrt 2)`, whose cancellation
///   for negative `x` turns the error function's last bits into an
///   absolute difference that grows with `|x|`: its float32 `gelu` is
///   within 3.3e-7 max(|x|, 1) of the true value (measured over [-6, 6]),
///   its float64 one within about 1e-15 max(|x|, 1); `shaped` calls the C
///   library's `erf`. Those bounds are allowed (`erf_bound`).
/// - Results below the smallest normal number (`mish` of -100) carry few
///   bits: within 2^-10 of it.
fn close(got: &Outcome, want: &Outcome, inputs: &[Scalar], erf_bound: bool) -> bool {
    let limit = if matches!(want.dtype, DType::F16 | DType::BF16) {
        1
    } else {
        ULPS
    };
    let tiny = if want.dtype == DType::F64 {
        f64::MIN_POSITIVE
    } else {
        f32::MIN_POSITIVE as f64
    };
    let real = |g: f64, w: f64, x: f64| {
        // PyTorch's float32 and bfloat16 `gelu` of +inf is NaN (its
        // vectorized kernel's artifact: its float16 and float64 `gelu`
        // give inf, as `shaped` does for every dtype).
        if erf_bound && matches!(want.dtype, DType::BF16 | DType::F32) && x == f64::INFINITY {
            return g == x && w.is_nan();
        }
        if g.is_nan() || w.is_nan() {
            return g.is_nan() && w.is_nan();
        }
        let erf_error = if want.dtype == DType::F64 {
            1e-15
        } else {
            4e-7
        };
        if w.is_infinite() || w == 0.0 || g == 0.0 {
            // (PyTorch's float32 `gelu` is 0 from about -7.4 down, where
            // its `1 + erf` cancels to 0; `shaped`'s keeps the true tiny
            // value, with the sign, within the same bound.)
            let flushed = erf_bound
                && w == 0.0
                && g.is_sign_negative() == w.is_sign_negative()
                && g.abs() <= erf_error * x.abs().max(1.0);
            return g.to_bits() == w.to_bits() || flushed;
        }
        let erf_ok = erf_bound && (g - w).abs() <= erf_error * x.abs().max(1.0) + 1e-9 * w.abs();
        ulps(want.dtype, g, w) <= limit
            || erf_ok
            || (w.abs() < tiny && (g - w).abs() <= tiny / 1024.0)
    };
    let x = |i: usize| match inputs.get(i) {
        Some(Scalar::Float(x)) => *x,
        _ => 0.0,
    };
    got.dtype == want.dtype
        && got.sizes == want.sizes
        && got.values.len() == want.values.len()
        && got
            .values
            .iter()
            .zip(&want.values)
            .enumerate()
            .all(|(i, (g, w))| match (g, w) {
                (Scalar::Float(g), Scalar::Float(w)) => real(*g, *w, x(i)),
                (Scalar::Complex(a, b), Scalar::Complex(c, d)) => {
                    let near = |x: f64, y: f64| (x - y).abs() <= 1e-12 * y.abs().max(1.0);
                    near(*a, *c) && near(*b, *d)
                }
                (g, w) => g == w,
            })
}

#[test]
fn activations_match_pytorch() {
    let cases = cases();
    assert!(cases.len() > 140, "the fixture file lost its cases");
    check_elementwise_cases(&cases, run, |case, got, want, element| {
        let inputs = any_outcome(&any_of(&case["a"])).values;
        let inputs = element.map_or(&inputs[..], |i| &inputs[i..=i]);
        let erf_bound = case["op"] == "gelu"
            && case["args"]["approximate"] == "none"
            && case["a"]["dtype"]
                .as_str()
                .is_some_and(|d| d.starts_with("float") || d == "bfloat16");
        close(got, want, inputs, erf_bound)
    });
}

/// The typed methods give what `AnyTensor` gives, on a static shape, and
/// the half types round once from float32.
#[test]
fn typed_forms_agree_with_the_runtime_forms() {
    let x = tensor![[-3.5f32, -0.25, 0.0], [0.75, 2.5, 25.0]];
    let a = AnyTensor::from(DynTensor::<f32>::from_vec(x.to_vec(), &[2, 3]).unwrap());
    type Static = Tensor<f32, shape![2, 3]>;
    let typed: [(Static, AnyTensor); 10] = [
        (x.gelu(), a.gelu("none").unwrap()),
        (x.gelu_tanh(), a.gelu("tanh").unwrap()),
        (x.silu(), a.silu().unwrap()),
        (x.softplus(2.0, 10.0), a.softplus(2.0, 10.0).unwrap()),
        (x.mish(), a.mish().unwrap()),
        (x.elu(0.5), a.elu(0.5).unwrap()),
        (x.leaky_relu(0.1), a.leaky_relu(0.1).unwrap()),
        (x.hardtanh(-1.0, 2.0), a.hardtanh(-1.0, 2.0).unwrap()),
        (x.hardswish(), a.hardswish().unwrap()),
        (x.logsigmoid(), a.logsigmoid().unwrap()),
    ];
    for (t, any) in typed {
        assert_eq!(t.to_vec(), any.downcast::<f32>().unwrap().to_vec());
    }
    let h = DynTensor::<half::f16>::from_vec(
        x.to_vec().into_iter().map(half::f16::from_f32).collect(),
        &[6],
    )
    .unwrap();
    let from_f32: Vec<half::f16> = h
        .cast::<f32>()
        .mish()
        .to_vec()
        .into_iter()
        .map(half::f16::from_f32)
        .collect();
    assert_eq!(h.mish().to_vec(), from_f32);
    let caught = std::panic::catch_unwind(|| x.hardtanh(1.0, -1.0)).unwrap_err();
    assert_eq!(
        caught.downcast_ref::<&str>().copied(),
        Some("min_val cannot be greater than max_val")
    );
}
