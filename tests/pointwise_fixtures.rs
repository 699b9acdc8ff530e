//! The pointwise catalogue's functions of one tensor checked against
//! PyTorch 2.15.0 (`tests/fixtures/pointwise.json`, written by
//! `scripts/fixtures/pointwise.py`): `erf erfc erfinv lgamma digamma sinc
//! deg2rad rad2deg trunc frac sign sgn signbit square nan_to_num` on every
//! dtype: edge values (±0, ±inf, NaN, subnormals, poles, ±1 for `erfinv`,
//! huge magnitudes), random ones, integers at their extremes, complex values
//! with edge parts, empty and rank-0 tensors, and the refusals' texts.
//!
//! Result dtypes, shapes, NaN, infinities and zeros (with their signs) are
//! exact everywhere. Finite values are exact but where PyTorch's kernels
//! and `shaped`'s compute by different (equally valid) means, each named in
//! [`allowed_ulps`]. Each case runs through `AnyTensor`; the typed methods
//! are checked against it below.

use crate::common;

use common::tensors::{Outcome, any_of, any_outcome, check_elementwise_cases};
use common::{number, ulps};
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::prelude::*;

fn cases() -> Vec<Value> {
    let json: Value = serde_json::from_str(include_str!("fixtures/pointwise.json")).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// The case on `AnyTensor`.
fn run(case: &Value) -> Result<AnyTensor, String> {
    let a = any_of(&case["a"]);
    let args = &case["args"];
    let optional = |name: &str| (!args[name].is_null()).then(|| number(&args[name]));
    match case["op"].as_str().unwrap() {
        "erf" => a.erf(),
        "erfc" => a.erfc(),
        "erfinv" => a.erfinv(),
        "lgamma" => a.lgamma(),
        "digamma" => a.digamma(),
        "sinc" => a.sinc(),
        "deg2rad" => a.deg2rad(),
        "rad2deg" => a.rad2deg(),
        "trunc" => a.trunc(),
        "frac" => a.frac(),
        "sign" => a.sign(),
        "sgn" => a.sgn(),
        "signbit" => a.signbit(),
        "square" => a.square(),
        "float_power" => match case.get("b") {
            Some(b) => a.try_float_power(&any_of(b)),
            None => a.try_float_power(Scalar::Float(number(&args["exponent"]))),
        },
        "nan_to_num" => a.nan_to_num(number(&args["nan"]), optional("posinf"), optional("neginf")),
        op => panic!("unknown op {op}"),
    }
    .map_err(|e| e.to_string())
}

/// The units in the last place allowed between PyTorch's value and
/// `shaped`'s, by operation and result dtype (0 elsewhere):
/// - float16 and bfloat16 results: 1, where both compute in float32 and
///   round once, but PyTorch's float32 step is its vectorized one;
/// - `erf`, `erfc` (float32, float64): PyTorch's vectorized kernels are
///   SLEEF's (`erfc`, float64 `erf`: within 1.5 ulps) and, for float32
///   `erf`, Abramowitz and Stegun's 7.1.26 (absolute error 1.5e-7, see
///   [`ERF_ABSOLUTE`]); `shaped` calls the C library's (within 1 ulp);
/// - `erfinv`, `lgamma`: PyTorch's CPU build calls MKL's (within an ulp);
///   `shaped` the C library's `lgamma` and a Newton-refined `erfinv`;
/// - `digamma`: the same algorithm, whose compiled steps may fuse a
///   multiply and an add in PyTorch's build: a few ulps, and an absolute
///   allowance near its root.
///
/// Complex `sinc`, `sgn` and `square` have their own rule
/// ([`COMPLEX_EPSILONS`]).
fn allowed_ulps(op: &str, dtype: DType) -> u64 {
    match (op, dtype) {
        (_, DType::F16 | DType::BF16) => 1,
        ("erf" | "erfc" | "erfinv" | "digamma" | "lgamma", _) => 4,
        _ => 0,
    }
}

/// Complex `sinc`, `sgn` and `square`: PyTorch's kernels are built with
/// fused multiply-adds (`b - a r` in the division, `re^2 - im^2` in the
/// square) and its `sgn` takes `|z|` from SLEEF's `hypot`; `shaped` rounds
/// each step and calls the C library's `hypot`. A part whose terms cancel
/// then differs by more ulps than it has digits left, so each part is
/// allowed this many epsilons of the result's magnitude.
const COMPLEX_EPSILONS: f64 = 4.0;

/// PyTorch's float32 `erf` (Abramowitz and Stegun 7.1.26 on a vector):
/// within 1.5e-7 of the true value, plus rounding.
const ERF_ABSOLUTE: f64 = 2.5e-7;

/// Within the tolerance: NaN, infinities and zeros exactly (zeros with
/// their signs), finite values within [`allowed_ulps`].
fn close(op: &str, got: &Outcome, want: &Outcome) -> bool {
    let limit = allowed_ulps(op, want.dtype);
    let part_dtype = match want.dtype {
        DType::C64 => DType::F32,
        DType::C128 => DType::F64,
        d => d,
    };
    let real = |g: f64, w: f64| {
        if g.is_nan() || w.is_nan() {
            return g.is_nan() && w.is_nan();
        }
        if w.is_infinite() || w == 0.0 || g.is_infinite() || g == 0.0 {
            let absolute = op == "erf" && part_dtype != DType::F64 && (g - w).abs() <= ERF_ABSOLUTE;
            return g.to_bits() == w.to_bits() || absolute;
        }
        ulps(part_dtype, g, w) <= limit
            || (op == "erf" && part_dtype != DType::F64 && (g - w).abs() <= ERF_ABSOLUTE)
            || (op == "digamma" && (g - w).abs() <= digamma_absolute(part_dtype))
    };
    let epsilon = if part_dtype == DType::F32 {
        f64::from(f32::EPSILON)
    } else {
        f64::EPSILON
    };
    let part = |g: f64, w: f64, magnitude: f64| {
        let near = matches!(op, "sinc" | "sgn" | "square")
            && w.is_finite()
            && w != 0.0
            && g.is_finite()
            && g != 0.0;
        real(g, w) || (near && (g - w).abs() <= COMPLEX_EPSILONS * epsilon * magnitude)
    };
    got.dtype == want.dtype
        && got.sizes == want.sizes
        && got.values.len() == want.values.len()
        && got
            .values
            .iter()
            .zip(&want.values)
            .all(|(g, w)| match (g, w) {
                (Scalar::Float(g), Scalar::Float(w)) => real(*g, *w),
                (Scalar::Complex(a, b), Scalar::Complex(c, d)) => {
                    let magnitude = c.hypot(*d);
                    part(*a, *c, magnitude) && part(*b, *d, magnitude)
                }
                (g, w) => g == w,
            })
}

/// The fixtures write every NaN as `"nan"`, without its sign, so `signbit`
/// of a NaN input (PyTorch's answer depends on the sign bit its conversions
/// left) is not compared: [`signbit_reads_the_sign_of_nan`] checks it.
fn without_nan_inputs(case: &Value, got: &mut Outcome, want: &mut Outcome) {
    let inputs = any_outcome(&any_of(&case["a"])).values;
    for (i, x) in inputs.iter().enumerate() {
        if matches!(x, Scalar::Float(v) if v.is_nan()) {
            got.values[i] = Scalar::Bool(false);
            want.values[i] = Scalar::Bool(false);
        }
    }
}

#[test]
fn signbit_reads_the_sign_of_nan() {
    let x = tensor![f64::NAN, -f64::NAN, -0.0, 0.0];
    assert_eq!(x.signbit().to_vec(), vec![false, true, true, false]);
    let h = tensor![half::f16::NAN, -half::f16::NAN];
    assert_eq!(h.signbit().to_vec(), vec![false, true]);
}

/// digamma crosses zero near 1.4616: there the last bits of its terms
/// become an absolute difference.
fn digamma_absolute(dtype: DType) -> f64 {
    if dtype == DType::F64 { 4e-16 } else { 4e-7 }
}

#[test]
fn pointwise_functions_match_pytorch() {
    let cases = cases();
    assert!(cases.len() > 220, "the fixture file lost its cases");
    check_elementwise_cases(&cases, run, |case, got, want, element| {
        let op = case["op"].as_str().unwrap();
        if element.is_none() && op == "signbit" && got.values.len() == want.values.len() {
            let (mut got, mut want) = (got.clone(), want.clone());
            without_nan_inputs(case, &mut got, &mut want);
            return close(op, &got, &want);
        }
        close(op, got, want)
    });
}

/// The typed methods give what `AnyTensor` gives, on a static shape, with
/// the result types the compiler computes.
#[test]
fn typed_forms_agree_with_the_runtime_forms() {
    let x = tensor![[-3.5f32, -0.25, 0.0], [0.75, 2.5, f32::NAN]];
    let a = AnyTensor::from(DynTensor::<f32>::from_vec(x.to_vec(), &[2, 3]).unwrap());
    type Static = Tensor<f32, shape![2, 3]>;
    let same: [(Static, AnyTensor); 13] = [
        (x.erf(), a.erf().unwrap()),
        (x.erfc(), a.erfc().unwrap()),
        (x.erfinv(), a.erfinv().unwrap()),
        (x.lgamma(), a.lgamma().unwrap()),
        (x.digamma(), a.digamma().unwrap()),
        (x.sinc(), a.sinc().unwrap()),
        (x.deg2rad(), a.deg2rad().unwrap()),
        (x.rad2deg(), a.rad2deg().unwrap()),
        (x.trunc(), a.trunc().unwrap()),
        (x.frac(), a.frac().unwrap()),
        (x.sign(), a.sign().unwrap()),
        (x.sgn(), a.sgn().unwrap()),
        (
            x.nan_to_num(1.0, None, None),
            a.nan_to_num(1.0, None, None).unwrap(),
        ),
    ];
    for (typed, any) in same {
        let (t, r) = (typed.to_vec(), any.downcast::<f32>().unwrap().to_vec());
        assert!(
            t.iter().zip(&r).all(|(p, q)| p.to_bits() == q.to_bits()),
            "{t:?} vs {r:?}"
        );
    }
    let bits: Tensor<bool, shape![2, 3]> = x.signbit();
    assert_eq!(
        bits.to_vec(),
        a.signbit().unwrap().downcast::<bool>().unwrap().to_vec()
    );
    // Integers give float32 for the special functions; bool squares to int64.
    let n = tensor![[0i64, 1], [2, -3]];
    let l: Tensor<f32, shape![2, 2]> = n.lgamma();
    assert_eq!(l.to_vec(), vec![f32::INFINITY, 0.0, 0.0, f32::INFINITY]);
    let d: Tensor<f32, shape![2, 2]> = n.rad2deg();
    assert_eq!(d.to_vec()[1], 57.29578);
    let m: Tensor<i64, shape![2]> = tensor![true, false].square();
    assert_eq!(m.to_vec(), vec![1, 0]);
    assert_eq!(n.sign().to_vec(), vec![0, 1, 1, -1]);
    // Complex tensors have sgn, sinc, square and nan_to_num.
    let z = tensor![num_complex::Complex::new(f64::INFINITY, f64::NAN)];
    assert_eq!(
        z.nan_to_num(0.5, Some(2.0), None).to_vec(),
        vec![num_complex::Complex::new(2.0, 0.5)]
    );
}

/// The special functions on a transposed and a stepped view give what they
/// give on the same values made contiguous (the strided engine), and
/// `frac` keeps the sign of its input, as PyTorch's.
#[test]
fn views_and_signs() {
    let x = DynTensor::<f64>::from_vec(
        (0..24).map(|i| f64::from(i) * 0.37 - 4.1).collect(),
        &[4, 6],
    )
    .unwrap();
    let t = x.t().unwrap();
    let contiguous = t.contiguous();
    let bits = |v: Vec<f64>| v.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    assert_eq!(
        bits(t.digamma().to_vec()),
        bits(contiguous.digamma().to_vec())
    );
    // erfinv on a transposed view of values inside (-1, 1).
    let scaled = &x / 5.0;
    let narrow = scaled.t().unwrap();
    assert!(!narrow.is_contiguous());
    assert_eq!(
        bits(narrow.erfinv().to_vec()),
        bits(narrow.contiguous().erfinv().to_vec())
    );
    assert!(narrow.erfinv().to_vec().iter().all(|v| v.is_finite()));
    let stepped = x.slice(s![.., ..;2]).unwrap();
    assert_eq!(
        bits(stepped.lgamma().to_vec()),
        bits(stepped.contiguous().lgamma().to_vec())
    );
    let f = tensor![-2.75f32, -0.0, 3.5].frac();
    assert_eq!(f.to_vec(), vec![-0.75, 0.0, 0.5]);
    assert!(f.to_vec()[1].is_sign_positive());
}

/// `float_power` on static shapes: the result type float64 (complex128 for
/// complex operands) and the broadcast shape come from the compiler, the
/// values from `pow` in float64.
#[test]
fn float_power_computes_in_float64() {
    let a = tensor![[1i32, 2, 3]];
    let b = tensor![[0.5f32], [-1.0]];
    let p: Tensor<f64, shape![2, 3]> = a.float_power(&b);
    assert_eq!(
        p.to_vec(),
        vec![1.0, 2f64.sqrt(), 3f64.sqrt(), 1.0, 0.5, 1.0 / 3.0]
    );
    let z = tensor![num_complex::Complex::new(0.0f32, 1.0)];
    let q: Tensor<num_complex::Complex<f64>, shape![1]> = z.float_powf(2.0);
    assert_eq!(q.to_vec(), vec![num_complex::Complex::new(-1.0, 0.0)]);
    let h: Tensor<f64, shape![2]> =
        tensor![half::f16::from_f32(0.1), half::f16::ONE].float_powf(1.0);
    assert_eq!(h.to_vec()[0], f64::from(half::f16::from_f32(0.1).to_f32()));
    let d = DynTensor::<f32>::ones(&[2, 3]);
    let err = d
        .try_float_power(&DynTensor::<f32>::ones(&[4]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
    );
}

/// Each in-place form (`exp_`, `erf_`, `sign_`, `nan_to_num_`, ...) leaves
/// what its out-of-place form returns, bit for bit: on owned tensors of
/// every floating dtype and complex ones (the vectorized runs, in chunks),
/// and on a stepped writable view, whose other elements stay as they were.
#[test]
fn in_place_forms_store_what_the_functions_return() {
    macro_rules! check {
        ($x:expr, $($name:ident, $in_place:ident);*) => {$({
            let x = $x;
            let want = x.$name();
            let mut y = x.clone();
            y.$in_place();
            let same = y
                .to_vec()
                .iter()
                .zip(want.to_vec())
                .all(|(a, b)| format!("{a:?}") == format!("{b:?}"));
            assert!(same, "{} of {:?}", stringify!($in_place), x.to_vec());
        })*};
    }
    let values: Vec<f64> = (0..600).map(|i| f64::from(i) * 0.0173 - 5.0).collect();
    let f32s =
        DynTensor::<f32>::from_vec(values.iter().map(|&v| v as f32).collect(), &[600]).unwrap();
    let f64s = DynTensor::<f64>::from_vec(values.clone(), &[20, 30]).unwrap();
    let f16s = DynTensor::<half::f16>::from_vec(
        values.iter().map(|&v| half::f16::from_f64(v)).collect(),
        &[600],
    )
    .unwrap();
    macro_rules! every {
        ($x:expr) => {
            check!($x, exp, exp_; ln, ln_; log2, log2_; sqrt, sqrt_; sin, sin_; cos, cos_;
                tanh, tanh_; sigmoid, sigmoid_; recip, recip_; tan, tan_; asin, asin_;
                acos, acos_; atan, atan_; sinh, sinh_; cosh, cosh_; asinh, asinh_;
                acosh, acosh_; atanh, atanh_; exp2, exp2_; expm1, expm1_; log10, log10_;
                log1p, log1p_; rsqrt, rsqrt_; floor, floor_; ceil, ceil_; round, round_;
                relu, relu_; erf, erf_; erfc, erfc_; erfinv, erfinv_; lgamma, lgamma_;
                digamma, digamma_; deg2rad, deg2rad_; rad2deg, rad2deg_; sinc, sinc_;
                trunc, trunc_; frac, frac_; sign, sign_; sgn, sgn_; square, square_)
        };
    }
    every!(f32s.clone());
    every!(f64s.clone());
    every!(f16s.clone());
    let z = DynTensor::<num_complex::Complex<f64>>::from_vec(
        values
            .iter()
            .map(|&v| num_complex::Complex::new(v, 1.0 - v))
            .collect(),
        &[600],
    )
    .unwrap();
    check!(z.clone(), exp, exp_; ln, ln_; sqrt, sqrt_; tanh, tanh_; sgn, sgn_; square, square_);
    // Integers keep the functions whose results they hold.
    let n = tensor![-3i32, 0, 7];
    check!(n.clone(), sign, sign_; square, square_; floor, floor_; relu, relu_);
    // A stepped writable view: the elements in it change, the others not.
    let mut m = f64s.clone();
    m.slice_mut(s![.., ..;2]).unwrap().exp_();
    let (before, after) = (f64s.to_vec(), m.to_vec());
    for (k, (b, a)) in before.iter().zip(&after).enumerate() {
        let want = if k % 2 == 0 { b.exp() } else { *b };
        assert_eq!(a.to_bits(), want.to_bits(), "element {k}");
    }
    let mut q = tensor![f32::NAN, f32::INFINITY, -1.5];
    q.nan_to_num_(0.5, None, None);
    assert_eq!(q.to_vec(), vec![0.5, f32::MAX, -1.5]);
}

/// `AnyTensor`'s in-place forms: the values of the typed ones, and
/// PyTorch's texts (recorded from PyTorch 2.15.0) where the result does not
/// fit the dtype or the function refuses it.
#[test]
fn any_tensor_in_place_forms_and_their_texts() {
    let x = DynTensor::<f32>::from_vec(vec![-2.5, 0.0, 0.75, f32::NAN], &[4]).unwrap();
    let mut a = AnyTensor::from(x.clone());
    a.tanh_().unwrap();
    let mut typed = x.clone();
    typed.tanh_();
    assert_eq!(
        format!("{:?}", a.downcast::<f32>().unwrap().to_vec()),
        format!("{:?}", typed.to_vec())
    );
    let text = |r: Result<(), shaped::Error>| r.unwrap_err().to_string();
    let ints = || AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2], &[2]).unwrap());
    assert_eq!(
        text(ints().exp_()),
        "result type Float can't be cast to the desired output type Long"
    );
    let bools = || AnyTensor::from(DynTensor::<bool>::from_vec(vec![true], &[1]).unwrap());
    assert_eq!(
        text(bools().square_()),
        "result type Long can't be cast to the desired output type Bool"
    );
    assert_eq!(
        text(bools().sigmoid_()),
        "result type Float can't be cast to the desired output type Bool"
    );
    let complex = || {
        AnyTensor::from(
            DynTensor::<num_complex::Complex<f32>>::from_vec(
                vec![num_complex::Complex::new(1.0, 1.0)],
                &[1],
            )
            .unwrap(),
        )
    };
    assert_eq!(
        text(complex().erf_()),
        "\"erf_vml_cpu\" not implemented for 'ComplexFloat'"
    );
    assert_eq!(
        text(complex().floor_()),
        "floor is not supported for complex inputs"
    );
    let mut n = AnyTensor::from(DynTensor::<i32>::from_vec(vec![-3, 4], &[2]).unwrap());
    n.sign_().unwrap();
    assert_eq!(n.downcast::<i32>().unwrap().to_vec(), vec![-1, 1]);
    let mut m = ints();
    m.nan_to_num_(0.0, None, None).unwrap();
    assert_eq!(m.downcast::<i64>().unwrap().to_vec(), vec![1, 2]);
}
