//! `remainder` (`%`), `fmod` and `floor_divide` checked against PyTorch
//! 2.15.0 (`tests/fixtures/division.json`, written by
//! `scripts/fixtures/division.py`): every dtype with its edge values (±0,
//! ±inf, NaN, subnormals, the integer extremes), mixed dtypes,
//! broadcasting, numbers on either side, the in-place forms and every
//! refusal's text (bool and complex dtypes, `ZeroDivisionError`, shapes,
//! casts). Results are exact. Each case runs through `AnyTensor` (numbers on
//! the left through the typed operator); the typed forms are checked
//! against it below.

use crate::common;

use common::tensors::{any_of, any_outcome, assert_no_failures, expected, same, scalar};
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::dynamic::Operand;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/division.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// `number % x` through the typed operator, `x` of the fixture's dtype.
fn number_on_the_left(x: &AnyTensor, n: Scalar) -> Result<AnyTensor, String> {
    macro_rules! each {
        ($($t:ident),*) => {$(
            if let Some(x) = x.downcast_ref::<$t>() {
                let x = x.to_owned();
                let attempt = std::panic::catch_unwind(|| match n {
                    Scalar::Int(i) => AnyTensor::from(i % &x),
                    Scalar::Float(f) => AnyTensor::from(f % &x),
                    Scalar::Bool(b) => each!(@bool b, x, $t),
                    Scalar::Complex(..) => unreachable!("no complex dividends in the fixtures"),
                });
                return attempt.map_err(|e| {
                    e.downcast_ref::<String>().cloned().unwrap_or_default()
                });
            }
        )*};
        // `true % bool_tensor` computes in bool, which does not compile.
        (@bool $b:ident, $x:ident, bool) => {{
            let _ = $b;
            std::panic::panic_any(String::from("\"remainder_cpu\" not implemented for 'Bool'"))
        }};
        (@bool $b:ident, $x:ident, $t:ident) => { AnyTensor::from($b % &$x) };
    }
    use half::{bf16, f16};
    each!(f16, bf16, f32, f64, u8, i8, i16, i32, i64);
    each!(bool);
    Err(format!(
        "\"remainder_cpu\" not implemented for '{}'",
        torch_name(x.dtype())
    ))
}

/// PyTorch's C++ name of a complex dtype (the typed `%` of a complex
/// tensor does not compile; its `AnyTensor` form gives this text).
fn torch_name(d: DType) -> &'static str {
    match d {
        DType::C64 => "ComplexFloat",
        _ => "ComplexDouble",
    }
}

/// The case on `AnyTensor`; in place, `Err` also checks that the tensor
/// is unchanged.
fn run(case: &Value) -> Result<AnyTensor, String> {
    let a = any_of(&case["a"]);
    let op = case["op"].as_str().unwrap();
    let text = |e: shaped::error::Error| e.to_string();
    if case.get("left").is_some() {
        return number_on_the_left(&a, scalar(&case["number"]));
    }
    let b_tensor = case.get("b").map(any_of);
    let b = match &b_tensor {
        Some(t) => Operand::from(t),
        None => Operand::from(scalar(&case["number"])),
    };
    if case.get("in_place").is_some() {
        let mut x = a.clone();
        let result = match op {
            "remainder" => x.try_remainder_assign(b),
            "fmod" => x.try_fmod_assign(b),
            _ => x.try_floor_divide_assign(b),
        };
        return match result {
            Ok(()) => Ok(x),
            Err(e) => {
                assert!(
                    same(&any_outcome(&x), &any_outcome(&a)),
                    "{}: a failed {op}_ wrote",
                    case["id"]
                );
                Err(text(e))
            }
        };
    }
    match op {
        "remainder" => a.try_remainder(b),
        "fmod" => a.try_fmod(b),
        _ => a.try_floor_divide(b),
    }
    .map_err(text)
}

