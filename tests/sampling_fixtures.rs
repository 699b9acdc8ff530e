//! The samplers checked against PyTorch 2.15.0 (`tests/fixtures/sampling.json`,
//! written by `scripts/fixtures/sampling.py`): `random_` in every form,
//! `randint_like`, `bernoulli_` (a number and a tensor), `bernoulli`,
//! `normal` with tensor arguments, `poisson`, `log_normal_` and `multinomial`, through
//! `AnyTensor` on every dtype. The values come from another stream, so a
//! case compares the dtype, sizes and strides, the values where they are
//! certain (probabilities 0 and 1, standard deviations 0, one possible
//! category), every refusal's text, and for the small ranges of `random_`
//! and `randint_like` the smallest and largest of 20,000 draws (PyTorch's
//! rounding of the bounds on the floating dtypes).

use super::common::number;
use super::common::tensors::{
    Outcome, any_of, any_outcome, assert_no_failures, check_case, expected, same, wanted,
};
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;
use shaped::random::Generator;

fn cases(op: &str) -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/sampling.json")).unwrap();
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["op"] == op)
        .cloned()
        .collect()
}

fn dtype(name: &Value) -> DType {
    expected(&serde_json::json!({"dtype": name, "sizes": [], "strides": [], "values": []})).dtype
}

fn sizes(case: &Value) -> Vec<usize> {
    super::common::tensors::ints(&case["sizes"])
}

fn as_f64(v: &Scalar) -> f64 {
    match v {
        Scalar::Int(i) => *i as f64,
        Scalar::Float(x) => *x,
        Scalar::Bool(b) => f64::from(u8::from(*b)),
        Scalar::Complex(..) => f64::NAN,
    }
}

/// Every case of `op`: `run(case, generator)` against PyTorch's result (its
/// values only where the case says they are certain) or its error text.
fn check(
    op: &str,
    at_least: usize,
    run: impl Fn(&Value, &mut Generator) -> Result<AnyTensor, Error>,
) {
    check_cases(cases(op), at_least, run)
}

/// [`check`] of the given cases.
fn check_cases(
    cases: Vec<Value>,
    at_least: usize,
    run: impl Fn(&Value, &mut Generator) -> Result<AnyTensor, Error>,
) {
    assert!(cases.len() >= at_least, "{} cases", cases.len());
    let mut generator = Generator::new(2026);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = run(c, &mut generator)
                .map(|t| vec![any_outcome(&t)])
                .map_err(|e| e.to_string());
            let exact = c["exact"].as_bool().unwrap();
            let close = |g: &Outcome, w: &Outcome| match exact {
                true => same(g, w),
                false => (&g.sizes, &g.strides, g.dtype) == (&w.sizes, &w.strides, w.dtype),
            };
            let probed = probe(c, &run, &mut generator);
            check_case(c, &got, &wanted(c), close).and(probed).err()
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}

/// PyTorch's smallest and largest of 20,000 draws against ours.
fn probe(
    case: &Value,
    run: &impl Fn(&Value, &mut Generator) -> Result<AnyTensor, Error>,
    generator: &mut Generator,
) -> Result<(), String> {
    let Some(want) = case.get("probe") else {
        return Ok(());
    };
    let mut big = case.clone();
    big["sizes"] = serde_json::json!([20000]);
    let values = any_outcome(&run(&big, generator).map_err(|e| e.to_string())?).values;
    let values: Vec<f64> = values.iter().map(as_f64).collect();
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let want = (number(&want[0]), number(&want[1]));
    match (min, max) == want {
        true => Ok(()),
        false => Err(format!(
            "{}: range {min}..={max}, PyTorch {want:?}",
            case["id"]
        )),
    }
}

fn bound(v: &Value) -> Option<i64> {
    v.as_i64()
}

#[test]
fn random_matches_pytorch_in_shape_range_and_refusals() {
    check("random_", 180, |c, g| {
        let mut x = AnyTensor::zeros(&sizes(c), dtype(&c["dtype"]))?;
        match c["form"].as_str().unwrap() {
            "none" => x.random_(g)?,
            "to" => x.random_to_(bound(&c["to"]).unwrap(), g)?,
            _ => x.random_from_(bound(&c["from"]).unwrap(), bound(&c["to"]), g)?,
        }
        Ok(x)
    });
}

#[test]
fn randint_like_matches_pytorch() {
    check("randint_like", 40, |c, g| {
        let x = AnyTensor::zeros(&sizes(c), dtype(&c["dtype"]))?;
        x.randint_like(bound(&c["from"]).unwrap(), bound(&c["to"]).unwrap(), g)
    });
}

#[test]
fn bernoulli_matches_pytorch() {
    check("bernoulli_scalar", 60, |c, g| {
        let mut x = AnyTensor::zeros(&sizes(c), dtype(&c["dtype"]))?;
        x.bernoulli_(number(&c["p"]), g)?;
        Ok(x)
    });
    check("bernoulli", 25, |c, g| any_of(&c["p"]).bernoulli(g));
    check("bernoulli_tensor_", 30, |c, g| {
        let mut x = AnyTensor::zeros(&sizes(c), dtype(&c["dtype"]))?;
        x.bernoulli_tensor_(&any_of(&c["p"]), g)?;
        Ok(x)
    });
}

#[test]
fn normal_with_tensor_arguments_matches_pytorch() {
    check("normal", 60, |c, g| match c["form"].as_str().unwrap() {
        "tensor_tensor" => {
            AnyTensor::normal_tensor_tensor(&any_of(&c["mean"]), &any_of(&c["std"]), g)
        }
        "tensor_float" => AnyTensor::normal_tensor_float(&any_of(&c["mean"]), number(&c["std"]), g),
        _ => AnyTensor::normal_float_tensor(number(&c["mean"]), &any_of(&c["std"]), g),
    });
}

/// The in-place fills and `*_like` constructors through `AnyTensor`: the
/// dtypes each takes (complex `uniform_`, `normal_`, `rand_like`,
/// `randn_like` by their parts) and PyTorch's text for the others.
#[test]
fn fills_match_pytorch_on_every_dtype() {
    check("fill", 130, |c, g| {
        let mut x = AnyTensor::zeros(&sizes(c), dtype(&c["dtype"]))?;
        let a: Vec<f64> = c["args"].as_array().unwrap().iter().map(number).collect();
        match c["fn"].as_str().unwrap() {
            "uniform_" => x.uniform_(a[0], a[1], g)?,
            "normal_" => x.normal_(a[0], a[1], g)?,
            "exponential_" => x.exponential_(a[0], g)?,
            "cauchy_" => x.cauchy_(a[0], a[1], g)?,
            "geometric_" => x.geometric_(a[0], g)?,
            "rand_like" => return x.rand_like(g),
            _ => return x.randn_like(g),
        }
        Ok(x)
    });
}

#[test]
fn poisson_matches_pytorch() {
    check("poisson", 20, |c, g| any_of(&c["rates"]).poisson(g));
}

#[test]
fn log_normal_matches_pytorch() {
    check("log_normal_", 14, |c, g| {
        let mut x = AnyTensor::zeros(&sizes(c), dtype(&c["dtype"]))?;
        x.log_normal_(number(&c["mean"]), number(&c["std"]), g)?;
        Ok(x)
    });
}

#[test]
fn multinomial_matches_pytorch() {
    check("multinomial", 95, |c, g| {
        let n = c["n"].as_i64().unwrap();
        let picks = any_of(&c["p"]).multinomial(n, c["replacement"].as_bool().unwrap(), g)?;
        Ok(AnyTensor::from(picks))
    });
}
