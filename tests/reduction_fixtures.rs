//! Reductions against PyTorch 2.15 (`scripts/fixtures/reductions.py` ->
//! `tests/fixtures/reductions.json`): every case's result sizes, dtype and
//! values (exact for integer, bool, max/min/argmax results; within the
//! tolerances of `tolerance` for floating sums, means and products), or
//! PyTorch's exact error text. Inputs are PyTorch's strided layouts
//! (contiguous, transposed, stepped with an offset, expanded with stride 0).

use crate::common;
use half::{bf16, f16};
use num_complex::Complex;

use common::number;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::ops::reductions::Reduce;
use shaped::prelude::*;

/// Element types built from the fixture's JSON values.
trait FromJson: Reduce {
    fn from_json(v: &Value) -> Self;
    fn from_f64(v: f64) -> Self;
}

macro_rules! from_json {
    ($($t:ty => |$v:ident| $json:expr, |$f:ident| $num:expr;)*) => {$(
        impl FromJson for $t {
            fn from_json($v: &Value) -> Self {
                $json
            }
            fn from_f64($f: f64) -> Self {
                $num
            }
        }
    )*};
}
from_json! {
    f16 => |v| f16::from_f64(number(v)), |f| f16::from_f64(f);
    bf16 => |v| bf16::from_f64(number(v)), |f| bf16::from_f64(f);
    f32 => |v| number(v) as f32, |f| f as f32;
    f64 => |v| number(v), |f| f;
    Complex<f32> => |v| Complex::new(number(&v[0]) as f32, number(&v[1]) as f32), |f| Complex::new(f as f32, 0.0);
    Complex<f64> => |v| Complex::new(number(&v[0]), number(&v[1])), |f| Complex::new(f, 0.0);
    u8 => |v| v.as_i64().unwrap() as u8, |f| f as u8;
    i8 => |v| v.as_i64().unwrap() as i8, |f| f as i8;
    i16 => |v| v.as_i64().unwrap() as i16, |f| f as i16;
    i32 => |v| v.as_i64().unwrap() as i32, |f| f as i32;
    i64 => |v| v.as_i64().unwrap(), |f| f as i64;
    bool => |v| v.as_bool().unwrap(), |f| f != 0.0;
}

/// One result tensor: sizes, dtype, values.
struct Outcome {
    sizes: Vec<usize>,
    dtype: DType,
    values: Vec<Scalar>,
}

fn outcome<U: Element, S: shaped::shape::Shape>(t: Tensor<U, S>) -> Outcome {
    Outcome {
        sizes: t.shape().as_ref().to_vec(),
        dtype: t.dtype(),
        values: t.to_vec().into_iter().map(Element::to_scalar).collect(),
    }
}

/// The input: PyTorch's storage (or its formula) viewed with the case's layout.
fn storage<T: FromJson>(input: &Value, dtype: &str) -> Vec<T> {
    if let Some(n) = input.get("formula") {
        let n = n.as_u64().unwrap() as usize;
        let mut out: Vec<T> = (0..n as i64)
            .map(|k| {
                let k = k * 7919;
                match dtype {
                    "float16" | "bfloat16" | "float32" | "float64" => {
                        T::from_f64((k % 1000) as f64 * 0.01 - 5.0)
                    }
                    "uint8" => T::from_f64((k % 3) as f64),
                    _ => T::from_f64((k % 7 - 3) as f64),
                }
            })
            .collect();
        for at in input
            .get("nan_at")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out[at.as_u64().unwrap() as usize] = T::from_f64(f64::NAN);
        }
        return out;
    }
    input["storage"]
        .as_array()
        .unwrap()
        .iter()
        .map(T::from_json)
        .collect()
}

/// A list of integers of type `N`.
fn ints<N: TryFrom<i64>>(v: &Value) -> Vec<N>
where
    N::Error: std::fmt::Debug,
{
    let list = v.as_array().expect("a list");
    list.iter()
        .map(|x| N::try_from(x.as_i64().unwrap()).unwrap())
        .collect()
}

