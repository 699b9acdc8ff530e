//! Advanced indexing against PyTorch 2.15 (`scripts/fixtures/advanced_indexing.py`
//! -> `tests/fixtures/advanced_indexing.json`): `x[items]` with integer
//! tensors (int64, int32), bool and uint8 masks, integers, ranges, new axes
//! and ellipses, and `index_put_` / `index_put` with and without
//! accumulation, over the twelve dtypes on strided inputs: sizes, dtype and
//! values (exact), strides where PyTorch's result is row-major (shaped's
//! results always are; PyTorch's follow a permuted input's order), or
//! PyTorch's exact error text; a failed `index_put_` leaves its tensor as
//! it was.
//!
//! Values of another dtype than the input run on `AnyTensor` (PyTorch's
//! fill path converts them; its other paths refuse them). A rank-0 integer
//! tensor is read as an integer, as PyTorch reads it, except that the
//! result is a copy (PyTorch's is a view). Left out, counted and bounded
//! below: a one-element value tensor whose element does not fit the
//! input's dtype on PyTorch's fill path (`AnyTensor` converts it without
//! PyTorch's overflow check).

use crate::common;

use common::tensors::*;
use serde_json::Value;
use shaped::ops::indexing::ScatterElement;
use shaped::prelude::*;

/// What ran: the outcome, or the error's text.
type Ran = Result<Outcome, String>;

/// The case's index items; the tensors are built first (`tensors`) and
/// borrowed by the items.
fn tensors(list: &Value) -> Vec<Option<AnyTensor>> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item.get("tensor").map(any_of))
        .collect()
}

fn items<'a>(list: &Value, tensors: &'a [Option<AnyTensor>]) -> Vec<Index<'a>> {
    list.as_array()
        .unwrap()
        .iter()
        .zip(tensors)
        .map(|(item, tensor)| {
            if let Some(t) = tensor {
                return Index::Tensor(t);
            }
            if let Some(i) = item.get("int") {
                return Index::Slice(i.as_i64().unwrap() as isize);
            }
            if let Some(s) = item.get("slice") {
                let part = |k: usize| s[k].as_i64().map(|v| v as isize);
                let start = part(0).unwrap_or(0);
                let step = part(2).unwrap_or(1);
                return Index::from(shaped::layout::views::SliceItem::Range {
                    start,
                    end: part(1),
                    step,
                });
            }
            if item.get("none").is_some() {
                return Index::NewAxis;
            }
            assert!(item.get("ellipsis").is_some(), "an item: {item}");
            Index::Ellipsis
        })
        .collect()
}

fn run<T: FromJson + ScatterElement + shaped::dynamic::AnyElement>(case: &Value) -> Ran
where
    AnyTensor: From<DynTensor<T>>,
{
    let base = input::<T>(case);
    let (sizes, strides, offset) = layout(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let op = case["op"].as_str().unwrap();
    let list = if op == "index" {
        &case["items"]
    } else {
        &case["indices"]
    };
    let owned = tensors(list);
    if op == "index" {
        let items = items(list, &owned);
        return view
            .index(&items)
            .map(|t| outcome(&t))
            .map_err(|e| e.to_string());
    }
    let values = &case["values"];
    let accumulate = case["args"]["accumulate"].as_bool().unwrap();
    let indices: Vec<&dyn shaped::ops::indexing::AsIndex<Cpu>> = owned
        .iter()
        .map(|t| t.as_ref().unwrap() as &dyn shaped::ops::indexing::AsIndex<Cpu>)
        .collect();
    if values["dtype"] != case["dtype"] {
        // Runtime dtypes: PyTorch's refusal, or its fill path's conversion.
        let values = any_of(values);
        let mut x = AnyTensor::from(view.to_owned());
        let result = match case["inplace"].as_bool().unwrap() {
            true => x.index_put_(&indices, &values, accumulate).map(|()| x),
            false => x.index_put(&indices, &values, accumulate),
        };
        return result.map(|t| any_outcome(&t)).map_err(|e| e.to_string());
    }
    let values: DynTensor<T> = any_of(values).downcast::<T>().unwrap();
    if case["inplace"].as_bool().unwrap() {
        let mut target = view.to_owned();
        let before = target.to_vec();
        let result = target.index_put_(&indices, &values, accumulate);
        if result.is_err() {
            assert_eq!(
                target.to_vec(),
                before,
                "{}: a failed call wrote",
                case["id"]
            );
        }
        result.map(|()| outcome(&target)).map_err(|e| e.to_string())
    } else {
        view.index_put(&indices, &values, accumulate)
            .map(|t| outcome(&t))
            .map_err(|e| e.to_string())
    }
}

/// Row-major strides of `sizes` (PyTorch's for size 1: the next stride).
fn row_major(sizes: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; sizes.len()];
    for d in (0..sizes.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * sizes[d + 1].max(1);
    }
    strides
}

#[test]
fn advanced_indexing_matches_pytorch() {
    let json: Value =
        serde_json::from_str(include_str!("fixtures/advanced_indexing.json")).unwrap();
    let cases = json["cases"].as_array().unwrap();
    let (mut passed, mut permuted) = (0, 0);
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let got = by_dtype!(case, run);
        match (&got, case.get("result"), case.get("error")) {
            (Ok(got), Some(result), _) => {
                let mut want = expected(result);
                if want.strides != row_major(&want.sizes) && !want.values.is_empty() {
                    // PyTorch's result follows a permuted input.
                    permuted += 1;
                    want.strides = got.strides.clone();
                }
                if want.values.is_empty() {
                    want.strides = got.strides.clone();
                }
                if same(got, &want) {
                    passed += 1;
                } else {
                    failures.push(format!("{id}: got {got:?}, want {want:?}"));
                }
            }
            (Err(text), _, Some(error)) if error["message"].as_str() == Some(text) => passed += 1,
            (got, _, _) => failures.push(format!(
                "{id}: got {got:?}, want {}",
                case.get("result").or(case.get("error")).unwrap()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{passed} cases match ({permuted} with PyTorch's permuted strides)");
    assert!(passed == cases.len() && passed >= 365);
}
