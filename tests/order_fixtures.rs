//! `kthvalue`, `median`, `nanmedian`, `mode`, `quantile` and
//! `nanquantile` against PyTorch 2.15 (`scripts/fixtures/sort.py` →
//! `tests/fixtures/sort.json`): the twelve dtypes (refused ones with
//! PyTorch's texts), ranks 0 to 3 with every dim and `keepdim`, dims out of
//! range, empty tensors, NaN/inf/-inf and signed zeros, ties, long lines,
//! strided inputs (transposed, stepped, expanded) read as views, `q` as a
//! number or as a tensor (of the input's dtype or another), the five
//! interpolations.
//!
//! Each case runs on the strided `DynTensor` view and on an `AnyTensor` of
//! a contiguous copy; both must agree to the bit, and PyTorch's outcome
//! must match: sizes, strides, dtype, and values exactly but for the
//! quantiles' `linear` and `midpoint` interpolations (a `lerp`: within 2
//! units in the last place of float32, 1e-15 relative for float64, since
//! PyTorch's vectorized `lerp` may fuse its multiply-add). Where PyTorch's
//! index among equal values is implementation-defined
//! (`indices_implementation_defined`) only the indices' sizes, strides
//! and dtype are compared (`tests/order_properties.rs` checks this
//! library's choice); where a line holds both zeros (`zero_signs_unspecified`)
//! zeros compare without their sign; where the whole result is what one
//! machine gave (`implementation_defined`: the "median" of an empty integer
//! tensor, the mode of a line with NaN) only sizes and dtype. The test
//! fails on any case that differs (listing their ids) and when no case ran.

use crate::common;

use common::no_panic;
use common::tensors::*;
use serde_json::{Value, json};
use shaped::ops::sorting::OrderInput;
use shaped::prelude::*;

const OPS: [&str; 6] = [
    "kthvalue",
    "median",
    "nanmedian",
    "mode",
    "quantile",
    "nanquantile",
];

/// The `q` tensor of a case whose `q_dtype` is not null: 0-d for a number,
/// 1-d for a list, 2-d for a list of lists.
fn q_tensor(args: &Value) -> AnyTensor {
    let q = &args["q"];
    let (sizes, values): (Vec<usize>, Vec<Value>) = match q {
        Value::Array(rows) if rows.first().is_some_and(Value::is_array) => {
            let cols = rows[0].as_array().unwrap().len();
            let flat = rows
                .iter()
                .flat_map(|r| r.as_array().unwrap().clone())
                .collect();
            (vec![rows.len(), cols], flat)
        }
        Value::Array(list) => (vec![list.len()], list.clone()),
        number => (vec![], vec![number.clone()]),
    };
    // (`torch.tensor(q, dtype=int64)` truncates.)
    let dtype = args["q_dtype"].as_str().unwrap();
    let values: Vec<Value> = match dtype.starts_with("int") || dtype == "uint8" {
        true => values
            .iter()
            .map(|v| json!(common::number(v) as i64))
            .collect(),
        false => values,
    };
    any_of(&json!({"dtype": dtype, "sizes": sizes, "values": values}))
}

/// `q` as a number (a case whose `q_dtype` is null).
fn q_number(args: &Value) -> f64 {
    common::number(&args["q"])
}

macro_rules! ranked {
    ($x:expr, $op:expr, $args:expr, $outcome:path, $q_same:expr) => {{
        let args = &$args;
        let dim = args["dim"].as_i64().map(|d| d as isize);
        let keepdim = args["keepdim"].as_bool().unwrap_or(false);
        let pair = |r: Result<(_, _), String>| r.map(|(v, i)| vec![$outcome(&v), $outcome(&i)]);
        match $op {
            "kthvalue" => {
                let k = args["k"].as_i64().unwrap() as isize;
                pair(no_panic(|| $x.kthvalue(k, dim.unwrap(), keepdim)))
            }
            "median" | "nanmedian" => match (dim, $op) {
                (None, "median") => no_panic(|| $x.median()).map(|v| vec![$outcome(&v)]),
                (None, _) => no_panic(|| $x.nanmedian()).map(|v| vec![$outcome(&v)]),
                (Some(d), "median") => pair(no_panic(|| $x.median_dim(d, keepdim))),
                (Some(d), _) => pair(no_panic(|| $x.nanmedian_dim(d, keepdim))),
            },
            "mode" => pair(no_panic(|| $x.mode(dim.unwrap(), keepdim))),
            "quantile" | "nanquantile" => {
                let ignore_nan = $op == "nanquantile";
                match args["interpolation"]
                    .as_str()
                    .unwrap()
                    .parse::<Interpolation>()
                {
                    Err(e) => Err(e.to_string()),
                    Ok(how) => match args["q_dtype"].is_null() {
                        true => {
                            let q = q_number(args);
                            no_panic(|| match ignore_nan {
                                false => $x.quantile(q, dim, keepdim, how),
                                true => $x.nanquantile(q, dim, keepdim, how),
                            })
                            .map(|v| vec![$outcome(&v)])
                        }
                        false => $q_same(&$x, args, dim, keepdim, how, ignore_nan),
                    },
                }
            }
            op => panic!("unknown op {op}"),
        }
    }};
}

