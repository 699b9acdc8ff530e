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

use half::{bf16, f16};
use num_complex::Complex;
mod common;

use common::number;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

/// Element types built from the fixture's JSON values.
trait FromJson: Element {
    fn from_json(v: &Value) -> Self;
}

macro_rules! from_json {
    ($($t:ty => |$v:ident| $json:expr;)*) => {$(
        impl FromJson for $t {
            fn from_json($v: &Value) -> Self {
                $json
            }
        }
    )*};
}
from_json! {
    f16 => |v| f16::from_f64(number(v));
    bf16 => |v| bf16::from_f64(number(v));
    f32 => |v| number(v) as f32;
    f64 => |v| number(v);
    Complex<f32> => |v| Complex::new(number(&v[0]) as f32, number(&v[1]) as f32);
    Complex<f64> => |v| Complex::new(number(&v[0]), number(&v[1]));
    u8 => |v| v.as_i64().unwrap() as u8;
    i8 => |v| v.as_i64().unwrap() as i8;
    i16 => |v| v.as_i64().unwrap() as i16;
    i32 => |v| v.as_i64().unwrap() as i32;
    i64 => |v| v.as_i64().unwrap();
    bool => |v| v.as_bool().unwrap();
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

fn any_outcome(t: &AnyTensor) -> Outcome {
    macro_rules! each {
        ($($t:ty),*) => {
            $(if let Some(x) = t.downcast_ref::<$t>() {
                return outcome(x);
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

/// The index tensor of the case, typed.
fn typed_index<I: FromJson>(case: &Value) -> DynTensor<I> {
    let index = &case["index"];
    let values: Vec<I> = index["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(I::from_json)
        .collect();
    DynTensor::<I>::from_vec(values, &ints::<usize>(&index["sizes"])).unwrap()
}

/// The index tensor of the case, of its runtime dtype.
fn any_index(case: &Value) -> AnyTensor {
    match case["index"]["dtype"].as_str().unwrap() {
        "int64" => typed_index::<i64>(case).into(),
        "int32" => typed_index::<i32>(case).into(),
        "int16" => typed_index::<i16>(case).into(),
        "int8" => typed_index::<i8>(case).into(),
        "uint8" => typed_index::<u8>(case).into(),
        "bool" => typed_index::<bool>(case).into(),
        "float32" => typed_index::<f32>(case).into(),
        d => panic!("index dtype {d}"),
    }
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
