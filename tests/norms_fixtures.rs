//! `vector_norm`, `norm`, `dist`, `nansum`, `nanmean`, `count_nonzero` and
//! `aminmax` against PyTorch 2.15 (`scripts/fixtures/norms.py` →
//! `tests/fixtures/norms.json`): every dtype (refusals by their texts),
//! every order (0, fractional, negative, infinite), lists of dims, keepdim,
//! empty tensors and dims, NaN and inf, overflow and underflow, half types,
//! strided inputs, `vector_norm`'s `dtype=` and `dist` between two dtypes
//! (on `AnyTensor`). Tolerances as the moments'.

use crate::common;

use common::tensors::*;
use serde_json::Value;
use shaped::ops::norms::{NanSum, NormInput};
use shaped::prelude::*;

fn close(got: &Outcome, want: &Outcome) -> bool {
    let (rel, abs) = match want.dtype {
        DType::F16 => (2.0 * 2f64.powi(-10), 1e-7),
        DType::BF16 => (2.0 * 2f64.powi(-7), 1e-7),
        DType::F32 | DType::C64 => (2e-5, 1e-30),
        _ => (1e-12, 1e-300),
    };
    close_within(got, want, rel, abs)
}

fn order(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        Value::String(s) if s == "fro" => 2.0,
        Value::Null => 2.0,
        v => v.as_f64().unwrap(),
    }
}

fn dims(v: &Value, rank: usize) -> Vec<isize> {
    match v.as_array() {
        Some(_) => ints::<i64>(v).into_iter().map(|d| d as isize).collect(),
        None => (0..rank as isize).collect(),
    }
}

/// The second operand of `dist`, as a strided view's owned copy.
fn other<T: FromJson>(case: &Value) -> DynTensor<T> {
    let o = &case["other"];
    let data: Vec<T> = o["storage"]
        .as_array()
        .unwrap()
        .iter()
        .map(T::from_json)
        .collect();
    let n = data.len();
    let base = DynTensor::<T>::from_vec(data, &[n]).unwrap();
    base.as_strided(
        &ints::<usize>(&o["sizes"]),
        &ints::<usize>(&o["strides"]),
        o["offset"].as_u64().unwrap() as usize,
    )
    .unwrap()
    .to_owned()
}

fn run<T: FromJson + NormInput + NanSum>(case: &Value) -> Result<Vec<Outcome>, String> {
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let x = base.as_strided(&sizes, &strides, offset).unwrap();
    let args = &case["args"];
    let keepdim = args["keepdim"].as_bool().unwrap_or(false);
    let text = |e: Error| e.to_string();
    let one = |r: Result<Outcome, Error>| r.map(|o| vec![o]).map_err(text);
    match case["op"].as_str().unwrap() {
        "vector_norm" => {
            // dims null is every dim; an empty list too.
            let d = match args["dims"].as_array() {
                Some(_) => dims(&args["dims"], sizes.len()),
                None => Vec::new(),
            };
            one(x
                .vector_norm(order(&args["ord"]), &d, keepdim)
                .map(|t| outcome(&t)))
        }
        "norm" => one(x.norm(order(&args["p"])).map(|t| outcome(&t))),
        "dist" => one(x
            .dist(&other::<T>(case), order(&args["p"]))
            .map(|t| outcome(&t))),
        "nansum" => {
            let d = dims(&args["dims"], 0);
            one(x.nansum(&d, keepdim).map(|t| outcome(&t)))
        }
        "nanmean" => {
            let d = dims(&args["dims"], 0);
            one(x.nanmean(&d, keepdim).map(|t| outcome(&t)))
        }
        "count_nonzero" => {
            let d = dims(&args["dims"], 0);
            one(x.count_nonzero(&d).map(|t| outcome(&t)))
        }
        "aminmax" => {
            let dim = args["dim"].as_i64().map(|d| d as isize);
            x.aminmax(dim, keepdim)
                .map(|(lo, hi)| vec![outcome(&lo), outcome(&hi)])
                .map_err(text)
        }
        op => panic!("op {op}"),
    }
}

/// `dist` between two dtypes, on runtime dtypes.
fn mixed_dist(case: &Value) -> Result<Vec<Outcome>, String> {
    let operand = |o: &Value, dtype: &Value| {
        let sizes = ints::<usize>(&o["sizes"]);
        // (The recorded operands are contiguous, from offset 0.)
        assert_eq!(o["strides"], serde_json::json!(contiguous(&sizes)));
        assert_eq!(o["offset"], 0);
        any_of(&serde_json::json!({"dtype": dtype, "sizes": sizes, "values": o["storage"]}))
    };
    let x = operand(&case["input"], &case["dtype"]);
    let y = operand(&case["other"], &case["other_dtype"]);
    x.dist(&y, order(&case["args"]["p"]))
        .map(|t| vec![any_outcome(&t)])
        .map_err(|e| e.to_string())
}

/// Row-major strides.
fn contiguous(sizes: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; sizes.len()];
    for d in (0..sizes.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * sizes[d + 1];
    }
    strides
}

/// `vector_norm` with PyTorch's `dtype=`, on runtime dtypes.
fn with_dtype<T: FromJson>(case: &Value) -> Result<Vec<Outcome>, String>
where
    AnyTensor: From<DynTensor<T>>,
{
    let name = case["args"]["dtype"].as_str().unwrap();
    let dtype =
        expected(&serde_json::json!({"dtype": name, "sizes": [], "strides": [], "values": []}))
            .dtype;
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let x = AnyTensor::from(
        base.as_strided(&sizes, &strides, offset)
            .unwrap()
            .to_owned(),
    );
    let args = &case["args"];
    let d = match args["dims"].as_array() {
        Some(_) => dims(&args["dims"], sizes.len()),
        None => Vec::new(),
    };
    x.vector_norm_in(
        order(&args["ord"]),
        &d,
        args["keepdim"].as_bool().unwrap(),
        dtype,
    )
    .map(|t| vec![any_outcome(&t)])
    .map_err(|e| e.to_string())
}

#[test]
fn norms_match_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/norms.json")).unwrap();
    let cases = json["cases"].as_array().unwrap();
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in cases {
        let got = match case["args"]["dtype"].as_str() {
            _ if case.get("other_dtype").is_some() => mixed_dist(case),
            Some(_) if case["op"] == "vector_norm" => by_dtype!(case, with_dtype),
            _ => by_dtype!(case, run),
        };
        match check_case(case, &got, &wanted(case), close) {
            Ok(()) => passed += 1,
            Err(line) => failures.push(line),
        }
    }
    assert_no_failures(&failures, cases.len());
    assert_eq!(passed, cases.len());
}
