//! Masks and `copy_` against PyTorch 2.15 (`scripts/fixtures/masks.py` ->
//! `tests/fixtures/masks.json`): `masked_fill` (numbers and rank-0 value
//! tensors, in place and out of place), `masked_scatter`, `masked_select`,
//! `nonzero` (and `as_tuple`), `argwhere` and `copy_` (between dtypes, with
//! broadcasting, into views) over the twelve dtypes on strided inputs: the
//! result's sizes, strides, dtype and values (exact), or PyTorch's exact
//! error text; a failed in-place call leaves its tensor as it was.
//!
//! Every case runs on `AnyTensor` (runtime dtypes for masks, values and
//! sources); `nonzero` and `argwhere` run on `DynTensor` views of PyTorch's
//! layouts. `copy_` of NaN, infinities and out-of-range floats into
//! integers, which PyTorch leaves implementation-defined, is skipped
//! (shaped saturates).

mod common;

use common::number;
use half::{bf16, f16};
use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

/// Element types built from the fixture's JSON values, and from a number
/// argument by PyTorch's checked cast (`None` where PyTorch refuses it:
/// those cases need `AnyTensor`).
trait FromJson: Element {
    fn from_json(v: &Value) -> Self;
    #[allow(dead_code)]
    fn checked(x: f64) -> Option<Self>;
}

macro_rules! from_json {
    ($($t:ty => |$v:ident| $json:expr, |$x:ident| $checked:expr;)*) => {$(
        impl FromJson for $t {
            fn from_json($v: &Value) -> Self {
                $json
            }
            fn checked($x: f64) -> Option<Self> {
                $checked
            }
        }
    )*};
}
/// An integer by truncation, when PyTorch's cast takes it (`lo..=hi`).
#[allow(dead_code)]
fn int(x: f64, lo: f64, hi: f64) -> Option<i64> {
    (x.is_finite() && x >= lo && x <= hi).then(|| x.trunc() as i64)
}
from_json! {
    f16 => |v| f16::from_f64(number(v)), |x| Some(f16::from_f64(x)).filter(|h| h.is_finite() || !x.is_finite());
    bf16 => |v| bf16::from_f64(number(v)), |x| Some(bf16::from_f64(x)).filter(|h| h.is_finite() || !x.is_finite());
    f32 => |v| number(v) as f32, |x| Some(x as f32).filter(|h| h.is_finite() || !x.is_finite());
    f64 => |v| number(v), |x| Some(x);
    Complex<f32> => |v| if v.is_array() { Complex::new(number(&v[0]) as f32, number(&v[1]) as f32) } else { Complex::new(number(v) as f32, 0.0) }, |x| Some(Complex::new(x as f32, 0.0));
    Complex<f64> => |v| if v.is_array() { Complex::new(number(&v[0]), number(&v[1])) } else { Complex::new(number(v), 0.0) }, |x| Some(Complex::new(x, 0.0));
    u8 => |v| v.as_i64().unwrap() as u8, |x| int(x, -255.0, 255.0).map(|i| i as u8);
    i8 => |v| v.as_i64().unwrap() as i8, |x| int(x, -128.0, 127.0).map(|i| i as i8);
    i16 => |v| v.as_i64().unwrap() as i16, |x| int(x, -32768.0, 32767.0).map(|i| i as i16);
    i32 => |v| v.as_i64().unwrap() as i32, |x| int(x, -2147483648.0, 2147483647.0).map(|i| i as i32);
    i64 => |v| v.as_i64().unwrap(), |x| int(x, -9.223372036854776e18, 9.223372036854775e18);
    bool => |v| v.as_bool().unwrap(), |x| Some(x != 0.0);
}

fn ints<N: TryFrom<i64>>(v: &Value) -> Vec<N>
where
    N::Error: std::fmt::Debug,
{
    let list = v.as_array().expect("a list");
    list.iter()
        .map(|x| N::try_from(x.as_i64().unwrap()).unwrap())
        .collect()
}

/// A result as the fixture writes it: sizes, strides, dtype, values.
#[derive(Debug, PartialEq)]
struct Outcome {
    sizes: Vec<usize>,
    strides: Vec<usize>,
    dtype: DType,
    values: Vec<Scalar>,
}

fn outcome<T: Element, R: shaped::storage::Repr>(t: &Tensor<T, DynShape, Cpu, R>) -> Outcome {
    Outcome {
        sizes: t.shape().to_vec(),
        strides: t.strides().to_vec(),
        dtype: t.dtype(),
        values: t.to_vec().into_iter().map(Element::to_scalar).collect(),
    }
}

/// The case's input: PyTorch's storage with its layout, as a view.
fn input<T: FromJson>(case: &Value) -> DynTensor<T> {
    let input = &case["input"];
    let data: Vec<T> = input["storage"]
        .as_array()
        .unwrap()
        .iter()
        .map(T::from_json)
        .collect();
    let n = data.len();
    DynTensor::<T>::from_vec(data, &[n]).unwrap()
}

