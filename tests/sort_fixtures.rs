//! `sort`, `argsort`, `msort` and `topk` against PyTorch 2.15
//! (`scripts/fixtures/sort.py` → `tests/fixtures/sort.json`; the file also
//! holds the order statistics still to come: `kthvalue`, `median`,
//! `nanmedian`, `quantile`, `nanquantile`, `mode`, which this test leaves
//! for their own): the twelve dtypes (complex refused with PyTorch's
//! text), ranks 0 to 3 with every dim, dims out of range, empty tensors,
//! NaN/inf/-inf and signed zeros, ties, long lines, strided inputs
//! (transposed, stepped, expanded) read as views, whose results keep
//! PyTorch's layout (the input's strides where they are dense).
//!
//! Each case runs on the strided `DynTensor` view and on an `AnyTensor` of
//! a contiguous copy of it; both must agree to the bit (but for the
//! results' strides, which follow the input's), and PyTorch's outcome must
//! match the view's:
//! sizes, strides, dtype, values and indices exactly (sorting moves
//! elements; it computes nothing). Where PyTorch's order of equal elements
//! is unspecified (`stable=False`, or `topk`, with ties:
//! `indices_unspecified`) the
//! indices are not compared (this library's sort is always stable, and
//! `tests/sort_properties.rs` checks its indices); where a line holds
//! both zeros and the choice among them is unspecified
//! (`zero_signs_unspecified`), zeros compare without their sign. The test
//! fails on any case that differs (listing their ids) and when no case
//! ran.

use crate::common;

use common::no_panic;
use common::tensors::*;
use serde_json::Value;
use shaped::ops::sorting::SortInput;
use shaped::prelude::*;

const OPS: [&str; 4] = ["sort", "argsort", "msort", "topk"];

/// Equal outcomes, exactly: NaN with NaN; zeros with their sign unless
/// `any_zero`.
fn equal(got: &Outcome, want: &Outcome, any_zero: bool) -> bool {
    equal_ranked(got, want, any_zero, 0.0)
}

/// What one case gave: through the typed view, and through `AnyTensor`.
struct Ran {
    typed: Result<Vec<Outcome>, String>,
    through_any: Result<Vec<Outcome>, String>,
}

macro_rules! sorted {
    ($x:expr, $op:expr, $args:expr, $outcome:path) => {{
        let dim = $args["dim"].as_i64().unwrap_or(0) as isize;
        let descending = $args["descending"].as_bool().unwrap_or(false);
        let stable = $args["stable"].as_bool().unwrap_or(false);
        match $op {
            "sort" => no_panic(|| $x.sort(dim, descending, stable))
                .map(|(v, i)| vec![$outcome(&v), $outcome(&i)]),
            "argsort" => {
                no_panic(|| $x.argsort(dim, descending, stable)).map(|i| vec![$outcome(&i)])
            }
            "msort" => no_panic(|| $x.msort()).map(|v| vec![$outcome(&v)]),
            "topk" => {
                let k = $args["k"].as_i64().unwrap() as isize;
                let largest = $args["largest"].as_bool().unwrap();
                let sorted = $args["sorted"].as_bool().unwrap();
                no_panic(|| $x.topk(k, dim, largest, sorted))
                    .map(|(v, i)| vec![$outcome(&v), $outcome(&i)])
            }
            op => panic!("unknown op {op}"),
        }
    }};
}

fn run<T>(case: &Value) -> Ran
where
    T: FromJson + SortInput,
    AnyTensor: From<DynTensor<T>>,
{
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let op = case["op"].as_str().unwrap();
    let typed = sorted!(view, op, case["args"], outcome);
    let any = AnyTensor::from(view.to_owned());
    let through_any = sorted!(any, op, case["args"], any_outcome);
    Ran { typed, through_any }
}

/// The case's outcome against PyTorch's.
fn check(case: &Value, got: &Result<Vec<Outcome>, String>) -> Result<(), String> {
    let flag = |name: &str| case.get(name).and_then(Value::as_bool).unwrap_or(false);
    let (unspecified, any_zero) = (flag("indices_unspecified"), flag("zero_signs_unspecified"));
    let op = case["op"].as_str().unwrap();
    let ok = match (got, case.get("result"), case.get("error")) {
        (Ok(got), Some(result), _) => {
            let usizes = |key: &str| -> Vec<usize> {
                let list = result[key].as_array().unwrap();
                list.iter().map(|v| v.as_u64().unwrap() as usize).collect()
            };
            match (op, unspecified) {
                // Indices only, and PyTorch's are unspecified: the layout.
                ("argsort", true) => {
                    got.len() == 1
                        && got[0].sizes == usizes("sizes")
                        && got[0].strides == usizes("strides")
                        && got[0].dtype == DType::I64
                }
                ("sort" | "topk", _) => {
                    let want = expected(result);
                    got.len() == 2
                        && equal(&got[0], &want, any_zero)
                        && match (unspecified, case.get("indices")) {
                            (false, Some(indices)) => equal(&got[1], &expected(indices), false),
                            _ => got[1].sizes == want.sizes && got[1].strides == want.strides,
                        }
                }
                _ => got.len() == 1 && equal(&got[0], &expected(result), any_zero),
            }
        }
        (Err(text), _, Some(error)) => error["message"].as_str() == Some(text),
        _ => false,
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "{}: got {got:?}, want {}",
            case["id"],
            case.get("result").or(case.get("error")).unwrap()
        )),
    }
}

#[test]
fn sorts_match_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/sort.json")).unwrap();
    let cases: Vec<&Value> = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| OPS.contains(&c["op"].as_str().unwrap()))
        .collect();
    assert!(
        !cases.is_empty(),
        "no sort case in tests/fixtures/sort.json"
    );
    let mut passed = 0;
    let mut failures = Vec::new();
    for &case in &cases {
        let id = case["id"].as_str().unwrap();
        let ran = by_dtype!(case, run);
        // (The `AnyTensor` holds a contiguous copy of the view, so its
        // results have the contiguous input's layout: values compared.)
        let agree = match (&ran.typed, &ran.through_any) {
            (Ok(a), Ok(b)) => {
                a.len() == b.len()
                    && a.iter().zip(b).all(|(a, b)| {
                        let b = Outcome {
                            sizes: b.sizes.clone(),
                            strides: a.strides.clone(),
                            dtype: b.dtype,
                            values: b.values.clone(),
                        };
                        same(a, &b)
                    })
            }
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        if !agree {
            failures.push(format!(
                "{id}: the view and AnyTensor differ: {:?} / {:?}",
                ran.typed, ran.through_any
            ));
            continue;
        }
        match check(case, &ran.typed) {
            Ok(()) => passed += 1,
            Err(line) => failures.push(line.chars().take(1500).collect()),
        }
    }
    println!("{passed} of {} sort cases match PyTorch", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(passed > 0, "no case ran");
}
