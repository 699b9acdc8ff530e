//! The rearrangements and structured constructors checked against PyTorch
//! 2.15.0 (`tests/fixtures/rearrange.json`, written by
//! `scripts/fixtures/rearrange.py`): `flip`, `fliplr`, `flipud`, `roll`,
//! `rot90`, `pad` (every mode), `tril`, `triu`, `repeat`, `tile`,
//! `repeat_interleave` (with a count, and with a tensor of counts through
//! `AnyTensor`), `diag`, `diag_embed`, `diagflat` on PyTorch's own
//! layouts (transposed, stepped, expanded inputs) through `DynTensor`;
//! `block_diag`, `cartesian_prod`, `meshgrid` (values and sizes: the
//! `AnyTensor` form returns copies where PyTorch returns views),
//! `tril_indices`, `triu_indices` and a constant `pad`'s value conversion
//! through `AnyTensor`. Values exactly, errors by their text.
//!
//! Not checked here, and why: `meshgrid`'s refusal of a 2-d input (PyTorch prints the
//! tensor in its C++ format in the message), `block_diag` of no tensors
//! (PyTorch returns an empty CPU tensor; the generic form has no device to
//! place one on, and refuses), the modes and indexings that
//! are enums here (`"symmetric"`, `"yx"` cannot be written), and three
//! circular pads PyTorch computes from memory it never wrote (flagged
//! `pytorch_bug` by the script).

use super::common::number;
use super::common::tensors::{
    FromJson, Outcome, any_outcome, assert_no_failures, check_case, input, ints, layout, outcome,
    same, wanted,
};
use half::{bf16, f16};
use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::dynamic::AnyElement;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/rearrange.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// Whether this file checks the case (see the module's note).
fn checked(c: &Value) -> bool {
    let message = c["error"]["message"].as_str().unwrap_or("");
    let skipped = c.get("pytorch_bug").is_some()
        || matches!(c["mode"].as_str(), Some("symmetric"))
        || message.starts_with("torch.meshgrid: Expected 0D or 1D")
        || message.starts_with("torch.meshgrid: indexing must be")
        || message.starts_with("Unrecognised padding mode")
        || (c["op"] == "block_diag" && c["inputs"].as_array().is_some_and(|v| v.is_empty()));
    !skipped
}

fn mode(c: &Value) -> PadMode {
    match c["mode"].as_str().unwrap() {
        "constant" => PadMode::Constant,
        "reflect" => PadMode::Reflect,
        "replicate" => PadMode::Replicate,
        other => {
            assert_eq!(other, "circular");
            PadMode::Circular
        }
    }
}

/// A number argument as the [`Scalar`] of its JSON kind.
fn arg(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap()),
        other => Scalar::Float(number(other)),
    }
}

/// The list argument `key`, empty when absent.
fn list(c: &Value, key: &str) -> Vec<isize> {
    c.get(key).map(ints::<isize>).unwrap_or_default()
}

/// The op of a one-input case on its input laid out as PyTorch's.
fn single<T: FromJson + AnyElement>(c: &Value) -> Result<Outcome, String>
where
    AnyTensor: From<DynTensor<T>>,
{
    let base = input::<T>(c);
    let (sizes, strides, offset) = layout(c);
    let x = base.as_strided(&sizes, &strides, offset).unwrap();
    let int = |key: &str| c[key].as_i64().unwrap();
    let result = match c["op"].as_str().unwrap() {
        "flip" => x.flip(&list(c, "dims")),
        "fliplr" => x.fliplr(),
        "flipud" => x.flipud(),
        "roll" => x.roll(&list(c, "shifts"), &list(c, "dims")),
        "rot90" => x.rot90(int("k"), &list(c, "dims")),
        "pad" if !c["value"].is_null() => {
            // Through `AnyTensor`: the value's checked conversion.
            let any = AnyTensor::from(x.to_owned());
            let padded = any
                .pad(&list(c, "pad"), mode(c), Some(arg(&c["value"])))
                .map_err(|e| e.to_string())?;
            return Ok(any_outcome(&padded));
        }
        "pad" => x.pad(&list(c, "pad"), mode(c), None),
        "tril" => x.tril(int("diagonal")),
        "triu" => x.triu(int("diagonal")),
        "repeat" => x.repeat(&list(c, "reps")),
        "tile" => x.tile(&list(c, "reps")),
        "repeat_interleave" => {
            x.repeat_interleave(int("repeats"), c["dim"].as_i64().map(|d| d as isize))
        }
        "repeat_interleave_tensor" => {
            // Through `AnyTensor`: the counts' dtype checked at run time.
            let counts = any_input(&c["repeats"]);
            let any = AnyTensor::from(x.to_owned());
            let out = any
                .repeat_interleave_by(&counts, c["dim"].as_i64().map(|d| d as isize))
                .map_err(|e| e.to_string())?;
            return Ok(any_outcome(&out));
        }
        "diag" => x.diag(int("diagonal")),
        "diag_embed" => x.diag_embed(int("offset"), int("dim1") as isize, int("dim2") as isize),
        "diagflat" => x.diagflat(int("offset")),
        op => panic!("op {op}"),
    };
    result.map(|t| outcome(&t)).map_err(|e| e.to_string())
}