fn layout(case: &Value) -> (Vec<usize>, Vec<usize>, usize) {
    let input = &case["input"];
    (
        ints(&input["sizes"]),
        ints(&input["strides"]),
        input["offset"].as_u64().unwrap() as usize,
    )
}

/// A JSON number argument as a [`Scalar`] of its kind.
fn scalar(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Array(parts) => Scalar::Complex(number(&parts[0]), number(&parts[1])),
        Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap()),
        other => Scalar::Float(number(other)),
    }
}

/// A tensor of the fixture's `{dtype, sizes, values}` as an [`AnyTensor`].
fn any_of(t: &Value) -> AnyTensor {
    fn typed<T: FromJson>(t: &Value) -> DynTensor<T> {
        let values: Vec<T> = t["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(T::from_json)
            .collect();
        DynTensor::<T>::from_vec(values, &ints::<usize>(&t["sizes"])).unwrap()
    }
    match t["dtype"].as_str().unwrap() {
        "float16" => typed::<f16>(t).into(),
        "bfloat16" => typed::<bf16>(t).into(),
        "float32" => typed::<f32>(t).into(),
        "float64" => typed::<f64>(t).into(),
        "complex64" => typed::<Complex<f32>>(t).into(),
        "complex128" => typed::<Complex<f64>>(t).into(),
        "uint8" => typed::<u8>(t).into(),
        "int8" => typed::<i8>(t).into(),
        "int16" => typed::<i16>(t).into(),
        "int32" => typed::<i32>(t).into(),
        "int64" => typed::<i64>(t).into(),
        "bool" => typed::<bool>(t).into(),
        d => panic!("dtype {d}"),
    }
}

fn any_outcome(t: &AnyTensor) -> Outcome {
    macro_rules! each {
        ($($t:ty),*) => {
            $(if let Some(x) = t.downcast_ref::<$t>() {
                return outcome(&x.to_owned());
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

/// PyTorch's result as an [`Outcome`] (values rounded to the dtype).
fn expected(result: &Value) -> Outcome {
    let dtype = match result["dtype"].as_str().unwrap() {
        "float16" => DType::F16,
        "bfloat16" => DType::BF16,
        "float32" => DType::F32,
        "float64" => DType::F64,
        "complex64" => DType::C64,
        "complex128" => DType::C128,
        "uint8" => DType::U8,
        "int8" => DType::I8,
        "int16" => DType::I16,
        "int32" => DType::I32,
        "int64" => DType::I64,
        "bool" => DType::Bool,
        d => panic!("dtype {d}"),
    };
    let real = |v: &Value| match dtype {
        DType::F32 | DType::C64 => f64::from(number(v) as f32),
        DType::F16 => f16::from_f64(number(v)).to_f64(),
        DType::BF16 => bf16::from_f64(number(v)).to_f64(),
        _ => number(v),
    };
    let values = result["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| match dtype {
            DType::Bool => Scalar::Bool(v.as_bool().unwrap()),
            DType::C64 | DType::C128 => Scalar::Complex(real(&v[0]), real(&v[1])),
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 => Scalar::Float(real(v)),
            _ => Scalar::Int(v.as_i64().unwrap()),
        })
        .collect();
    Outcome {
        sizes: ints(&result["sizes"]),
        strides: ints(&result["strides"]),
        dtype,
        values,
    }
}

/// Equal, with NaN equal to NaN (the operations copy elements bit for bit).
fn same(got: &Outcome, want: &Outcome) -> bool {
    let value = |a: &Scalar, b: &Scalar| match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Scalar::Complex(a, b), Scalar::Complex(c, d)) => {
            (a == c || (a.is_nan() && c.is_nan())) && (b == d || (b.is_nan() && d.is_nan()))
        }
        _ => a == b,
    };
    got.sizes == want.sizes
        && got.strides == want.strides
        && got.dtype == want.dtype
        && got.values.len() == want.values.len()
        && got
            .values
            .iter()
            .zip(&want.values)
            .all(|(a, b)| value(a, b))
}

macro_rules! by_dtype {
    ($case:expr, $run:ident) => {
        match $case["dtype"].as_str().unwrap() {
            "float16" => $run::<f16>($case),
            "bfloat16" => $run::<bf16>($case),
            "float32" => $run::<f32>($case),
            "float64" => $run::<f64>($case),
            "complex64" => $run::<Complex<f32>>($case),
            "complex128" => $run::<Complex<f64>>($case),
            "uint8" => $run::<u8>($case),
            "int8" => $run::<i8>($case),
            "int16" => $run::<i16>($case),
            "int32" => $run::<i32>($case),
            "int64" => $run::<i64>($case),
            "bool" => $run::<bool>($case),
            d => panic!("unknown dtype {d}"),
        }
    };
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
        cases.len() >= 420 && checked >= 410 && errors >= 120,
        "{checked} checked, {errors} errors"
    );
}
