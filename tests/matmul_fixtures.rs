//! `matmul`, `mm`, `bmm`, `mv` and `dot` against PyTorch 2.15
//! (`tests/fixtures/matmul.json`, written by `scripts/fixtures/matmul.py`).
//!
//! Each case builds both operands as `as_strided` views of a base vector
//! (contiguous, transposed, stepped, offset or expanded), calls the dynamic
//! form of the op, and compares the sizes, strides and values of the result
//! (within the dtype's tolerance, below) or the exact error text.
//!
//! Tolerances, `|got - want| <= atol + rtol * |want|` per real component:
//! float32 1e-4 + 1e-5; float64 1e-12 + 1e-12; float16 1e-3 + 1e-3 (two
//! units in the last place at 1.0); bfloat16 8e-3 + 8e-3 (two units); integers
//! exact (products wrap as PyTorch's do).

use half::{bf16, f16};
use num_complex::Complex;
use serde_json::Value;
use shaped::ops::matmul::MatmulElement;
use shaped::prelude::*;
use std::sync::OnceLock;

fn fixture() -> &'static Value {
    static FIXTURE: OnceLock<Value> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/matmul.json"
        ))
        .expect("tests/fixtures/matmul.json");
        serde_json::from_str(&text).expect("valid JSON")
    })
}

fn cases() -> &'static [Value] {
    fixture()["cases"].as_array().expect("cases")
}

/// An element type as the fixture writes it, with its tolerance.
trait FixtureElement: MatmulElement {
    fn from_json(v: &Value) -> Self;
    /// Whether `self` is within the dtype's tolerance of `want`.
    fn close(self, want: Self) -> bool;
}

fn within(got: f64, want: f64, atol: f64, rtol: f64) -> bool {
    (got - want).abs() <= atol + rtol * want.abs()
}

macro_rules! float_element {
    ($t:ty, $from:expr, $to:expr, $atol:expr, $rtol:expr) => {
        impl FixtureElement for $t {
            fn from_json(v: &Value) -> Self {
                $from(v.as_f64().expect("a number"))
            }
            fn close(self, want: Self) -> bool {
                within($to(self), $to(want), $atol, $rtol)
            }
        }
        impl FixtureElement for Complex<$t> {
            fn from_json(v: &Value) -> Self {
                Complex::new(<$t>::from_json(&v[0]), <$t>::from_json(&v[1]))
            }
            fn close(self, want: Self) -> bool {
                self.re.close(want.re) && self.im.close(want.im)
            }
        }
    };
}
float_element!(f32, |x| x as f32, f64::from, 1e-4, 1e-5);
float_element!(f64, |x| x, |x| x, 1e-12, 1e-12);

macro_rules! half_element {
    ($t:ty, $tol:expr) => {
        impl FixtureElement for $t {
            fn from_json(v: &Value) -> Self {
                <$t>::from_f64(v.as_f64().expect("a number"))
            }
            fn close(self, want: Self) -> bool {
                within(self.to_f64(), want.to_f64(), $tol, $tol)
            }
        }
    };
}
half_element!(f16, 1e-3);
half_element!(bf16, 8e-3);

macro_rules! int_element {
    ($($t:ty),*) => {$(
        impl FixtureElement for $t {
            fn from_json(v: &Value) -> Self {
                <$t>::try_from(v.as_i64().expect("an integer")).expect("in range")
            }
            fn close(self, want: Self) -> bool {
                self == want
            }
        }
    )*};
}
int_element!(u8, i8, i16, i32, i64);

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a size") as usize)
        .collect()
}

/// The operand `o` describes: an `as_strided` view of `base`.
fn strided<'a, T: FixtureElement>(
    name: &str,
    base: &'a DynTensor<T>,
    o: &Value,
) -> shaped::TensorView<'a, T, DynShape> {
    base.as_strided(
        &usizes(&o["sizes"]),
        &usizes(&o["strides"]),
        o["offset"].as_u64().unwrap() as usize,
    )
    .unwrap_or_else(|e| panic!("operand {name}: {e}"))
}

/// The outcome of one case: `Ok(sizes, strides, values)` or the error text.
type Outcome<T> = Result<(Vec<usize>, Vec<usize>, Vec<T>), String>;

