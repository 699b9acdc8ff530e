//! `cumsum`, `cumprod`, `logcumsumexp`, `cummax` and `cummin` against
//! PyTorch 2.15 (`scripts/fixtures/scans.py` → `tests/fixtures/scans.json`):
//! all twelve dtypes (the refused ones by their error texts, empty and
//! rank-0 inputs included), ranks 0 to 4 with every dim (negative ones too)
//! and out-of-range dims (the rank-0 text of `cummax`/`cummin`), empty
//! tensors, NaN/inf/-inf at random places and in hand-made lines, the tie
//! rule of `cummax`/`cummin`, int64 wrapping and the promotion of integers
//! and bool to int64, the wider accumulators of the half types, float32 and
//! complex64, long lines for the parallel kernel, and strided inputs
//! (transposed, stepped, expanded), read as views.
//!
//! Each case runs on the strided `DynTensor` view (its static dtype) and on
//! an `AnyTensor` of it; both must agree to the bit (or give the same error
//! text), and PyTorch's outcome must match: sizes, strides and dtype
//! exactly, error texts exactly (the `Error`'s `Display`), integer values
//! and the indices of `cummax`/`cummin` exactly, and floats within a
//! tolerance per dtype, the softmax fixtures' (`tests/softmax_fixtures.rs`):
//!
//! - float32 and complex64 (each part): 4e-6 relative. PyTorch's CPU
//!   kernels accumulate float32 in float64 (complex64 in complex128) and
//!   round each result once, as ours; a long line may be summed in another
//!   order by a parallel kernel (a few units in the last place of the
//!   float64 sum, at most one of the float32 result), and `logcumsumexp`'s
//!   `exp`/`log1p` may differ in their last bits (a polynomial `exp`, the
//!   recording machine's vector width).
//! - float64 and complex128: 1e-13 relative (the errors of `exp`/`log1p`
//!   add up along a line of `logcumsumexp`: a few units in the last place
//!   over 5000 steps; cumulative sums of the fixture's multiples of 1/16
//!   are exact in any order). `logcumsumexp` also 1e-14 absolute: its
//!   `max + log1p(exp(min - max))` cancels to results near 0 (-0.00046 from
//!   values near -6.4 in a complex128 case) whose error is the last bit of
//!   the line's values (of order 10: ~2e-15), not of the result.
//! - float16: 2^-9 relative plus 2^-11 absolute; bfloat16: 2^-6 relative
//!   plus 2^-8 absolute. Both accumulate in float32 and round each result
//!   once, so the float32 slack of another order or another `exp` can move
//!   a result by one unit in its last place where it lies near a rounding
//!   boundary.
//!
//! NaN must be NaN (each part of a complex value on its own), infinities
//! exact, and a zero must have PyTorch's sign (a rank-0 `cumsum` copies
//! -0.0, a one-element line gives 0.0; `cummin` keeps -0.0 where it takes
//! over from 0.0; products and sums of zeros have one sign in any order),
//! but for `logcumsumexp`, where it comes from the last operations of the
//! formula (`log1p(-0.0) + -0.0` is -0.0 in PyTorch's complex kernel), not
//! from the semantics. The test fails on any case that differs (listing
//! their ids) and when no case ran.

use crate::common;

use common::no_panic;
use common::tensors::*;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::ops::scans::{CumElement, CumExtremeInput, LogCumSumExpInput};
use shaped::prelude::*;

/// `(relative, absolute)` tolerance of an op's values of a dtype; exact for
/// the others (integers, bool, and the int64 indices).
fn tolerance(op: &str, dtype: DType) -> (f64, f64) {
    match dtype {
        DType::F16 => (2.0 * 2f64.powi(-10), 2f64.powi(-11)),
        DType::BF16 => (2.0 * 2f64.powi(-7), 2f64.powi(-8)),
        DType::F32 | DType::C64 => (4e-6, 1e-12),
        _ if op == "logcumsumexp" => (1e-13, 1e-14),
        _ => (1e-13, 1e-300),
    }
}

