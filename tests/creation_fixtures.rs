//! The deterministic constructors checked against PyTorch 2.15.0
//! (`tests/fixtures/creation.json`, written by
//! `scripts/fixtures/creation.py`): `arange(start, end, step)`,
//! `linspace`, `logspace` and `eye` through `AnyTensor` on every dtype, and
//! `zeros_like`, `ones_like`, `full_like`, `empty_like` of contiguous,
//! transposed, stepped, expanded and empty inputs (sizes, strides, dtype,
//! values; `empty_like`'s values are not PyTorch's to compare).
//!
//! Values are exact, except float `arange`: PyTorch's vectorized loop
//! computes a vector's lanes as `base + j * step` from its first element,
//! `shaped` each element as `start + i * step` rounded once (PyTorch's
//! scalar loop), which may differ by a rounding of the range's magnitude
//! ([`arange_close`]).

use super::common::number;
use super::common::tensors::{
    FromJson, Outcome, any_outcome, assert_no_failures, check_case, expected, input, layout,
    outcome, same, wanted,
};
use half::{bf16, f16};
use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::dynamic::AnyElement;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/creation.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

fn dtype(name: &str) -> DType {
    expected(&serde_json::json!({"dtype": name, "sizes": [], "strides": [], "values": []})).dtype
}

/// A number argument as the [`Scalar`] of its JSON kind (an integer is a
/// Python int: PyTorch's integer length rule and checks depend on it).
fn arg(v: &Value) -> Scalar {
    match v {
        Value::Object(_) => Scalar::Complex(number(&v["re"]), number(&v["im"])),
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap()),
        other => Scalar::Float(number(other)),
    }
}

/// Float `arange` within two roundings of the range's magnitude: PyTorch's
/// vectorized loop computes a vector's lanes from its first element
/// (`base + j * step`, for the half types in their own precision), so its
/// values near zero keep the rounding error of the bounds; anything else
/// equal.
fn arange_close(case: &Value, got: &Outcome, want: &Outcome) -> bool {
    let epsilon = match want.dtype {
        DType::F16 => 2f64.powi(-10),
        DType::BF16 => 2f64.powi(-7),
        DType::F32 => 2f64.powi(-23),
        DType::F64 => 2f64.powi(-52),
        _ => return same(got, want),
    };
    let magnitude = number(&case["start"]).abs().max(number(&case["end"]).abs());
    let mut loose = want.clone();
    for (w, g) in loose.values.iter_mut().zip(&got.values) {
        if let (Scalar::Float(a), Scalar::Float(b)) = (&*w, g)
            && (a - b).abs() <= 2.0 * epsilon * magnitude
        {
            *w = *g;
        }
    }
    same(got, &loose)
}

/// Every case: `run(case)` against its result within `close`, or its
/// error's text exactly.
fn check_outcomes(
    cases: &[Value],
    run: impl Fn(&Value) -> Result<Outcome, String>,
    close: impl Fn(&Value, &Outcome, &Outcome) -> bool,
) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = run(c).map(|o| vec![o]);
            check_case(c, &got, &wanted(c), |g, w| close(c, g, w)).err()
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}

/// [`check_outcomes`] of `AnyTensor` results.
fn check_cases(
    cases: &[Value],
    run: impl Fn(&Value) -> Result<AnyTensor, String>,
    close: impl Fn(&Value, &Outcome, &Outcome) -> bool,
) {
    check_outcomes(cases, |c| run(c).map(|t| any_outcome(&t)), close);
}

