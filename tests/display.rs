//! `Display` against PyTorch 2.15's `str(tensor)`: every case of
//! `tests/fixtures/display.json` (made by `scripts/fixtures/display.py`),
//! built through the public API with all-`Dyn` shapes of its rank.

use half::{bf16, f16};
use num_complex::Complex;
use serde::Deserialize;
use serde_json::Value;
use shaped::prelude::*;
use std::collections::BTreeSet;

#[derive(Deserialize)]
struct Case {
    dtype: String,
    shape: Vec<usize>,
    values: Vec<Value>,
    expected: String,
}

/// A fixture float: a number, or `"nan"`, `"inf"`, `"-inf"`.
fn real(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().expect("a float"),
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("unknown float {other:?}"),
        },
        other => panic!("not a float: {other}"),
    }
}

fn complex(v: &Value) -> Complex<f64> {
    match v.as_array().map(Vec::as_slice) {
        Some([re, im]) => Complex::new(real(re), real(im)),
        _ => panic!("not a complex [re, im]: {v}"),
    }
}

fn int(v: &Value) -> i64 {
    v.as_i64().expect("an integer")
}

/// `str(tensor)` of a tensor with these sizes, built with `shape![Dyn; rank]`.
fn render<T: Element>(values: Vec<T>, sizes: &[usize]) -> String {
    macro_rules! build {
        ($($dims:tt)*) => {
            Tensor::<T, shape![$($dims)*]>::from_vec_with(values, sizes)
                .expect("the values fill the shape")
                .to_string()
        };
    }
    match sizes.len() {
        0 => build!(),
        1 => build!(Dyn),
        2 => build!(Dyn, Dyn),
        3 => build!(Dyn, Dyn, Dyn),
        4 => build!(Dyn, Dyn, Dyn, Dyn),
        rank => panic!("no fixture of rank {rank} expected"),
    }
}

fn render_case(case: &Case) -> String {
    macro_rules! values {
        ($parse:expr) => {
            case.values.iter().map($parse).collect()
        };
    }
    let s = &case.shape;
    match case.dtype.as_str() {
        "float16" => render::<f16>(values!(|v| f16::from_f64(real(v))), s),
        "bfloat16" => render::<bf16>(values!(|v| bf16::from_f64(real(v))), s),
        "float32" => render::<f32>(values!(|v| real(v) as f32), s),
        "float64" => render::<f64>(values!(real), s),
        "complex64" => render::<Complex<f32>>(
            values!(|v| {
                let z = complex(v);
                Complex::new(z.re as f32, z.im as f32)
            }),
            s,
        ),
        "complex128" => render::<Complex<f64>>(values!(complex), s),
        "uint8" => render::<u8>(values!(|v| u8::try_from(int(v)).unwrap()), s),
        "int8" => render::<i8>(values!(|v| i8::try_from(int(v)).unwrap()), s),
        "int16" => render::<i16>(values!(|v| i16::try_from(int(v)).unwrap()), s),
        "int32" => render::<i32>(values!(|v| i32::try_from(int(v)).unwrap()), s),
        "int64" => render::<i64>(values!(int), s),
        "bool" => render::<bool>(values!(|v| v.as_bool().expect("a bool")), s),
        other => panic!("unknown dtype {other}"),
    }
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/display.json");
    let text = std::fs::read_to_string(path).expect("run python3 scripts/fixtures/display.py");
    serde_json::from_str(&text).expect("the fixture parses")
}

#[test]
fn display_matches_pytorch_for_every_fixture() {
    let cases = cases();
    assert!(cases.len() >= 80, "only {} cases", cases.len());
    let dtypes: BTreeSet<&str> = cases.iter().map(|c| c.dtype.as_str()).collect();
    assert_eq!(dtypes.len(), 12, "dtypes covered: {dtypes:?}");
    let ranks: BTreeSet<usize> = cases.iter().map(|c| c.shape.len()).collect();
    assert_eq!(ranks, (0..=4).collect());
    assert!(cases.iter().any(|c| c.expected.contains("...")));
    assert!(cases.iter().any(|c| c.expected.contains("size=(")));

    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let got = render_case(case);
        if got != case.expected {
            failures.push(format!(
                "case {i} ({} {:?}):\nexpected:\n{}\ngot:\n{}\n",
                case.dtype, case.shape, case.expected, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from PyTorch:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn seeds_print_as_pytorch() {
    let a = Tensor::<i64, shape![3, 3]>::from_vec((0..9).collect()).unwrap();
    assert_eq!(
        a.to_string(),
        "tensor([[0, 1, 2],\n        [3, 4, 5],\n        [6, 7, 8]])"
    );
    assert_eq!(
        Tensor::<i64, shape![3]>::arange().to_string(),
        "tensor([0, 1, 2])"
    );
    // `arange(4) + arange(3)[:, None]`, broadcast.
    let c = &Tensor::<i64, shape![4]>::arange()
        + &Tensor::<i64, shape![3, 1]>::from_vec(vec![0, 1, 2]).unwrap();
    assert_eq!(
        c.to_string(),
        "tensor([[0, 1, 2, 3],\n        [1, 2, 3, 4],\n        [2, 3, 4, 5]])"
    );
}

#[test]
fn views_print_their_logical_elements() {
    // An expanded view (stride 0) prints like its dense copy.
    let row = tensor![1.5f32, -2.0];
    let grid = row.expand::<shape![2, 2]>();
    assert_eq!(grid.to_string(), grid.to_owned().to_string());
    assert_eq!(
        grid.to_string(),
        "tensor([[ 1.5000, -2.0000],\n        [ 1.5000, -2.0000]])"
    );
}

#[test]
fn debug_appends_the_layout() {
    let t = tensor![1i64, 2];
    assert_eq!(
        format!("{t:?}"),
        "tensor([1, 2]) (shape [2], strides [1], offset 0, int64, cpu)"
    );
    let h = Tensor::<f16, shape![]>::full(f16::from_f32(0.1));
    assert_eq!(
        format!("{h:?}"),
        "tensor(0.1000, dtype=torch.float16) (shape [], strides [], offset 0, float16, cpu)"
    );
}
