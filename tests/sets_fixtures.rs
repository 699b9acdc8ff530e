//! `unique`, `unique_consecutive`, `searchsorted`, `bucketize`,
//! `bincount` and `histc` against PyTorch 2.15
//! (`scripts/fixtures/sets.py` → `tests/fixtures/sets.json`): every dtype
//! (the refused ones with PyTorch's text), rank 0 to 3, empty tensors,
//! NaN/inf and signed zeros, dims in and out of range, transposed inputs,
//! mixed dtypes, sorters, weights, and every error text.
//!
//! Each case runs through `AnyTensor` (which calls the `DynTensor` forms);
//! the ops of one input also run on the strided `DynTensor` view, which
//! must agree. PyTorch's outcome must match: sizes, strides, dtype and
//! values exactly. Where the fixture marks a part unspecified, it is left
//! out: `zero_signs_unspecified` compares zeros without their sign,
//! `implementation_defined` (unique along a dim of slices with NaN) the
//! dtypes only; `order_unspecified` results were put in ascending order by
//! the script, which this library's order is.

use crate::common;

use common::no_panic;
use common::tensors::*;
use serde_json::Value;
use shaped::ops::sets::{SearchSorted, SetInput};
use shaped::prelude::*;

/// Equal outcomes, exactly: NaN with NaN; zeros with their sign unless
/// `any_zero`.
fn equal(got: &Outcome, want: &Outcome, any_zero: bool) -> bool {
    equal_ranked(got, want, any_zero, 0.0)
}

fn unique_outcomes<T: Element>(
    (v, i, c): (DynTensor<T>, Option<DynTensor<i64>>, Option<DynTensor<i64>>),
) -> Vec<Outcome> {
    let mut out = vec![outcome(&v)];
    out.extend(i.iter().map(outcome));
    out.extend(c.iter().map(outcome));
    out
}

fn any_unique_outcomes(
    (v, i, c): (AnyTensor, Option<AnyTensor>, Option<AnyTensor>),
) -> Vec<Outcome> {
    let mut out = vec![any_outcome(&v)];
    out.extend(i.iter().map(any_outcome));
    out.extend(c.iter().map(any_outcome));
    out
}

fn dim_of(args: &Value) -> Option<isize> {
    args["dim"].as_i64().map(|d| d as isize)
}

/// The one-input ops on the strided view (`None` for the others).
fn on_view<T: FromJson + SetInput>(case: &Value) -> Option<Result<Vec<Outcome>, String>> {
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let x = base
        .as_strided(&sizes, &strides, offset)
        .unwrap()
        .to_owned();
    let a = &case["args"];
    let flag = |k: &str| a[k].as_bool().unwrap_or(false);
    Some(match case["op"].as_str().unwrap() {
        "unique" => match dim_of(a) {
            None => no_panic(|| {
                x.unique(
                    flag("sorted"),
                    flag("return_inverse"),
                    flag("return_counts"),
                )
            })
            .map(unique_outcomes),
            Some(d) => no_panic(|| {
                x.unique_dim(
                    d,
                    flag("sorted"),
                    flag("return_inverse"),
                    flag("return_counts"),
                )
            })
            .map(unique_outcomes),
        },
        "unique_consecutive" => no_panic(|| {
            x.unique_consecutive(flag("return_inverse"), flag("return_counts"), dim_of(a))
        })
        .map(unique_outcomes),
        "histc" => no_panic(|| {
            x.histc(
                a["bins"].as_i64().unwrap() as isize,
                common::number(&a["min"]),
                common::number(&a["max"]),
            )
        })
        .map(|h| vec![outcome(&h)]),
        "bincount" if case["other"].is_null() => {
            no_panic(|| x.bincount(a["minlength"].as_i64().unwrap() as isize))
                .map(|h| vec![outcome(&h)])
        }
        _ => return None,
    })
}

fn view_of<T: FromJson + SetInput>(case: &Value) -> AnyTensor
where
    AnyTensor: From<DynTensor<T>>,
{
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    base.as_strided(&sizes, &strides, offset)
        .unwrap()
        .to_owned()
        .into()
}