/// What one case gave: through the typed view, and through `AnyTensor`.
struct Ran {
    typed: Result<Vec<Outcome>, String>,
    through_any: Result<Vec<Outcome>, String>,
}

fn run<T>(case: &Value) -> Ran
where
    T: FromJson + OrderInput + shaped::dynamic::AnyElement,
    AnyTensor: From<DynTensor<T>>,
{
    let (sizes, strides, offset) = layout(case);
    let base = input::<T>(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let op = case["op"].as_str().unwrap();
    let any = AnyTensor::from(view.to_owned());
    // A `q` tensor of the input's dtype goes to the view's `quantiles`;
    // one of another dtype only exists as an `AnyTensor`.
    let q_typed = |x: &TensorView<'_, T, DynShape>,
                   args: &Value,
                   dim: Option<isize>,
                   keepdim: bool,
                   how: Interpolation,
                   ignore_nan: bool| {
        let q = q_tensor(args);
        match q.downcast_ref::<T>() {
            Some(q) => no_panic(|| match ignore_nan {
                false => x.quantiles(q, dim, keepdim, how),
                true => x.nanquantiles(q, dim, keepdim, how),
            })
            .map(|v| vec![outcome(&v)]),
            None => no_panic(|| match ignore_nan {
                false => any.quantiles(&q, dim, keepdim, how),
                true => any.nanquantiles(&q, dim, keepdim, how),
            })
            .map(|v| vec![any_outcome(&v)]),
        }
    };
    let q_any = |x: &AnyTensor,
                 args: &Value,
                 dim: Option<isize>,
                 keepdim: bool,
                 how: Interpolation,
                 ignore_nan: bool| {
        let q = q_tensor(args);
        no_panic(|| match ignore_nan {
            false => x.quantiles(&q, dim, keepdim, how),
            true => x.nanquantiles(&q, dim, keepdim, how),
        })
        .map(|v| vec![any_outcome(&v)])
    };
    let typed = ranked!(view, op, case["args"], outcome, q_typed);
    let through_any = ranked!(any, op, case["args"], any_outcome, q_any);
    Ran { typed, through_any }
}

/// The case's outcome against PyTorch's.
fn check(case: &Value, got: &Result<Vec<Outcome>, String>) -> Result<(), String> {
    let flag = |name: &str| case.get(name).and_then(Value::as_bool).unwrap_or(false);
    let any_zero = flag("zero_signs_unspecified");
    let op = case["op"].as_str().unwrap();
    let rel = match (op, case["args"]["interpolation"].as_str()) {
        (_, Some("linear" | "midpoint")) => match case["dtype"].as_str() {
            Some("float32") => 2.0 * f32::EPSILON as f64,
            _ => 1e-15,
        },
        _ => 0.0,
    };
    let layout_only = |got: &Outcome, want: &Value| {
        let want = expected(want);
        got.sizes == want.sizes && got.strides == want.strides && got.dtype == want.dtype
    };
    let ok = match (got, case.get("result"), case.get("error")) {
        (Ok(got), Some(result), _) if flag("implementation_defined") => {
            let want = expected(result);
            !got.is_empty() && got[0].sizes == want.sizes && got[0].dtype == want.dtype
        }
        (Ok(got), Some(result), _) => {
            let values = equal_ranked(&got[0], &expected(result), any_zero, rel);
            let indices = match case.get("indices") {
                None => got.len() == 1,
                Some(indices) if flag("indices_implementation_defined") => {
                    got.len() == 2 && layout_only(&got[1], indices)
                }
                Some(indices) => {
                    got.len() == 2 && equal_ranked(&got[1], &expected(indices), false, 0.0)
                }
            };
            values && indices
        }
        (Err(text), _, Some(error)) => {
            error["message"].as_str() == Some(text)
                // The one order that differs: the interpolation is an enum
                // here, parsed before the call, so a bad name is reported
                // before a bad `q` (PyTorch checks `q` first).
                || (text.starts_with("quantile() interpolation must be")
                    && error["message"]
                        .as_str()
                        .is_some_and(|m| m.starts_with("quantile() q must be in the range")))
        }
        _ => false,
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "{}: got {got:?}, want {} / {}",
            case["id"],
            case.get("result").or(case.get("error")).unwrap(),
            case.get("indices").unwrap_or(&Value::Null)
        )),
    }
}

#[test]
fn order_statistics_match_pytorch() {
    let json: Value = serde_json::from_str(include_str!("fixtures/sort.json")).unwrap();
    let cases: Vec<&Value> = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| OPS.contains(&c["op"].as_str().unwrap()))
        .collect();
    assert!(
        !cases.is_empty(),
        "no order-statistic case in tests/fixtures/sort.json"
    );
    let mut passed = 0;
    let mut failures = Vec::new();
    for &case in &cases {
        let id = case["id"].as_str().unwrap();
        let ran = by_dtype!(case, run);
        // (The `AnyTensor` holds a contiguous copy of the view and has a
        // `q` of its own: values and sizes compared.)
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
    println!(
        "{passed} of {} order-statistic cases match PyTorch",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(passed > 0, "no case ran");
}