/// PyTorch 2.15 gives float16 with a complex number ComplexHalf (and
/// bfloat16 BComplex32); `shaped` has no such dtypes and computes in
/// complex64 (see `dtype_fixtures.rs`), so those texts name ComplexFloat.
fn complex_half(case: &Value) -> bool {
    let message = case["error"]["message"].as_str().unwrap_or("");
    message.contains("ComplexHalf") || message.contains("BComplex32")
}

#[test]
fn division_matches_pytorch() {
    let cases = cases();
    assert!(cases.len() > 850, "the fixture file lost its cases");
    let mut failures = Vec::new();
    let mut skipped = 0;
    for case in &cases {
        if complex_half(case) {
            skipped += 1;
            continue;
        }
        let id = case["id"].as_str().unwrap();
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
    assert!(skipped <= 12, "{skipped} complex-half cases skipped");
    assert_no_failures(&failures, cases.len());
}

/// The typed operators and methods give what `AnyTensor` gives (and so
/// PyTorch's values), and refuse what it refuses.
#[test]
fn typed_forms_agree_with_the_runtime_forms() {
    let x =
        DynTensor::<i16>::from_vec(vec![0, 7, -7, i16::MAX, i16::MIN, 100, -1, 5], &[8]).unwrap();
    let d = DynTensor::<i16>::from_vec(vec![3, -3, 3, 7, -7, 9, 2, -1], &[8]).unwrap();
    let (ax, ad) = (AnyTensor::from(x.clone()), AnyTensor::from(d.clone()));
    let pairs: [(DynTensor<i16>, AnyTensor); 4] = [
        (&x % &d, ax.try_remainder(&ad).unwrap()),
        (x.fmod(&d), ax.try_fmod(&ad).unwrap()),
        (x.floor_divide(&d), ax.try_floor_divide(&ad).unwrap()),
        (&x % 4, ax.try_remainder(Scalar::Int(4)).unwrap()),
    ];
    for (typed, any) in pairs {
        assert_eq!(typed.to_vec(), any.downcast::<i16>().unwrap().to_vec());
    }
    // In place, with a tensor and a number; a failure writes nothing.
    let mut y = x.clone();
    y %= &d;
    y %= 5;
    let mut ay = ax.clone();
    ay.try_remainder_assign(&ad).unwrap();
    ay.try_remainder_assign(Scalar::Int(5)).unwrap();
    assert_eq!(y.to_vec(), ay.downcast::<i16>().unwrap().to_vec());
    let mut z = x.clone();
    let zero = DynTensor::<i16>::from_vec(vec![1, 1, 1, 1, 1, 1, 1, 0], &[8]).unwrap();
    assert_eq!(
        z.floor_divide_(&zero).unwrap_err().to_string(),
        "ZeroDivisionError"
    );
    assert_eq!(z.fmod_(0i64).unwrap_err().to_string(), "ZeroDivisionError");
    assert_eq!(z.to_vec(), x.to_vec());
    z.fmod_(2.0f64.floor() as i64).unwrap();
    assert_eq!(z.to_vec(), x.fmod(2).to_vec());
    // Promotion: an integer tensor with a float number, a bool tensor with
    // an integer one, static shapes broadcasting.
    assert_eq!(tensor![-7i32, 7].remainder(2.5).to_vec(), vec![0.5f32, 2.0]);
    assert_eq!(
        (&tensor![true, false] % &tensor![2i64]).to_vec(),
        vec![1, 0]
    );
    let m: Tensor<f64, shape![2, 3]> =
        tensor![[5.5f64], [-5.5]].floor_divide(&tensor![2.0f64, -2.0, 0.0]);
    assert_eq!(
        m.to_vec(),
        vec![2.0, -3.0, f64::INFINITY, -3.0, 2.0, f64::NEG_INFINITY]
    );
    // Panics carry PyTorch's text.
    let caught = std::panic::catch_unwind(|| &tensor![1i8, 2] % 256).unwrap_err();
    assert_eq!(
        caught.downcast_ref::<String>().unwrap(),
        "ZeroDivisionError"
    );
}
