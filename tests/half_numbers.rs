//! float16 and bfloat16 tensors with a plain number, or with one element of
//! another type, checked against PyTorch 2.15.0
//! (`tests/fixtures/half_numbers.json`, written by
//! `scripts/fixtures/half_numbers.py`): `*` and `/` keep such an operand in
//! float32 (PyTorch's `opmath`) and round once; `+` and `-` round the
//! number to the half type first. Results are exact, through `AnyTensor`
//! and through the typed operators.

use crate::common;

use common::tensors::{any_of, any_outcome, assert_no_failures, expected, outcome, same, scalar};
use half::{bf16, f16};
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::dynamic::Operand;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/half_numbers.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// The case through `AnyTensor`.
fn run_any(case: &Value) -> AnyTensor {
    let a = any_of(&case["a"]);
    let (op, form) = (case["op"].as_str().unwrap(), case["form"].as_str().unwrap());
    match case.get("b") {
        Some(t) => apply(a, Operand::from(&any_of(t)), op, form),
        None => apply(a, Operand::from(scalar(&case["number"])), op, form),
    }
}

fn apply(a: AnyTensor, b: Operand<'_, Cpu>, op: &str, form: &str) -> AnyTensor {
    if form.ends_with("in_place") {
        let mut x = a;
        match op {
            "add" => x.try_add_assign(b),
            "sub" => x.try_sub_assign(b),
            "mul" => x.try_mul_assign(b),
            _ => x.try_div_assign(b),
        }
        .unwrap();
        return x;
    }
    match op {
        "add" => a.try_add(b),
        "sub" => a.try_sub(b),
        "mul" => a.try_mul(b),
        _ => a.try_div(b),
    }
    .unwrap()
}

#[test]
fn half_types_with_numbers_match_pytorch() {
    let cases = cases();
    assert!(cases.len() > 600, "the fixture file lost its cases");
    let mut failures = Vec::new();
    for case in &cases {
        let got = any_outcome(&run_any(case));
        let want = expected(&case["result"]);
        if !same(&got, &want) {
            failures.push(format!("{}: got {got:?}, want {want:?}", case["id"]));
        }
    }
    assert_no_failures(&failures, cases.len());
}

/// The typed operators, numbers and rank-0 tensors, on the same cases.
#[test]
fn typed_operators_match_pytorch() {
    fn number_case<H: shaped::dynamic::AnyElement>(case: &Value) -> Option<common::tensors::Outcome>
    where
        for<'a> &'a DynTensor<H>: core::ops::Mul<f64, Output = DynTensor<H>>
            + core::ops::Div<f64, Output = DynTensor<H>>
            + core::ops::Add<f64, Output = DynTensor<H>>
            + core::ops::Sub<f64, Output = DynTensor<H>>
            + core::ops::Mul<i64, Output = DynTensor<H>>
            + core::ops::Div<i64, Output = DynTensor<H>>,
        DynTensor<H>: core::ops::MulAssign<f64> + core::ops::DivAssign<f64>,
    {
        let a = any_of(&case["a"]).downcast::<H>().unwrap();
        let op = case["op"].as_str().unwrap();
        let out = match (case["form"].as_str().unwrap(), scalar(&case["number"])) {
            ("number", Scalar::Float(n)) => match op {
                "add" => &a + n,
                "sub" => &a - n,
                "mul" => &a * n,
                _ => &a / n,
            },
            ("number", Scalar::Int(n)) if op == "mul" => &a * n,
            ("number", Scalar::Int(n)) if op == "div" => &a / n,
            ("in_place", Scalar::Float(n)) if op == "mul" || op == "div" => {
                let mut x = a.clone();
                if op == "mul" {
                    x *= n;
                } else {
                    x /= n;
                }
                x
            }
            _ => return None,
        };
        Some(outcome(&out))
    }
    fn rank0_case<H: shaped::dynamic::AnyElement>(case: &Value) -> Option<common::tensors::Outcome>
    where
        for<'a, 'b> &'a DynTensor<H>: core::ops::Mul<&'b Tensor<f32, shape![]>, Output = DynTensor<H>>
            + core::ops::Div<&'b Tensor<f64, shape![]>, Output = DynTensor<H>>,
        for<'b> DynTensor<H>: core::ops::MulAssign<&'b Tensor<f32, shape![]>>,
    {
        let a = any_of(&case["a"]).downcast::<H>().unwrap();
        let b = any_of(&case["b"]);
        if !b.shape().is_empty() {
            return None;
        }
        let op = case["op"].as_str().unwrap();
        let out = match (case["form"].as_str().unwrap(), op, b.dtype()) {
            ("tensor", "mul", DType::F32) => {
                &a * &Tensor::<f32, shape![]>::full(b.downcast::<f32>().unwrap().to_vec()[0])
            }
            ("tensor", "div", DType::F64) => {
                &a / &Tensor::<f64, shape![]>::full(b.downcast::<f64>().unwrap().to_vec()[0])
            }
            ("tensor_in_place", "mul", DType::F32) => {
                let mut x = a.clone();
                x *= &Tensor::<f32, shape![]>::full(b.downcast::<f32>().unwrap().to_vec()[0]);
                x
            }
            _ => return None,
        };
        Some(outcome(&out))
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases() {
        let f16_case = case["a"]["dtype"] == "float16";
        let got = match (case.get("b").is_some(), f16_case) {
            (false, true) => number_case::<f16>(case),
            (false, false) => number_case::<bf16>(case),
            (true, true) => rank0_case::<f16>(case),
            (true, false) => rank0_case::<bf16>(case),
        };
        let Some(got) = got else { continue };
        checked += 1;
        let want = expected(&case["result"]);
        if !same(&got, &want) {
            failures.push(format!("{}: got {got:?}, want {want:?}", case["id"]));
        }
    }
    assert!(checked > 180, "only {checked} typed cases");
    assert_no_failures(&failures, checked);
}

/// `number * tensor` is `tensor * number`, and `number / tensor` divides
/// in float32 and rounds once.
#[test]
fn numbers_on_the_left() {
    let x = DynTensor::<f16>::from_vec([3.0f32, 1000.0, 7.0].map(f16::from_f32).to_vec(), &[3])
        .unwrap();
    assert_eq!((1e-5 * &x).to_vec(), (&x * 1e-5).to_vec());
    assert_eq!((&x * 1e-5).to_vec()[0], f16::from_f32(3.0 * 1e-5));
    let q = (0.1f64 / &x).to_vec();
    assert_eq!(q[0], f16::from_f32(0.1f32 / 3.0));
}
