//! `softmax`, `log_softmax` and `logsumexp` against PyTorch 2.15
//! (`scripts/fixtures/softmax.py` → `tests/fixtures/softmax.json`): every
//! dtype (the refused ones by their error texts), the `dtype` argument,
//! ranks 0 to 4 with every dim, empty tensors, NaN and infinite rows, large
//! values, long rows and columns, and strided inputs (transposed, stepped,
//! expanded), read as views.
//!
//! Values agree within a tolerance per dtype: PyTorch's own values move in
//! the last bit with the machine's vector width and its thread count (the
//! script records one thread on an AVX2 machine). float32 within 4e-6
//! relative (a few units in the last place: a polynomial `exp` and another
//! order of additions), float64 within 1e-13. The half types compute in
//! float32 and round once; PyTorch's kernels round some intermediate values
//! (`x - max`, `max + ln(sum)`) to the half type, so its results sit up to
//! one unit in the last place *of 1* away (float16: 2^-11 absolute,
//! bfloat16: 2^-8) besides two units relative. NaN must be NaN,
//! infinities exact.

use crate::common;

use common::tensors::*;
use serde_json::Value;
use shaped::ops::normalize::{LogSumExp, SoftmaxInput};
use shaped::prelude::*;

/// `(relative, absolute)` tolerance of a dtype's values.
fn tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::F16 => (2.0 * 2f64.powi(-10), 2f64.powi(-11)),
        DType::BF16 => (2.0 * 2f64.powi(-7), 2f64.powi(-8)),
        DType::F32 | DType::C64 => (4e-6, 1e-12),
        _ => (1e-13, 1e-300),
    }
}

fn close(got: &Outcome, want: &Outcome) -> bool {
    let (rel, abs) = tolerance(want.dtype);
    close_within(got, want, rel, abs)
}

fn dtype_named(name: &str) -> DType {
    expected(&serde_json::json!({"dtype": name, "sizes": [], "strides": [], "values": []})).dtype
}

/// The case run on a strided view of its dtype (no `dtype` argument), and
/// on runtime dtypes; both must agree.
fn run<T: FromJson + SoftmaxInput>(case: &Value) -> Result<Outcome, String>
where
    AnyTensor: From<DynTensor<T>>,
{
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let dim = case["args"]["dim"].as_i64().unwrap() as isize;
    let log = case["op"] == "log_softmax";
    let dtype = case["args"]["dtype"].as_str().map(dtype_named);
    let any = AnyTensor::from(view.to_owned());
    let through_any = match log {
        false => any.softmax(dim, dtype),
        true => any.log_softmax(dim, dtype),
    }
    .map(|t| any_outcome(&t))
    .map_err(|e| e.to_string());
    if dtype.is_none() {
        let typed = match log {
            false => view.softmax(dim),
            true => view.log_softmax(dim),
        }
        .map(|t| outcome(&t))
        .map_err(|e| e.to_string());
        let agree = match (&typed, &through_any) {
            (Ok(a), Ok(b)) => same(a, b),
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        assert!(agree, "{}: a view and AnyTensor differ", case["id"]);
    }
    through_any
}

/// `logsumexp` on a strided view (typed) and on runtime dtypes.
fn run_logsumexp<T: FromJson + LogSumExp>(case: &Value) -> Result<Outcome, String>
where
    AnyTensor: From<DynTensor<T>>,
{
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let dims: Vec<isize> = ints::<i64>(&case["args"]["dims"])
        .into_iter()
        .map(|d| d as isize)
        .collect();
    let keepdim = case["args"]["keepdim"].as_bool().unwrap();
    let typed = view
        .logsumexp(&dims, keepdim)
        .map(|t| outcome(&t))
        .map_err(|e| e.to_string());
    let through_any = AnyTensor::from(view.to_owned())
        .logsumexp(&dims, keepdim)
        .map(|t| any_outcome(&t))
        .map_err(|e| e.to_string());
    let agree = match (&typed, &through_any) {
        (Ok(a), Ok(b)) => same(a, b),
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    assert!(agree, "{}: a view and AnyTensor differ", case["id"]);
    typed
}

#[test]
fn softmax_matches_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/softmax.json")).unwrap();
    let cases = json["cases"].as_array().unwrap();
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let got = if case["op"] == "logsumexp" {
            by_dtype!(case, run_logsumexp)
        } else {
            by_dtype!(case, run)
        };
        match (&got, case.get("result"), case.get("error")) {
            (Ok(got), Some(result), _) if close(got, &expected(result)) => passed += 1,
            (Err(text), _, Some(error)) if error["message"].as_str() == Some(text) => passed += 1,
            (got, _, _) => failures.push(format!(
                "{id}: got {got:?}, want {}",
                case.get("result").or(case.get("error")).unwrap()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert_eq!(passed, cases.len());
}
