//! What the fixture tests of the tensor operations share: the fixture's
//! values as typed and runtime-dtype tensors (`FromJson`, `any_of`,
//! `scalar`), the inputs PyTorch laid out (`input`, `layout`), and results
//! as comparable outcomes (`Outcome`, `expected`, `same`, `by_dtype!`).

use super::number;
use half::{bf16, f16};
use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

/// Element types built from the fixture's JSON values, and from a number
/// argument by PyTorch's checked cast (`None` where PyTorch refuses it:
/// those cases need `AnyTensor`).
pub trait FromJson: Element {
    fn from_json(v: &Value) -> Self;
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
pub fn int(x: f64, lo: f64, hi: f64) -> Option<i64> {
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

pub fn ints<N: TryFrom<i64>>(v: &Value) -> Vec<N>
where
    N::Error: std::fmt::Debug,
{
    let list = v.as_array().expect("a list");
    list.iter()
        .map(|x| N::try_from(x.as_i64().unwrap()).unwrap())
        .collect()
}

/// A result as the fixture writes it: sizes, strides, dtype, values.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub sizes: Vec<usize>,
    pub strides: Vec<usize>,
    pub dtype: DType,
    pub values: Vec<Scalar>,
}

pub fn outcome<T: Element, R: shaped::storage::Repr>(t: &Tensor<T, DynShape, Cpu, R>) -> Outcome {
    Outcome {
        sizes: t.shape().to_vec(),
        strides: t.strides().to_vec(),
        dtype: t.dtype(),
        values: t.to_vec().into_iter().map(Element::to_scalar).collect(),
    }
}

/// The case's input: PyTorch's storage with its layout, as a view.
pub fn input<T: FromJson>(case: &Value) -> DynTensor<T> {
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

pub fn layout(case: &Value) -> (Vec<usize>, Vec<usize>, usize) {
    let input = &case["input"];
    (
        ints(&input["sizes"]),
        ints(&input["strides"]),
        input["offset"].as_u64().unwrap() as usize,
    )
}

/// The index tensor of the case, typed.
pub fn typed_index<I: FromJson>(case: &Value) -> DynTensor<I> {
    let index = &case["index"];
    let values: Vec<I> = index["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(I::from_json)
        .collect();
    DynTensor::<I>::from_vec(values, &ints::<usize>(&index["sizes"])).unwrap()
}

/// A JSON number argument as a [`Scalar`] of its kind.
pub fn scalar(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Array(parts) => Scalar::Complex(number(&parts[0]), number(&parts[1])),
        Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap()),
        other => Scalar::Float(number(other)),
    }
}

/// A tensor of the fixture's `{dtype, sizes, values}` as an [`AnyTensor`].
pub fn any_of(t: &Value) -> AnyTensor {
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

pub fn any_outcome(t: &AnyTensor) -> Outcome {
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

/// PyTorch's result as an [`Outcome`] (values rounded to the dtype).
pub fn expected(result: &Value) -> Outcome {
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
pub fn same(got: &Outcome, want: &Outcome) -> bool {
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

/// Equal as an order statistic's result: NaN with NaN; zeros with their
/// sign unless `any_zero` (PyTorch's choice among equal zeros is
/// unspecified there); finite floats within `rel` of PyTorch's (0 for
/// exact); sizes, strides and dtype exactly.
pub fn equal_ranked(got: &Outcome, want: &Outcome, any_zero: bool, rel: f64) -> bool {
    let same_value = |a: &Scalar, b: &Scalar| match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) => {
            (x.is_nan() && y.is_nan())
                || (x == y && (any_zero || x.is_sign_negative() == y.is_sign_negative()))
                || (x.is_finite() && y.is_finite() && (x - y).abs() <= rel * y.abs())
        }
        (Scalar::Complex(a, b), Scalar::Complex(c, d)) => {
            (a == c || (a.is_nan() && c.is_nan())) && (b == d || (b.is_nan() && d.is_nan()))
        }
        (a, b) => a == b,
    };
    got.dtype == want.dtype
        && got.sizes == want.sizes
        && got.strides == want.strides
        && got.values.len() == want.values.len()
        && got
            .values
            .iter()
            .zip(&want.values)
            .all(|(a, b)| same_value(a, b))
}

/// Equal within `rel` (relative) plus `abs`, NaN equal to NaN, each part
/// of a complex value on its own; sizes, strides and dtype exactly.
pub fn close_within(got: &Outcome, want: &Outcome, rel: f64, abs: f64) -> bool {
    let near = |x: f64, y: f64| {
        x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= abs + rel * y.abs()
    };
    let value = |a: &Scalar, b: &Scalar| match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) => near(*x, *y),
        (Scalar::Complex(a, b), Scalar::Complex(c, d)) => near(*a, *c) && near(*b, *d),
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

/// PyTorch's results of a case (`result`, or the several of `results`),
/// or `None` where it recorded an error.
pub fn wanted(case: &Value) -> Option<Vec<Outcome>> {
    match (case.get("result"), case.get("results")) {
        (Some(r), _) => Some(vec![expected(r)]),
        (_, Some(rs)) => Some(rs.as_array().unwrap().iter().map(expected).collect()),
        _ => None,
    }
}

/// `got` against the case's `want` (its results, each within `close`) or
/// its error (the text exactly); `Err` with the failure's line.
pub fn check_case(
    case: &Value,
    got: &Result<Vec<Outcome>, String>,
    want: &Option<Vec<Outcome>>,
    close: impl Fn(&Outcome, &Outcome) -> bool,
) -> Result<(), String> {
    let ok = match (got, want, case.get("error")) {
        (Ok(got), Some(want), _) => {
            got.len() == want.len() && got.iter().zip(want).all(|(g, w)| close(g, w))
        }
        (Err(text), _, Some(error)) => error["message"].as_str() == Some(text),
        _ => false,
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "{}: got {got:?}, want {}",
            case["id"],
            case.get("result")
                .or(case.get("results"))
                .or(case.get("error"))
                .unwrap()
        )),
    }
}

/// The line that reports a failed elementwise case of `op(case["a"])`:
/// the first element where `same_at(got, want, i)` fails, with its input,
/// or the dtypes and error texts when there are no values to compare.
pub fn failure_line(
    case: &Value,
    got: &Result<AnyTensor, String>,
    same_at: impl Fn(&Outcome, &Outcome, usize) -> bool,
) -> String {
    let detail = match (got, case.get("result")) {
        (Ok(t), Some(want)) => {
            let (g, w) = (any_outcome(t), expected(want));
            let inputs = any_outcome(&any_of(&case["a"])).values;
            let first = (0..g.values.len().min(w.values.len())).find(|&i| !same_at(&g, &w, i));
            format!(
                "dtype {:?}/{:?}, first difference at {first:?}: input {:?}, got {:?}, want {:?}",
                g.dtype,
                w.dtype,
                first.and_then(|i| inputs.get(i)),
                first.map(|i| g.values[i]),
                first.map(|i| w.values[i])
            )
        }
        _ => format!(
            "got {:?}, want {:?}",
            got.as_ref().map(|t| any_outcome(t).dtype),
            case.get("result").or(case.get("error"))
        ),
    };
    format!("{}: {detail}", case["id"])
}

/// Outcome `o`'s element `i` alone, as an outcome of its own.
pub fn element_of(o: &Outcome, i: usize) -> Outcome {
    Outcome {
        sizes: vec![1],
        strides: vec![1],
        dtype: o.dtype,
        values: vec![o.values[i]],
    }
}

/// Checks every elementwise fixture case: `run(case)` against the case's
/// result, within `close(case, got, want, element)` (`element`: the index
/// of the one element compared when a failure's line is written, else
/// `None`), or against its error text exactly; fails with a line per case
/// that differs.
pub fn check_elementwise_cases(
    cases: &[Value],
    run: impl Fn(&Value) -> Result<AnyTensor, String>,
    close: impl Fn(&Value, &Outcome, &Outcome, Option<usize>) -> bool,
) {
    let mut failures = Vec::new();
    for case in cases {
        let got = run(case);
        let ok = match (&got, case.get("result"), case.get("error")) {
            (Ok(t), Some(want), _) => close(case, &any_outcome(t), &expected(want), None),
            (Err(text), _, Some(error)) => error["message"].as_str() == Some(text.as_str()),
            _ => false,
        };
        if !ok {
            failures.push(failure_line(case, &got, |g, w, i| {
                close(case, &element_of(g, i), &element_of(w, i), Some(i))
            }));
        }
    }
    assert_no_failures(&failures, cases.len());
}

/// Fails with every failure's line, if any.
pub fn assert_no_failures(failures: &[String], cases: usize) {
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[macro_export]
macro_rules! by_dtype {
    ($case:expr, $run:ident) => {
        match $case["dtype"].as_str().unwrap() {
            "float16" => $run::<half::f16>($case),
            "bfloat16" => $run::<half::bf16>($case),
            "float32" => $run::<f32>($case),
            "float64" => $run::<f64>($case),
            "complex64" => $run::<num_complex::Complex<f32>>($case),
            "complex128" => $run::<num_complex::Complex<f64>>($case),
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