/// Every zero of `want` is a zero of the same sign in `got` (each part of
/// a complex value on its own).
fn zero_signs_match(got: &Outcome, want: &Outcome) -> bool {
    let sign =
        |x: f64, y: f64| y != 0.0 || (x == 0.0 && x.is_sign_negative() == y.is_sign_negative());
    got.values
        .iter()
        .zip(&want.values)
        .all(|(a, b)| match (a, b) {
            (Scalar::Float(x), Scalar::Float(y)) => sign(*x, *y),
            (Scalar::Complex(a, b), Scalar::Complex(c, d)) => sign(*a, *c) && sign(*b, *d),
            _ => true,
        })
}

fn close(op: &str, got: &Outcome, want: &Outcome) -> bool {
    let (rel, abs) = tolerance(op, want.dtype);
    close_within(got, want, rel, abs) && (op == "logcumsumexp" || zero_signs_match(got, want))
}

/// PyTorch's outcome: the result (and, for `cummax`/`cummin`, the
/// indices), or `None` where it recorded an error.
fn wanted_of(case: &Value) -> Option<Vec<Outcome>> {
    let result = case.get("result")?;
    let mut want = vec![expected(result)];
    if let Some(indices) = case.get("indices") {
        want.push(expected(indices));
    }
    Some(want)
}

/// The scan of the case on a typed tensor (the strided view itself, or
/// anything with the same methods).
macro_rules! scan {
    ($x:expr, $op:expr, $dim:expr, $outcome:path) => {
        match $op {
            "cumsum" => no_panic(|| $x.cumsum($dim)).map(|t| vec![$outcome(&t)]),
            "cumprod" => no_panic(|| $x.cumprod($dim)).map(|t| vec![$outcome(&t)]),
            "logcumsumexp" => no_panic(|| $x.logcumsumexp($dim)).map(|t| vec![$outcome(&t)]),
            "cummax" => no_panic(|| $x.cummax($dim)).map(|(v, i)| vec![$outcome(&v), $outcome(&i)]),
            "cummin" => no_panic(|| $x.cummin($dim)).map(|(v, i)| vec![$outcome(&v), $outcome(&i)]),
            op => panic!("unknown op {op}"),
        }
    };
}

/// What one case gave: through the typed view, and through `AnyTensor`.
struct Ran {
    typed: Result<Vec<Outcome>, String>,
    through_any: Result<Vec<Outcome>, String>,
}

/// The case on a strided view of its dtype and on runtime dtypes.
fn run<T>(case: &Value) -> Ran
where
    T: FromJson + CumElement + LogCumSumExpInput + CumExtremeInput,
    AnyTensor: From<DynTensor<T>>,
{
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let dim = case["args"]["dim"].as_i64().unwrap() as isize;
    let op = case["op"].as_str().unwrap();
    let typed = scan!(view, op, dim, outcome);
    let any = AnyTensor::from(view.to_owned());
    let through_any = scan!(any, op, dim, any_outcome);
    Ran { typed, through_any }
}

/// Both forms gave the same: the same outcomes bit for bit, or the same
/// error text.
fn agree(ran: &Ran) -> bool {
    match (&ran.typed, &ran.through_any) {
        (Ok(a), Ok(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b)),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// A failure's line, cut to its first 1500 bytes (long lines hold
/// thousands of values).
fn shortened(line: String) -> String {
    match line.char_indices().nth(1500) {
        Some((at, _)) => format!("{} ...", &line[..at]),
        None => line,
    }
}

#[test]
fn scans_match_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/scans.json")).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert!(!cases.is_empty(), "no case in tests/fixtures/scans.json");
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let ran = by_dtype!(case, run);
        if !agree(&ran) {
            failures.push(shortened(format!(
                "{id}: the view and AnyTensor differ: view {:?}, AnyTensor {:?}",
                ran.typed, ran.through_any
            )));
            continue;
        }
        let op = case["op"].as_str().unwrap();
        let close = |got: &Outcome, want: &Outcome| close(op, got, want);
        match check_case(case, &ran.typed, &wanted_of(case), close) {
            Ok(()) => passed += 1,
            Err(line) => failures.push(shortened(line)),
        }
    }
    println!("{passed} of {} scan cases match PyTorch", cases.len());
    let ids: Vec<&str> = failures
        .iter()
        .map(|f| f.split(':').next().unwrap_or("").trim_matches('"'))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ ({}):\n{}",
        failures.len(),
        cases.len(),
        ids.join(", "),
        failures.join("\n")
    );
    assert_eq!(passed, cases.len());
    assert!(passed > 0, "no case ran");
}