/// `single` for the dtype of the case's input.
fn single_of(c: &Value) -> Result<Outcome, String> {
    match c["input"]["dtype"].as_str().unwrap() {
        "float16" => single::<f16>(c),
        "bfloat16" => single::<bf16>(c),
        "float32" => single::<f32>(c),
        "float64" => single::<f64>(c),
        "complex64" => single::<Complex<f32>>(c),
        "complex128" => single::<Complex<f64>>(c),
        "uint8" => single::<u8>(c),
        "int8" => single::<i8>(c),
        "int16" => single::<i16>(c),
        "int32" => single::<i32>(c),
        "int64" => single::<i64>(c),
        d => {
            assert_eq!(d, "bool");
            single::<bool>(c)
        }
    }
}

/// A tensor of an `inputs` list, laid out as PyTorch's, as an owned
/// `AnyTensor`.
fn any_input(t: &Value) -> AnyTensor {
    let case = serde_json::json!({ "input": t });
    fn typed<T: FromJson + AnyElement>(case: &Value) -> AnyTensor
    where
        AnyTensor: From<DynTensor<T>>,
    {
        let base = input::<T>(case);
        let (sizes, strides, offset) = layout(case);
        AnyTensor::from(
            base.as_strided(&sizes, &strides, offset)
                .unwrap()
                .to_owned(),
        )
    }
    match t["dtype"].as_str().unwrap() {
        "float16" => typed::<f16>(&case),
        "bfloat16" => typed::<bf16>(&case),
        "float32" => typed::<f32>(&case),
        "float64" => typed::<f64>(&case),
        "complex64" => typed::<Complex<f32>>(&case),
        "complex128" => typed::<Complex<f64>>(&case),
        "uint8" => typed::<u8>(&case),
        "int8" => typed::<i8>(&case),
        "int16" => typed::<i16>(&case),
        "int32" => typed::<i32>(&case),
        "int64" => typed::<i64>(&case),
        _ => typed::<bool>(&case),
    }
}

/// The op of a case of several inputs, or of none.
fn several(c: &Value) -> Result<Outcome, String> {
    let owned: Vec<AnyTensor> = c
        .get("inputs")
        .map(|v| v.as_array().unwrap().iter().map(any_input).collect())
        .unwrap_or_default();
    let inputs: Vec<&AnyTensor> = owned.iter().collect();
    let int = |key: &str| c[key].as_i64().unwrap();
    let result = match c["op"].as_str().unwrap() {
        "block_diag" => AnyTensor::block_diag(&inputs),
        "cartesian_prod" => AnyTensor::cartesian_prod(&inputs),
        "meshgrid" => {
            let indexing = match c["indexing"].as_str().unwrap() {
                "ij" => MeshIndexing::Ij,
                _ => MeshIndexing::Xy,
            };
            AnyTensor::meshgrid(&inputs, indexing)
                .map(|mut grids| grids.swap_remove(c["output"].as_u64().unwrap() as usize))
        }
        "tril_indices" => AnyTensor::tril_indices(int("row"), int("col"), int("offset")),
        op => {
            assert_eq!(op, "triu_indices");
            AnyTensor::triu_indices(int("row"), int("col"), int("offset"))
        }
    };
    result.map(|t| any_outcome(&t)).map_err(|e| e.to_string())
}

#[test]
fn rearrangements_match_pytorch() {
    let all = cases();
    let cases: Vec<&Value> = all.iter().filter(|c| checked(c)).collect();
    assert!(cases.len() > 1650, "{} of {} cases", cases.len(), all.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let views = c["op"] == "meshgrid";
            let got = if c.get("input").is_some() {
                single_of(c)
            } else {
                several(c)
            };
            let close = |g: &Outcome, w: &Outcome| {
                if views {
                    // PyTorch's grids are views (strides of 0); these are copies.
                    (&g.sizes, g.dtype, &g.values) == (&w.sizes, w.dtype, &w.values) || same(g, w)
                } else {
                    same(g, w)
                }
            };
            check_case(c, &got.map(|o| vec![o]), &wanted(c), close).err()
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}

/// The typed forms give the dynamic forms' tensors.
#[test]
fn static_forms_agree_with_the_dynamic_ones() {
    let s = Tensor::<i32, shape![3, 4]>::from_vec((0..12).collect()).unwrap();
    let d = s.clone().into_dyn();
    assert_eq!(
        s.flip::<axes![1]>().to_vec(),
        d.flip(&[1]).unwrap().to_vec()
    );
    assert_eq!(
        s.roll::<0>(-4).to_vec(),
        d.roll(&[-4], &[0]).unwrap().to_vec()
    );
    assert_eq!(
        s.rot90::<3, 1, 0>().to_vec(),
        d.rot90(3, &[1, 0]).unwrap().to_vec()
    );
    assert_eq!(
        s.pad::<shape![1, 2, 3, 0]>(5).to_vec(),
        d.pad(&[1, 2, 3, 0], PadMode::Constant, Some(5))
            .unwrap()
            .to_vec()
    );
    assert_eq!(s.tril(-1).to_vec(), d.tril(-1).unwrap().to_vec());
    assert_eq!(
        s.repeat::<shape![2, 1, 2]>().to_vec(),
        d.repeat(&[2, 1, 2]).unwrap().to_vec()
    );
    assert_eq!(
        s.tile::<shape![3]>().to_vec(),
        d.tile(&[3]).unwrap().to_vec()
    );
    assert_eq!(
        s.repeat_interleave::<2, 1>().to_vec(),
        d.repeat_interleave(2, Some(1)).unwrap().to_vec()
    );
}