/// Runs the case's op on the dynamic API.
fn run<T: FromJson>(case: &Value) -> Result<Vec<Outcome>, Error> {
    let input = &case["input"];
    let data = storage::<T>(input, case["dtype"].as_str().unwrap());
    let n = data.len();
    let base = DynTensor::<T>::from_vec(data, &[n])?;
    let x = base.as_strided(
        &ints::<usize>(&input["sizes"]),
        &ints::<usize>(&input["strides"]),
        input["offset"].as_u64().unwrap() as usize,
    )?;
    let args = &case["args"];
    let keepdim = args
        .get("keepdim")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let dims = args.get("dims").map(ints::<isize>).unwrap_or_default();
    let dim = args.get("dim").and_then(Value::as_i64).unwrap_or(0) as isize;
    Ok(match case["op"].as_str().unwrap() {
        "sum" => vec![outcome(x.sum(&dims, keepdim)?)],
        "mean" => vec![outcome(x.mean(&dims, keepdim)?)],
        "amax" => vec![outcome(x.amax(&dims, keepdim)?)],
        "amin" => vec![outcome(x.amin(&dims, keepdim)?)],
        "all" => vec![outcome(x.all(&dims, keepdim)?)],
        "any" => vec![outcome(x.any(&dims, keepdim)?)],
        "prod" => vec![outcome(x.prod(dim, keepdim)?)],
        "max" => {
            let (v, i) = x.max(dim, keepdim)?;
            vec![outcome(v), outcome(i)]
        }
        "min" => {
            let (v, i) = x.min(dim, keepdim)?;
            vec![outcome(v), outcome(i)]
        }
        "argmax" => vec![outcome(x.argmax(dim, keepdim)?)],
        "argmin" => vec![outcome(x.argmin(dim, keepdim)?)],
        "sum_all" => vec![outcome(x.sum_all())],
        "mean_all" => vec![outcome(x.mean_all()?)],
        "prod_all" => vec![outcome(x.prod_all())],
        "max_all" => vec![outcome(x.max_all()?)],
        "min_all" => vec![outcome(x.min_all()?)],
        "argmax_all" => vec![outcome(x.argmax_all()?)],
        "argmin_all" => vec![outcome(x.argmin_all()?)],
        "all_all" => vec![outcome(x.all_all())],
        "any_all" => vec![outcome(x.any_all())],
        op => panic!("unknown op {op}"),
    })
}

/// `(rtol, atol)` for floating results of sums, means and products, by
/// result dtype: float32 and complex64 1e-5 relative (pairwise summation
/// in another order than PyTorch's cascade), half types two units in the
/// last place, float64 1e-12. Integer, bool and max/min/argmax results are
/// exact.
fn tolerance(dtype: DType, op: &str) -> (f64, f64) {
    let exact = [
        "max", "min", "amax", "amin", "argmax", "argmin", "all", "any",
    ];
    if exact.iter().any(|e| op.trim_end_matches("_all") == *e) {
        return (0.0, 0.0);
    }
    match dtype {
        DType::F32 | DType::C64 => (1e-5, 1e-3),
        DType::F64 | DType::C128 => (1e-12, 1e-9),
        DType::F16 => (2e-3, 1e-2),
        DType::BF16 => (1.6e-2, 5e-2),
        _ => (0.0, 0.0),
    }
}

/// The worst `|got - want| / (atol + rtol |want|)` seen, per dtype.
fn close(got: f64, want: f64, (rtol, atol): (f64, f64), worst: &mut f64) -> bool {
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if want.is_infinite() || rtol == 0.0 {
        return got == want;
    }
    let ratio = (got - want).abs() / (atol + rtol * want.abs());
    *worst = worst.max(ratio);
    ratio <= 1.0
}