fn run<T: FixtureElement>(case: &Value) -> Outcome<T> {
    let base = |o: &Value| -> DynTensor<T> {
        let values: Vec<T> = o["base"]
            .as_array()
            .unwrap()
            .iter()
            .map(T::from_json)
            .collect();
        let n = values.len();
        DynTensor::from_vec(values, &[n]).unwrap()
    };
    let (a_spec, b_spec) = (&case["a"], &case["b"]);
    let (a_base, b_base) = (base(a_spec), base(b_spec));
    let a = strided("a", &a_base, a_spec);
    let b = strided("b", &b_base, b_spec);
    let r = match case["op"].as_str().unwrap() {
        "matmul" => a.matmul(&b),
        "mm" => a.mm(&b),
        "bmm" => a.bmm(&b),
        "mv" => a.mv(&b),
        "dot" => a.dot(&b),
        op => panic!("unknown op {op}"),
    };
    r.map(|t| (t.shape().to_vec(), t.strides().to_vec(), t.to_vec()))
        .map_err(|e| e.to_string())
}

/// Checks one case; returns a failure description, if any.
fn check<T: FixtureElement + std::fmt::Debug>(case: &Value) -> Option<String> {
    let id = &case["id"];
    let got = run::<T>(case);
    if let Some(text) = case.get("error") {
        return match got {
            Err(e) if e == text.as_str().unwrap() => None,
            other => Some(format!("case {id}: want error {text}, got {other:?}")),
        };
    }
    let want = &case["result"];
    let (sizes, strides, values) = match got {
        Ok(r) => r,
        Err(e) => return Some(format!("case {id}: want a result, got error {e:?}")),
    };
    if sizes != usizes(&want["sizes"]) || strides != usizes(&want["strides"]) {
        return Some(format!(
            "case {id}: sizes/strides {sizes:?}/{strides:?}, want {}/{}",
            want["sizes"], want["strides"]
        ));
    }
    let want_values: Vec<T> = want["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(T::from_json)
        .collect();
    if values.len() != want_values.len() {
        return Some(format!(
            "case {id}: {} values, want {}",
            values.len(),
            want_values.len()
        ));
    }
    for (i, (&g, &w)) in values.iter().zip(&want_values).enumerate() {
        if !g.close(w) {
            return Some(format!("case {id}: value {i} is {g:?}, want {w:?}"));
        }
    }
    None
}

fn check_case(case: &Value) -> Option<String> {
    match case["dtype"].as_str().unwrap() {
        "float32" => check::<f32>(case),
        "float64" => check::<f64>(case),
        "float16" => check::<f16>(case),
        "bfloat16" => check::<bf16>(case),
        "complex64" => check::<Complex<f32>>(case),
        "complex128" => check::<Complex<f64>>(case),
        "uint8" => check::<u8>(case),
        "int8" => check::<i8>(case),
        "int16" => check::<i16>(case),
        "int32" => check::<i32>(case),
        "int64" => check::<i64>(case),
        d => Some(format!("unknown dtype {d}")),
    }
}

/// Runs every case selected by `keep`; at least `min` of them.
fn check_all(keep: impl Fn(&Value) -> bool, min: usize) {
    let selected: Vec<&Value> = cases().iter().filter(|c| keep(c)).collect();
    assert!(
        selected.len() >= min,
        "{} cases, expected at least {min}",
        selected.len()
    );
    let failures: Vec<String> = selected.iter().filter_map(|c| check_case(c)).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn fixture_was_written_by_torch_2_15() {
    assert!(fixture()["torch"].as_str().unwrap().starts_with("2.15.0"));
    assert_eq!(cases().len(), 116);
}

#[test]
fn float32_products_match_pytorch() {
    check_all(|c| c.get("result").is_some() && c["dtype"] == "float32", 40);
}

#[test]
fn every_dtype_matches_pytorch() {
    check_all(|c| c.get("result").is_some() && c["dtype"] != "float32", 34);
}

#[test]
fn error_texts_match_pytorch() {
    check_all(|c| c.get("error").is_some(), 40);
}

/// The tolerances reject a wrong answer: a result one unit off fails.
#[test]
fn tolerances_are_tight() {
    assert!(!1.0f32.close(1.0002));
    assert!(!f16::from_f32(1.0).close(f16::from_f32(1.0 + 3.0 * 0.000977)));
    assert!(!bf16::from_f32(1.0).close(bf16::from_f32(1.0 + 3.0 * 0.0078125)));
    assert!(!3u8.close(4));
}
