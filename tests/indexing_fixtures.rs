//! Indexing by tensors against PyTorch 2.15 (`scripts/fixtures/indexing.py`
//! -> `tests/fixtures/indexing.json`): `index_select`, `gather`, `take` and
//! `take_along_dim` (along a dim and flattened) over the twelve dtypes on
//! strided inputs (contiguous, transposed, stepped with an offset,
//! expanded), with int64, int32 and refused index dtypes, negative,
//! out-of-range, huge and empty indices: each case's result sizes, strides,
//! dtype and values (exact: the operations copy elements), or PyTorch's
//! exact error text.
//!
//! Each case runs twice where it can: on `DynTensor` views of PyTorch's
//! exact layout with a typed index (int64 and int32, where the operation's
//! Rust signature takes it), and on `AnyTensor` (a contiguous copy of the
//! input; every contiguous case, refused index dtypes included).

use crate::common;

use common::tensors::*;
use serde_json::Value;
use shaped::prelude::*;

/// The index tensor of the case, of its runtime dtype.
fn any_index(case: &Value) -> AnyTensor {
    any_of(&case["index"])
}

fn dim(case: &Value) -> Option<isize> {
    case["args"]["dim"].as_i64().map(|d| d as isize)
}

/// The case on a `DynTensor` view of PyTorch's layout with a typed index;
/// `None` where the operation's signature does not take the index's dtype.
fn run_dyn<T: FromJson>(case: &Value) -> Option<Result<Outcome, String>> {
    let base = input::<T>(case);
    let (sizes, strides, offset) = layout(case);
    let x = base.as_strided(&sizes, &strides, offset).unwrap();
    let op = case["op"].as_str().unwrap();
    let index_dtype = case["index"]["dtype"].as_str().unwrap();
    let d = dim(case);
    let result = match (op, index_dtype) {
        ("index_select", "int64") => x.index_select(d.unwrap(), &typed_index::<i64>(case)),
        ("index_select", "int32") => x.index_select(d.unwrap(), &typed_index::<i32>(case)),
        ("gather", "int64") => x.gather(d.unwrap(), &typed_index::<i64>(case)),
        ("gather", "int32") => x.gather(d.unwrap(), &typed_index::<i32>(case)),
        ("take", "int64") => x.take(&typed_index::<i64>(case)),
        ("take_along_dim", "int64") => x.take_along_dim(&typed_index::<i64>(case), d),
        ("take_along_dim", "int32") => x.take_along_dim(&typed_index::<i32>(case), d),
        _ => return None,
    };
    Some(result.map(|t| outcome(&t)).map_err(|e| e.to_string()))
}

/// The case on `AnyTensor` (a contiguous copy of the input).
fn run_any<T: FromJson>(case: &Value) -> Result<Outcome, String>
where
    AnyTensor: From<DynTensor<T>>,
{
    let base = input::<T>(case);
    let (sizes, strides, offset) = layout(case);
    let x = AnyTensor::from(
        base.as_strided(&sizes, &strides, offset)
            .unwrap()
            .to_owned(),
    );
    let index = any_index(case);
    let d = dim(case);
    let result = match case["op"].as_str().unwrap() {
        "index_select" => x.index_select(d.unwrap(), &index),
        "gather" => x.gather(d.unwrap(), &index),
        "take" => x.take(&index),
        "take_along_dim" => x.take_along_dim(&index, d),
        op => panic!("unknown op {op}"),
    };
    result.map(|t| any_outcome(&t)).map_err(|e| e.to_string())
}

fn contiguous(case: &Value) -> bool {
    let (sizes, strides, _) = layout(case);
    let mut step = 1;
    let mut ok = true;
    for (&n, &s) in sizes.iter().zip(&strides).rev() {
        ok &= n == 1 || s == step;
        step *= n.max(1);
    }
    ok || sizes.contains(&0)
}

#[test]
fn indexing_matches_pytorch() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/indexing.json"
    ))
    .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let (mut dyn_checked, mut any_checked, mut errors_checked) = (0, 0, 0);
    let mut covered = 0;
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let want: Result<Outcome, String> = match (case.get("result"), case.get("error")) {
            (Some(r), _) => Ok(expected(r)),
            (None, Some(e)) => Err(e["message"].as_str().unwrap().to_string()),
            _ => panic!("{id}: neither result nor error"),
        };
        let mut check = |path: &str, got: Result<Outcome, String>| {
            let ok = match (&got, &want) {
                (Ok(g), Ok(w)) => same(g, w),
                (Err(g), Err(w)) => g == w,
                _ => false,
            };
            if want.is_err() {
                errors_checked += 1;
            }
            if !ok {
                failures.push(format!("{id} ({path}): got {got:?}, PyTorch {want:?}"));
            }
        };
        let mut ran = false;
        if let Some(got) = by_dtype!(case, run_dyn) {
            check("DynTensor", got);
            dyn_checked += 1;
            ran = true;
        }
        if contiguous(case) {
            check("AnyTensor", by_dtype!(case, run_any));
            any_checked += 1;
            ran = true;
        }
        covered += usize::from(ran);
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from PyTorch:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    // Every case ran at least once; most twice.
    assert_eq!(covered, cases.len(), "cases no path could run");
    assert!(
        cases.len() >= 380 && dyn_checked >= 330 && any_checked >= 260 && errors_checked >= 150
    );
}
