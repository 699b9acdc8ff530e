//! The complex views against PyTorch 2.15.0: `real`, `imag`,
//! `view_as_real` (sizes, strides, storage offset, values, shared storage),
//! `conj` and `mH` (values, or PyTorch's error text), on complex64 and
//! complex128 inputs built as in `scripts/fixtures/complex_views.py`:
//! `complex(arange(n), -0.5 * arange(n)).as_strided(sizes, strides, offset)`
//! (contiguous, transposed, offset with steps, rank 0, empty, expanded).

use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::{ComplexElement, Scalar};
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/complex_views.json"
    ))
    .expect("tests/fixtures/complex_views.json");
    let v: Value = serde_json::from_str(&text).expect("valid JSON");
    v["cases"].as_array().unwrap().clone()
}

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn scalar_matches(g: Scalar, w: &Value) -> bool {
    match (g, w) {
        (Scalar::Float(g), w) => g == w.as_f64().unwrap(),
        (Scalar::Complex(re, im), Value::Array(p)) => {
            re == p[0].as_f64().unwrap() && im == p[1].as_f64().unwrap()
        }
        _ => false,
    }
}

/// What `shaped` gives for one case, as PyTorch's fields.
fn run<C: ComplexElement + shaped::dtype::Conjugate>(c: &Value, make: fn(f64) -> C) -> Value {
    let n = c["base_numel"].as_u64().unwrap() as usize;
    let base = DynTensor::<C>::from_vec((0..n).map(|i| make(i as f64)).collect(), &[n]).unwrap();
    let x = base
        .as_strided(
            &usizes(&c["sizes"]),
            &usizes(&c["strides"]),
            c["offset"].as_u64().unwrap() as usize,
        )
        .unwrap();
    let layout = |shape: &[usize],
                  strides: &[usize],
                  offset: usize,
                  shares: bool,
                  values: Vec<Scalar>| {
        serde_json::json!({
            "sizes_out": shape, "strides_out": strides, "offset_out": offset,
            "shares_storage": shares, "values": values.iter().map(scalar_json).collect::<Vec<_>>(),
        })
    };
    let owned = |shape: &[usize], values: Vec<Scalar>| serde_json::json!({"sizes_out": shape, "values": values.iter().map(scalar_json).collect::<Vec<_>>()});
    let scalars = |v: Vec<C::Real>| v.into_iter().map(Element::to_scalar).collect::<Vec<_>>();
    let part = match c["op"].as_str().unwrap() {
        "real" => Some(x.real()),
        "imag" => Some(x.imag()),
        "view_as_real" => Some(x.view_as_real()),
        _ => None,
    };
    if let Some(r) = part {
        return layout(
            &r.shape(),
            &r.strides(),
            r.storage_offset(),
            r.shares_storage_with(&base),
            scalars(r.to_vec()),
        );
    }
    match c["op"].as_str().unwrap() {
        "conj" => {
            let r = x.conj();
            owned(
                &r.shape(),
                r.to_vec().into_iter().map(Element::to_scalar).collect(),
            )
        }
        _ => match x.try_mh() {
            Ok(r) => owned(
                &r.shape(),
                r.to_vec().into_iter().map(Element::to_scalar).collect(),
            ),
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        },
    }
}

fn scalar_json(s: &Scalar) -> Value {
    match *s {
        Scalar::Float(f) => serde_json::json!(f),
        Scalar::Complex(re, im) => serde_json::json!([re, im]),
        _ => unreachable!("complex views give floats and complex values"),
    }
}

#[test]
fn complex_views_match_pytorch() {
    let all = cases();
    assert_eq!(all.len(), 80);
    for c in &all {
        let got = match c["dtype"].as_str().unwrap() {
            "complex64" => run::<Complex<f32>>(c, |i| Complex::new(i as f32, -0.5 * i as f32)),
            _ => run::<Complex<f64>>(c, |i| Complex::new(i, -0.5 * i)),
        };
        if let Some(e) = c.get("error") {
            assert_eq!(got["error"], *e, "{c}");
            continue;
        }
        for key in ["sizes_out", "strides_out", "offset_out", "shares_storage"] {
            if let Some(want) = c.get(key) {
                assert_eq!(got[key], *want, "{key} of {c}");
            }
        }
        let (g, w) = (
            got["values"].as_array().unwrap(),
            c["values"].as_array().unwrap(),
        );
        assert_eq!(g.len(), w.len(), "{c}");
        for (g, w) in g.iter().zip(w) {
            let g = match g {
                Value::Array(p) => Scalar::Complex(p[0].as_f64().unwrap(), p[1].as_f64().unwrap()),
                v => Scalar::Float(v.as_f64().unwrap()),
            };
            assert!(scalar_matches(g, w), "{c}: got {got}");
        }
    }
}

/// Writes through `real_mut`/`imag_mut` land in the complex tensor; a
/// static `view_as_real` computes its shape at compile time.
#[test]
fn writable_parts_and_static_shapes() {
    let mut z = Tensor::<Complex<f64>, shape![2, 2]>::zeros();
    z.real_mut().fill(1.0);
    z.imag_mut().slice_mut(s![.., 1]).fill(-2.0);
    assert_eq!(
        z.to_vec(),
        vec![
            Complex::new(1.0, 0.0),
            Complex::new(1.0, -2.0),
            Complex::new(1.0, 0.0),
            Complex::new(1.0, -2.0)
        ]
    );
    let parts: TensorView<'_, f64, shape![2, 2, 2]> = z.view_as_real();
    assert_eq!(parts.strides(), [4, 2, 1]);
    let h: Tensor<Complex<f64>, shape![2, 2]> = z.mh();
    assert_eq!(h[[1, 0]], Complex::new(1.0, 2.0));
    assert_eq!(z.adjoint().to_vec(), h.to_vec());
}