/// A fixture number (the shortest text of a float32 or half value) as the
/// value of `dtype` it stands for.
fn rounded(v: &Value, dtype: DType) -> f64 {
    let x = number(v);
    match dtype {
        DType::F32 | DType::C64 => f64::from(x as f32),
        DType::F16 => f16::from_f64(x).to_f64(),
        DType::BF16 => bf16::from_f64(x).to_f64(),
        _ => x,
    }
}

fn matches(got: &Scalar, want: &Value, dtype: DType, tol: (f64, f64), worst: &mut f64) -> bool {
    match got {
        Scalar::Bool(b) => want.as_bool() == Some(*b),
        Scalar::Int(i) => want.as_i64() == Some(*i),
        Scalar::Float(f) => close(*f, rounded(want, dtype), tol, worst),
        Scalar::Complex(re, im) => {
            close(*re, rounded(&want[0], dtype), tol, worst)
                && close(*im, rounded(&want[1], dtype), tol, worst)
        }
    }
}

#[test]
fn reductions_match_pytorch() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/reductions.json"
    ))
    .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut worst = std::collections::BTreeMap::<String, f64>::new();
    let (mut values_checked, mut errors_checked) = (0, 0);
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let op = case["op"].as_str().unwrap();
        let got = match case["dtype"].as_str().unwrap() {
            "float16" => run::<f16>(case),
            "bfloat16" => run::<bf16>(case),
            "float32" => run::<f32>(case),
            "float64" => run::<f64>(case),
            "complex64" => run::<Complex<f32>>(case),
            "complex128" => run::<Complex<f64>>(case),
            "uint8" => run::<u8>(case),
            "int8" => run::<i8>(case),
            "int16" => run::<i16>(case),
            "int32" => run::<i32>(case),
            "int64" => run::<i64>(case),
            "bool" => run::<bool>(case),
            d => panic!("unknown dtype {d}"),
        };
        let expected: Vec<&Value> = match (case.get("result"), case.get("results")) {
            (Some(r), _) => vec![r],
            (None, Some(rs)) => rs.as_array().unwrap().iter().collect(),
            (None, None) => vec![],
        };
        match (got, case.get("error")) {
            (Err(e), Some(err)) => {
                errors_checked += 1;
                if e.to_string() != err["message"].as_str().unwrap() {
                    failures.push(format!(
                        "{id}: error {:?}, PyTorch {:?}",
                        e.to_string(),
                        err["message"]
                    ));
                }
            }
            (Err(e), None) => failures.push(format!("{id}: error {e}, PyTorch succeeded")),
            (Ok(_), Some(err)) => failures.push(format!("{id}: succeeded, PyTorch raised {err}")),
            (Ok(outs), None) => {
                assert_eq!(outs.len(), expected.len(), "{id}");
                for (out, want) in outs.iter().zip(expected) {
                    values_checked += 1;
                    if out.sizes != ints::<usize>(&want["sizes"]) {
                        failures.push(format!(
                            "{id}: sizes {:?}, PyTorch {}",
                            out.sizes, want["sizes"]
                        ));
                        continue;
                    }
                    if out.dtype.name() != want["dtype"].as_str().unwrap() {
                        failures.push(format!(
                            "{id}: dtype {}, PyTorch {}",
                            out.dtype.name(),
                            want["dtype"]
                        ));
                        continue;
                    }
                    let tol = tolerance(out.dtype, op);
                    let w = worst.entry(out.dtype.name().to_string()).or_default();
                    let want_values = want["values"].as_array().unwrap();
                    assert_eq!(out.values.len(), want_values.len(), "{id}");
                    for (k, (g, v)) in out.values.iter().zip(want_values).enumerate() {
                        if !matches(g, v, out.dtype, tol, w) {
                            failures.push(format!("{id}: value {k}: {g:?}, PyTorch {v}"));
                            break;
                        }
                    }
                }
            }
        }
    }
    println!(
        "{} cases: {values_checked} results and {errors_checked} error texts checked; worst error / tolerance per dtype: {worst:?}",
        cases.len()
    );
    assert!(cases.len() >= 80 && errors_checked >= 20);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