#[test]
fn constructors_match_pytorch() {
    let cases: Vec<Value> = cases()
        .into_iter()
        .filter(|c| ["arange", "linspace", "logspace", "eye"].contains(&c["op"].as_str().unwrap()))
        .collect();
    assert!(cases.len() > 350, "{} cases", cases.len());
    check_cases(
        &cases,
        |c| {
            let dt = dtype(c["dtype"].as_str().unwrap());
            let steps = || c["steps"].as_u64().unwrap() as usize;
            match c["op"].as_str().unwrap() {
                "arange" => {
                    AnyTensor::arange_step(arg(&c["start"]), arg(&c["end"]), arg(&c["step"]), dt)
                }
                "linspace" => AnyTensor::linspace(arg(&c["start"]), arg(&c["end"]), steps(), dt),
                "logspace" => AnyTensor::logspace(
                    arg(&c["start"]),
                    arg(&c["end"]),
                    steps(),
                    number(&c["base"]),
                    dt,
                ),
                _ => AnyTensor::eye(c["n"].as_i64().unwrap(), c["m"].as_i64().unwrap(), dt),
            }
            .map_err(|e| e.to_string())
        },
        |c, got, want| match c["op"].as_str().unwrap() {
            "arange" => arange_close(c, got, want),
            _ => same(got, want),
        },
    );
}

/// `op` of the case's input (PyTorch's storage and layout), typed, as an
/// [`Outcome`] (with the result's own strides).
fn like_of<T: FromJson + AnyElement>(case: &Value) -> Result<Outcome, String>
where
    AnyTensor: From<DynTensor<T>>,
{
    let base = input::<T>(case);
    let (sizes, strides, offset) = layout(case);
    let x = base.as_strided(&sizes, &strides, offset).unwrap();
    let out = match case["op"].as_str().unwrap() {
        "zeros_like" => x.zeros_like(),
        "ones_like" => x.ones_like(),
        "empty_like" => x.empty_like(),
        _ => {
            // Through `AnyTensor`: the number's checked conversion.
            let any = AnyTensor::from(x.clone());
            let full = any
                .full_like(arg(&case["value"]))
                .map_err(|e| e.to_string())?;
            let typed = full.downcast::<T>().unwrap();
            return Ok(outcome(&typed));
        }
    };
    Ok(outcome(&out))
}

#[test]
fn like_constructors_match_pytorch() {
    let cases: Vec<Value> = cases()
        .into_iter()
        .filter(|c| c["op"].as_str().unwrap().ends_with("_like"))
        .collect();
    assert!(cases.len() > 100, "{} cases", cases.len());
    check_outcomes(
        &cases,
        |c| match c["dtype"].as_str().unwrap() {
            "float16" => like_of::<f16>(c),
            "bfloat16" => like_of::<bf16>(c),
            "float32" => like_of::<f32>(c),
            "float64" => like_of::<f64>(c),
            "complex64" => like_of::<Complex<f32>>(c),
            "complex128" => like_of::<Complex<f64>>(c),
            "uint8" => like_of::<u8>(c),
            "int8" => like_of::<i8>(c),
            "int16" => like_of::<i16>(c),
            "int32" => like_of::<i32>(c),
            "int64" => like_of::<i64>(c),
            d => {
                assert_eq!(d, "bool");
                like_of::<bool>(c)
            }
        },
        |c, got, want| match c["op"].as_str().unwrap() {
            // Sizes, strides and dtype: PyTorch's values are whatever its
            // memory held.
            "empty_like" => {
                (&got.sizes, &got.strides, got.dtype) == (&want.sizes, &want.strides, want.dtype)
            }
            _ => same(got, want),
        },
    );
}

/// The typed forms give the dynamic forms' tensors.
#[test]
fn static_forms_agree_with_the_dynamic_ones() {
    let s = Tensor::<f32, shape![7]>::linspace(-3.0, 3.5);
    let d = DynTensor::<f32>::linspace_with(-3.0, 3.5, 7).unwrap();
    assert_eq!(s.to_vec(), d.to_vec());
    let s = Tensor::<f64, shape![5]>::logspace(-2.0, 2.0, 10.0);
    let d = DynTensor::<f64>::logspace_with(-2.0, 2.0, 5, 10.0).unwrap();
    assert_eq!(s.to_vec(), d.to_vec());
    let s = Tensor::<u8, shape![3, 4]>::eye();
    let d = DynTensor::<u8>::eye_with(3, 4).unwrap();
    assert_eq!(
        (s.to_vec(), s.shape().to_vec()),
        (d.to_vec(), d.shape().to_vec())
    );
    let s = Tensor::<i32, shape![4]>::arange_step(10, 0, -3).unwrap();
    assert_eq!(s.to_vec(), vec![10, 7, 4, 1]);
    let err = Tensor::<i32, shape![5]>::arange_step(10, 0, -3).unwrap_err();
    assert_eq!(
        err.to_string(),
        "size 4 at dimension 0 contradicts the static size 5"
    );
    let e = Tensor::<f32, shape![Dyn, 2]>::eye_with(3, 3).unwrap_err();
    assert_eq!(
        e.to_string(),
        "size 3 at dimension 1 contradicts the static size 2"
    );
}