fn through_any(case: &Value) -> Result<Vec<Outcome>, String> {
    let x: AnyTensor = by_dtype!(case, view_of);
    let a = &case["args"];
    let flag = |k: &str| a[k].as_bool().unwrap_or(false);
    let other = (!case["other"].is_null()).then(|| any_of(&case["other"]));
    let sorter = (!case["sorter"].is_null()).then(|| any_of(&case["sorter"]));
    let one = |r: Result<AnyTensor, String>| r.map(|t| vec![any_outcome(&t)]);
    match case["op"].as_str().unwrap() {
        "unique" => match dim_of(a) {
            None => no_panic(|| {
                x.unique(
                    flag("sorted"),
                    flag("return_inverse"),
                    flag("return_counts"),
                )
            }),
            Some(d) => no_panic(|| {
                x.unique_dim(
                    d,
                    flag("sorted"),
                    flag("return_inverse"),
                    flag("return_counts"),
                )
            }),
        }
        .map(any_unique_outcomes),
        "unique_consecutive" => no_panic(|| {
            x.unique_consecutive(flag("return_inverse"), flag("return_counts"), dim_of(a))
        })
        .map(any_unique_outcomes),
        "searchsorted" => {
            let options = SearchSorted {
                right: flag("right"),
                side: a["side"].as_str(),
                sorter: sorter.as_ref(),
            };
            one(no_panic(|| {
                x.searchsorted_with(other.as_ref().unwrap(), flag("out_int32"), &options)
            }))
        }
        "bucketize" => one(no_panic(|| {
            x.bucketize(other.as_ref().unwrap(), flag("out_int32"), flag("right"))
        })),
        "bincount" => one(no_panic(|| {
            x.bincount(other.as_ref(), a["minlength"].as_i64().unwrap() as isize)
        })),
        "histc" => one(no_panic(|| {
            x.histc(
                a["bins"].as_i64().unwrap() as isize,
                common::number(&a["min"]),
                common::number(&a["max"]),
            )
        })),
        op => panic!("unknown op {op}"),
    }
}

/// Both runs gave the same (NaN equal to NaN; strides aside).
fn agree(a: &Result<Vec<Outcome>, String>, b: &Result<Vec<Outcome>, String>) -> bool {
    let restrided = |a: &Outcome, b: &Outcome| Outcome {
        strides: a.strides.clone(),
        sizes: b.sizes.clone(),
        dtype: b.dtype,
        values: b.values.clone(),
    };
    match (a, b) {
        (Ok(a), Ok(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(a, b)| equal(a, &restrided(a, b), false))
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

fn check(case: &Value, got: &Result<Vec<Outcome>, String>) -> Result<(), String> {
    let flag = |name: &str| case.get(name).and_then(Value::as_bool).unwrap_or(false);
    let ok = match (got, wanted(case), case.get("error")) {
        (Ok(got), Some(want), _) => {
            got.len() == want.len()
                && got
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| match flag("implementation_defined") {
                        true => g.dtype == w.dtype,
                        false => equal(g, w, flag("zero_signs_unspecified")),
                    })
        }
        (Err(text), _, Some(error)) => error["message"].as_str() == Some(text),
        _ => false,
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "{}: got {got:?}, want {}",
            case["id"],
            case.get("results").or(case.get("error")).unwrap()
        )),
    }
}

#[test]
fn sets_match_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/sets.json")).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert!(!cases.is_empty(), "no case in tests/fixtures/sets.json");
    let mut passed = 0;
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let any = through_any(case);
        let view = by_dtype!(case, on_view);
        if let Some(view) = &view
            && !agree(view, &any)
            && !case
                .get("implementation_defined")
                .is_some_and(|v| v == true)
        {
            failures.push(format!(
                "{id}: the view and AnyTensor differ: {view:?} / {any:?}"
            ));
            continue;
        }
        // (`any_outcome` reads a contiguous copy: the view's strides are
        // the ones to check.)
        match check(case, view.as_ref().unwrap_or(&any)) {
            Ok(()) => passed += 1,
            Err(line) => failures.push(line.chars().take(1500).collect()),
        }
    }
    println!("{passed} of {} sets cases match PyTorch", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
