//! Predicates, logic and bitwise operations checked against PyTorch 2.15.0
//! (`tests/fixtures/logic.json`, written by `scripts/fixtures/logic.py`):
//! every dtype with its edge values (±0, ±inf, NaN, subnormals, the
//! integer extremes), shifts by negative amounts and past the width, mixed
//! dtypes, broadcasting, numbers, the in-place forms and every refusal's
//! text. Results are exact. Each case runs through `AnyTensor`; the typed
//! operators are checked against it on the same data below.

use crate::common;

use common::tensors::{any_of, any_outcome, assert_no_failures, expected, same, scalar};
use serde_json::Value;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/logic.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// The case's operation on `AnyTensor`.
fn run(case: &Value) -> Result<AnyTensor, String> {
    let a = any_of(&case["a"]);
    let op = case["op"].as_str().unwrap();
    let text = |e: shaped::error::Error| e.to_string();
    if let Some(b) = case.get("b") {
        let b = any_of(b);
        if op == "isclose" {
            let (rtol, atol, equal_nan) = tolerances(case);
            return a.isclose(&b, rtol, atol, equal_nan).map_err(text);
        }
        if case.get("in_place").is_some() {
            let mut x = a;
            match op {
                "bitwise_and" => x.try_bitwise_and_assign(&b),
                "bitwise_or" => x.try_bitwise_or_assign(&b),
                "bitwise_xor" => x.try_bitwise_xor_assign(&b),
                "bitwise_left_shift" => x.try_bitwise_left_shift_assign(&b),
                "bitwise_right_shift" => x.try_bitwise_right_shift_assign(&b),
                _ => panic!("{op} in place"),
            }
            .map_err(text)?;
            return Ok(x);
        }
        return match op {
            "bitwise_and" => a.try_bitwise_and(&b),
            "bitwise_or" => a.try_bitwise_or(&b),
            "bitwise_xor" => a.try_bitwise_xor(&b),
            "bitwise_left_shift" => a.try_bitwise_left_shift(&b),
            "bitwise_right_shift" => a.try_bitwise_right_shift(&b),
            "logical_and" => a.try_logical_and(&b),
            "logical_or" => a.try_logical_or(&b),
            "logical_xor" => a.try_logical_xor(&b),
            _ => panic!("{op} of two tensors"),
        }
        .map_err(text);
    }
    if let Some(n) = case.get("number") {
        let n = scalar(n);
        return match op {
            "bitwise_and" => a.try_bitwise_and(n),
            "bitwise_or" => a.try_bitwise_or(n),
            "bitwise_xor" => a.try_bitwise_xor(n),
            "bitwise_left_shift" => a.try_bitwise_left_shift(n),
            "bitwise_right_shift" => a.try_bitwise_right_shift(n),
            _ => panic!("{op} with a number"),
        }
        .map_err(text);
    }
    match op {
        "isnan" => a.isnan(),
        "isinf" => a.isinf(),
        "isposinf" => a.isposinf(),
        "isneginf" => a.isneginf(),
        "isfinite" => a.isfinite(),
        "isreal" => a.isreal(),
        "logical_not" => a.logical_not(),
        "bitwise_not" => a.bitwise_not(),
        _ => panic!("unary {op}"),
    }
    .map_err(text)
}

/// A fixture float: a JSON number, or "nan"/"inf"/"-inf".
fn float(v: &Value) -> f64 {
    match v.as_str() {
        Some(text) => text.parse().unwrap(),
        None => v.as_f64().unwrap(),
    }
}

/// `rtol`, `atol` and `equal_nan` of an `isclose`/`allclose` case.
fn tolerances(case: &Value) -> (f64, f64, bool) {
    (
        float(&case["rtol"]),
        float(&case["atol"]),
        case["equal_nan"].as_bool().unwrap(),
    )
}

/// `allclose` and `equal`, whose result is one bool.
fn flag(case: &Value) -> Result<bool, String> {
    let (a, b) = (any_of(&case["a"]), any_of(&case["b"]));
    let result = match case["op"].as_str().unwrap() {
        "allclose" => {
            let (rtol, atol, equal_nan) = tolerances(case);
            a.allclose(&b, rtol, atol, equal_nan)
        }
        "equal" => a.equal(&b),
        op => panic!("{op} gives a tensor"),
    };
    result.map_err(|e| e.to_string())
}

