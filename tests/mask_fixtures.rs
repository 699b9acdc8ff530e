//! Masks and `copy_` against PyTorch 2.15 (`scripts/fixtures/masks.py` ->
//! `tests/fixtures/masks.json`): `masked_fill` (numbers and rank-0 value
//! tensors, in place and out of place), `masked_scatter`, `masked_select`,
//! `nonzero` (and `as_tuple`), `argwhere` and `copy_` (between dtypes, with
//! broadcasting, into views), `fill_` (into tensors and views) and `add_`
//! through views over the twelve dtypes on strided inputs: the
//! result's sizes, strides, dtype and values (exact), or PyTorch's exact
//! error text; a failed in-place call leaves its tensor as it was.
//!
//! Every case runs on `AnyTensor` (runtime dtypes for masks, values and
//! sources); `nonzero` and `argwhere` run on `DynTensor` views of PyTorch's
//! layouts. `copy_` of NaN, infinities and out-of-range floats into
//! integers, which PyTorch leaves implementation-defined, is skipped
//! (shaped saturates).

use crate::common;

use common::tensors::*;
use half::{bf16, f16};
use num_complex::Complex;
use serde_json::Value;
use shaped::prelude::*;

/// What ran: the outcome(s), or why the case is not run.
enum Ran {
    Done(Result<Vec<Outcome>, String>),
    Skipped(&'static str),
}

fn run<T: FromJson>(case: &Value) -> Ran
where
    AnyTensor: From<DynTensor<T>>,
{
    let base = input::<T>(case);
    let (sizes, strides, offset) = layout(case);
    let view = base.as_strided(&sizes, &strides, offset).unwrap();
    let op = case["op"].as_str().unwrap();
    let args = &case["args"];
    if case.get("implementation_defined").and_then(Value::as_bool) == Some(true) {
        return Ran::Skipped("copy_ of values no integer holds (implementation-defined)");
    }
    let one =
        |r: Result<AnyTensor, Error>| r.map(|t| vec![any_outcome(&t)]).map_err(|e| e.to_string());
    let result: Result<Vec<Outcome>, String> = match op {
        "nonzero" if args.get("as_tuple").and_then(Value::as_bool) == Some(true) => {
            Ok(view.nonzero_as_tuple().iter().map(outcome).collect())
        }
        "nonzero" => Ok(vec![outcome(&view.nonzero())]),
        "argwhere" => Ok(vec![outcome(&view.argwhere())]),
        _ => {
            let inplace = case["inplace"].as_bool().unwrap();
            // In place on a row-major copy, as the fixture.
            let mut x = AnyTensor::from(view.to_owned());
            let before = any_outcome(&x);
            let mask = case.get("mask").map(any_of);
            let source = case.get("source").map(any_of);
            let result = match (op, inplace) {
                ("masked_fill", _)
                    if args.get("value_tensor").and_then(Value::as_bool) == Some(true) =>
                {
                    let value = value_tensor(args);
                    match inplace {
                        true => x
                            .masked_fill_tensor_(mask.as_ref().unwrap(), &value)
                            .map(|_| x.clone()),
                        false => x.masked_fill_tensor(mask.as_ref().unwrap(), &value),
                    }
                }
                ("masked_fill", true) => x
                    .masked_fill_(mask.as_ref().unwrap(), scalar(&args["value"]))
                    .map(|_| x.clone()),
                ("masked_fill", false) => {
                    x.masked_fill(mask.as_ref().unwrap(), scalar(&args["value"]))
                }
                ("masked_scatter", true) => x
                    .masked_scatter_(mask.as_ref().unwrap(), source.as_ref().unwrap())
                    .map(|_| x.clone()),
                ("masked_scatter", false) => {
                    x.masked_scatter(mask.as_ref().unwrap(), source.as_ref().unwrap())
                }
                ("masked_select", _) => x.masked_select(mask.as_ref().unwrap()),
                ("copy_", _) => match args.get("view") {
                    None => x.copy_(source.as_ref().unwrap()).map(|_| x.clone()),
                    Some(_) => {
                        // Into a view of a row-major copy: the base is the result.
                        let mut base = view.to_owned();
                        let slice = args["slice"].as_str().unwrap();
                        let got = copy_into_view(&mut base, slice, source.as_ref().unwrap());
                        return Ran::Done(
                            got.map(|_| vec![outcome(&base)]).map_err(|e| e.to_string()),
                        );
                    }
                },
                ("fill_", _) => {
                    let value = scalar(&args["value"]);
                    match args.get("slice").and_then(Value::as_str) {
                        None => x.fill_(value),
                        Some(slice) => through_view(&mut x, slice, |v| v.fill_(value)),
                    }
                    .map(|_| x.clone())
                }
                ("add_", _) => {
                    let slice = args["slice"].as_str().unwrap();
                    through_view(&mut x, slice, |v| {
                        v.try_add_assign(source.as_ref().unwrap())
                    })
                    .map(|_| x.clone())
                }
                (op, _) => panic!("unknown op {op}"),
            };
            if inplace && result.is_err() {
                assert!(
                    same(&any_outcome(&x), &before),
                    "{}: a failed call wrote",
                    case["id"]
                );
            }
            one(result)
        }
    };
    Ran::Done(result)
}

/// A rank-0 or larger value tensor of the case's `value_dtype`.
fn value_tensor(args: &Value) -> AnyTensor {
    let sizes: Vec<usize> = ints(&args["value_sizes"]);
    let values = match &args["value"] {
        Value::Array(v) if !sizes.is_empty() => Value::Array(v.clone()),
        v => Value::Array(vec![v.clone()]),
    };
    let spec = serde_json::json!({"dtype": args["value_dtype"], "sizes": sizes, "values": values});
    any_of(&spec)
}

/// `src` (of any dtype) copied into `view`.
fn copy_any<T: Element, S: shaped::shape::Shape>(
    mut view: TensorViewMut<'_, T, S>,
    src: &AnyTensor,
) -> Result<(), Error> {
    macro_rules! each {
        ($($t:ty),*) => {
            $(if let Some(s) = src.downcast_ref::<$t>() {
                return view.copy_(s);
            })*
        };
    }
    each!(
        f16,
        bf16,
        f32,
        f64,
        Complex<f32>,
        Complex<f64>,
        u8,
        i8,
        i16,
        i32,
        i64,
        bool
    );
    unreachable!("twelve dtypes")
}

/// `base[slice].copy_(src)` through a mutable view of the fixture's four
/// slice patterns (on a static tensor of the base's shape), with `src` of
/// any dtype; the base is written back.
fn copy_into_view<T: FromJson>(
    base: &mut DynTensor<T>,
    slice: &str,
    src: &AnyTensor,
) -> Result<(), Error> {
    fn on<T: FromJson, S: shaped::shape::Shape>(
        base: &mut DynTensor<T>,
        f: impl FnOnce(&mut Tensor<T, S>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut fixed: Tensor<T, S> = base.clone().into_static().unwrap();
        let result = f(&mut fixed);
        *base = fixed.into_dyn();
        result
    }
    match slice {
        "1:, ::2" => on::<T, shape![3, 4]>(base, |t| copy_any(t.slice_mut(s![1.., ..;2]), src)),
        "::2, 1::2" => on::<T, shape![3, 4]>(base, |t| copy_any(t.slice_mut(s![..;2, 1..;2]), src)),
        "1:3, :, ::2" => {
            on::<T, shape![4, 2, 5]>(base, |t| copy_any(t.slice_mut(s![1..3, .., ..;2]), src))
        }
        "1:6:2" => on::<T, shape![7]>(base, |t| copy_any(t.slice_mut(s![1..6;2]), src)),
        other => panic!("slice {other}"),
    }
}

/// `f` on a writable `AnyTensor` view of `x` (the fixture's four slice
/// patterns): what it writes lands in `x`.
fn through_view(
    x: &mut AnyTensor,
    slice: &str,
    f: impl FnOnce(&mut AnyTensor<Cpu, shaped::storage::ViewMut<'_>>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut view = match slice {
        "1:, ::2" => x.slice_mut(s![1.., ..;2]),
        "::2, 1::2" => x.slice_mut(s![..;2, 1..;2]),
        "1:3, :, ::2" => x.slice_mut(s![1..3, .., ..;2]),
        "1:6:2" => x.slice_mut(s![1..6;2]),
        other => panic!("slice {other}"),
    }?;
    f(&mut view)
}

#[test]
fn masks_and_copy_match_pytorch() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/masks.json"
    ))
    .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut skipped = std::collections::BTreeMap::<&str, usize>::new();
    let (mut checked, mut errors) = (0, 0);
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let want: Result<Vec<Outcome>, String> =
            match (case.get("result"), case.get("results"), case.get("error")) {
                (Some(r), _, _) => Ok(vec![expected(r)]),
                (None, Some(rs), _) => Ok(rs.as_array().unwrap().iter().map(expected).collect()),
                (None, None, Some(e)) => Err(e["message"].as_str().unwrap().to_string()),
                _ => panic!("{id}: no outcome"),
            };
        let got = match by_dtype!(case, run) {
            Ran::Done(got) => got,
            Ran::Skipped(why) => {
                *skipped.entry(why).or_default() += 1;
                continue;
            }
        };
        checked += 1;
        errors += usize::from(want.is_err());
        let ok = match (&got, &want) {
            (Ok(g), Ok(w)) => g.len() == w.len() && g.iter().zip(w).all(|(a, b)| same(a, b)),
            (Err(g), Err(w)) => g == w,
            _ => false,
        };
        if !ok {
            failures.push(format!("{id}: got {got:?}, PyTorch {want:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ from PyTorch:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("mask fixtures: {checked} checked ({errors} errors); skipped: {skipped:?}");
    assert!(
        cases.len() >= 528 && checked >= 520 && errors >= 169,
        "{checked} checked, {errors} errors"
    );
}