#[test]
fn like_constructors_keep_the_device_shape_and_layout_of_views() {
    let base = DynTensor::<f32>::arange(24);
    let x = base.as_strided(&[2, 3, 4], &[1, 8, 2], 0).unwrap();
    let z = x.ones_like();
    assert_eq!(
        (z.shape().to_vec(), z.strides().to_vec()),
        (vec![2, 3, 4], vec![1, 8, 2])
    );
    let mut g = shaped::random::Generator::new(5);
    let r = x.rand_like(&mut g);
    assert_eq!(r.strides(), x.strides());
    assert!(r.iter().all(|&v| (0.0..1.0).contains(&v)));
    let n = x.randn_like(&mut g);
    assert!(n.iter().any(|&v| v < 0.0) && n.iter().any(|&v| v > 0.0));
}

/// `randint` and `randperm`: PyTorch's dtype, sizes and strides (its values
/// come from another stream) and its refusals, through `AnyTensor`.
#[test]
fn random_integers_match_pytorch_in_shape_and_refusals() {
    let cases: Vec<Value> = cases()
        .into_iter()
        .filter(|c| ["randint", "randperm"].contains(&c["op"].as_str().unwrap()))
        .collect();
    assert!(cases.len() > 120, "{} cases", cases.len());
    let mut generator = shaped::random::Generator::new(2026);
    let generator = std::cell::RefCell::new(&mut generator);
    check_cases(
        &cases,
        |c| {
            let dt = dtype(c["dtype"].as_str().unwrap());
            let g = &mut **generator.borrow_mut();
            match c["op"].as_str().unwrap() {
                "randint" => {
                    let sizes: Vec<usize> = super::common::tensors::ints(&c["sizes"]);
                    let (low, high) = (c["low"].as_i64().unwrap(), c["high"].as_i64().unwrap());
                    AnyTensor::randint(low, high, &sizes, dt, g)
                }
                _ => AnyTensor::randperm(c["n"].as_i64().unwrap(), dt, g),
            }
            .map_err(|e| e.to_string())
        },
        |c, got, want| {
            let shaped =
                (&got.sizes, &got.strides, got.dtype) == (&want.sizes, &want.strides, want.dtype);
            // The values: within the bounds, or a permutation.
            let values: Vec<f64> = got
                .values
                .iter()
                .map(|v| match v {
                    Scalar::Int(i) => *i as f64,
                    Scalar::Float(x) => *x,
                    Scalar::Bool(b) => f64::from(u8::from(*b)),
                    Scalar::Complex(..) => f64::NAN,
                })
                .collect();
            let valid = match c["op"].as_str().unwrap() {
                "randint" => {
                    let (low, high) = (number(&c["low"]), number(&c["high"]));
                    values
                        .iter()
                        .all(|&v| v >= low && v < high && v.fract() == 0.0)
                }
                // bfloat16 counts exactly only to 256: PyTorch rounds too.
                _ if got.dtype == DType::BF16 && values.len() > 257 => values
                    .iter()
                    .all(|&v| (0.0..=values.len() as f64).contains(&v)),
                _ => {
                    let mut sorted = values.clone();
                    sorted.sort_by(f64::total_cmp);
                    sorted.iter().enumerate().all(|(i, &v)| v == i as f64)
                }
            };
            shaped && valid
        },
    );
}