#[test]
fn logic_matches_pytorch() {
    let cases = cases();
    assert!(cases.len() > 800, "the fixture file lost its cases");
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        if case.get("value").is_some() || matches!(case["op"].as_str(), Some("allclose" | "equal"))
        {
            let got = flag(case);
            let ok = match (&got, case.get("value"), case.get("error")) {
                (Ok(v), Some(want), _) => want.as_bool() == Some(*v),
                (Err(text), _, Some(error)) => error["message"].as_str() == Some(text.as_str()),
                _ => false,
            };
            if !ok {
                let want = case.get("value").or(case.get("error")).unwrap();
                failures.push(format!("{id}: got {got:?}, want {want}"));
            }
            continue;
        }
        let got = run(case);
        let ok = match (&got, case.get("result"), case.get("error")) {
            (Ok(t), Some(want), _) => same(&any_outcome(t), &expected(want)),
            (Err(text), _, Some(error)) => error["message"].as_str() == Some(text.as_str()),
            _ => false,
        };
        if !ok {
            let want = case.get("result").or(case.get("error")).unwrap();
            failures.push(format!(
                "{id}: got {:?}, want {want}",
                got.map(|t| any_outcome(&t))
            ));
        }
    }
    assert_no_failures(&failures, cases.len());
}

/// The typed operators and methods give what `AnyTensor` gives (and so
/// PyTorch's values) on the fixtures' integer and bool operands.
#[test]
fn typed_operators_agree_with_the_runtime_forms() {
    let x =
        DynTensor::<i16>::from_vec(vec![0, 1, -1, 7, -8, i16::MAX, i16::MIN, 100], &[8]).unwrap();
    let n = DynTensor::<i16>::from_vec(vec![0, 1, 15, 16, -1, 3, 2, 40], &[8]).unwrap();
    let (ax, an) = (AnyTensor::from(x.clone()), AnyTensor::from(n.clone()));
    let pairs: [(DynTensor<i16>, AnyTensor); 5] = [
        (&x & &n, ax.try_bitwise_and(&an).unwrap()),
        (&x | &n, ax.try_bitwise_or(&an).unwrap()),
        (&x ^ &n, ax.try_bitwise_xor(&an).unwrap()),
        (&x << &n, ax.try_bitwise_left_shift(&an).unwrap()),
        (&x >> &n, ax.try_bitwise_right_shift(&an).unwrap()),
    ];
    for (typed, any) in pairs {
        assert_eq!(typed.to_vec(), any.downcast::<i16>().unwrap().to_vec());
    }
    assert_eq!(
        (!&x).to_vec(),
        ax.bitwise_not()
            .unwrap()
            .downcast::<i16>()
            .unwrap()
            .to_vec()
    );
    let mut y = x.clone();
    y <<= &n;
    y ^= 5;
    let mut ay = ax.clone();
    ay.try_bitwise_left_shift_assign(&an).unwrap();
    ay.try_bitwise_xor_assign(shaped::dtype::Scalar::Int(5))
        .unwrap();
    assert_eq!(y.to_vec(), ay.downcast::<i16>().unwrap().to_vec());
    // A number on the left, and a bool tensor beside an integer one.
    assert_eq!((1i64 << &n).to_vec()[..3], [1, 2, i16::MIN]);
    let m = DynTensor::<bool>::from_vec(vec![true, false], &[2]).unwrap();
    let i = DynTensor::<i32>::from_vec(vec![3, 3], &[2]).unwrap();
    assert_eq!((&i & &m).to_vec(), vec![1, 0]);
    assert_eq!((!&m).to_vec(), vec![false, true]);
    // A bool tensor shifted by a number computes in int64, as PyTorch's
    // `torch.tensor([True, False]) << 1` gives `tensor([2, 0])`.
    let shifted: DynTensor<i64> = &m << 1i64;
    assert_eq!(shifted.to_vec(), vec![2, 0]);
    assert_eq!(m.logical_xor(&i).to_vec(), vec![false, true]);
}
