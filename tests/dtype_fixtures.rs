//! dtypes, type promotion and casts checked against PyTorch 2.15.0.
//!
//! `tests/fixtures/dtypes.json` (`scripts/fixtures/dtypes.py`) holds
//! `torch.promote_types` for all 144 pairs; `add sub mul div eq lt` of every
//! pair of dtypes in six forms (tensor with tensor, with a rank-0 tensor and
//! the mirror, two rank-0 tensors, tensor with a Python bool/int/float/
//! complex number and the mirror), with result dtypes and values; the
//! in-place table (`add_ mul_ div_` for 144 pairs and with numbers); casts
//! of interesting values between all pairs; float16/bfloat16 arithmetic bit
//! patterns; and the promotion examples of PyTorch's documentation.
//!
//! The static operators are checked by running them: a macro instantiates
//! every pair of element types (`&a + &b` with `Tensor<A, shape![2]>` and
//! `Tensor<B, shape![]>`, ...), so the result *type* the compiler chose is
//! compared with PyTorch's dtype, and the values too. Cases PyTorch rejects
//! are compile errors here (`ui-tests/fail/dtype_*.rs`); this file checks
//! that the rule behind each of them predicts exactly PyTorch's errors.

use num_complex::Complex;
use serde_json::Value;
use shaped::dtype::Scalar;
use shaped::dtype::cast::cast;
use shaped::dtype::promote::OperandKind;
use shaped::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;

use half::{bf16, f16};
type C64 = Complex<f32>;
type C128 = Complex<f64>;

fn fixtures() -> &'static Value {
    static F: OnceLock<Value> = OnceLock::new();
    F.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/dtypes.json"
        ))
        .expect("tests/fixtures/dtypes.json");
        serde_json::from_str(&text).expect("valid JSON")
    })
}

fn section(name: &str) -> &'static [Value] {
    fixtures()[name].as_array().expect("a list of cases")
}

fn dtype(name: &str) -> DType {
    *DType::ALL
        .iter()
        .find(|d| d.name() == name)
        .unwrap_or_else(|| panic!("unknown dtype {name}"))
}

/// Where `shaped` deliberately differs from PyTorch: float16 and bfloat16
/// with a complex rank-0 tensor or number give complex32/bcomplex32 in
/// PyTorch (which most of its kernels then reject); neither is among the
/// twelve dtypes, so `shaped` gives complex64.
fn is_complex32_divergence(case: &Value) -> bool {
    let r = &case["result_type"];
    r == "complex32" || r == "bcomplex32"
}

// ------------------------------------------------------------------ tables

#[test]
fn promote_types_matches_pytorch_for_all_144_pairs() {
    let cases = section("promote_types");
    assert_eq!(cases.len(), 144);
    for c in cases {
        let (a, b) = (
            dtype(c["a"].as_str().unwrap()),
            dtype(c["b"].as_str().unwrap()),
        );
        assert_eq!(
            DType::promote(a, b).name(),
            c["result"].as_str().unwrap(),
            "promote_types({a}, {b})"
        );
    }
}

/// The runtime rule (`DType::result_type`) against every binary case, and
/// the compile-time rules for the cases PyTorch rejects: `-` with a bool
/// operand, `lt` of complex values. (The complex32 rejections of float16
/// and bfloat16 are the documented divergence.)
#[test]
fn result_types_and_rejections_match_pytorch() {
    let mut checked = 0;
    for c in section("binary") {
        let kind_of = |o: &Value| -> (DType, OperandKind) {
            match o["kind"].as_str().unwrap() {
                "tensor" => (
                    dtype(o["dtype"].as_str().unwrap()),
                    OperandKind::Dimensioned,
                ),
                "zero_dim" => (dtype(o["dtype"].as_str().unwrap()), OperandKind::ZeroDim),
                _ => (scalar_dtype(o), OperandKind::Scalar),
            }
        };
        let (a, b) = (kind_of(&c["lhs"]), kind_of(&c["rhs"]));
        let common = DType::result_type(a, b);
        let op = c["op"].as_str().unwrap();
        if is_complex32_divergence(c) {
            assert_eq!(common, DType::C64, "{c}");
            continue;
        }
        assert_eq!(common.name(), c["result_type"].as_str().unwrap(), "{c}");
        let bool_operand = a.0 == DType::Bool || b.0 == DType::Bool;
        let rejected = match op {
            "sub" => bool_operand,
            "lt" => common.is_complex(),
            _ => false,
        };
        assert_eq!(rejected, c.get("error").is_some(), "{c}");
        if let Some(result) = c.get("result") {
            let expected = match op {
                "eq" | "lt" => DType::Bool,
                "div" if common.category() < 2 => DType::F32,
                _ => common,
            };
            assert_eq!(expected.name(), result["dtype"].as_str().unwrap(), "{c}");
        }
        checked += 1;
    }
    assert!(checked > 3500, "{checked}");
}

/// The in-place table: PyTorch's `canCast` of the result type into the
/// output, with PyTorch's error text.
#[test]
fn in_place_casting_rule_matches_pytorch() {
    for c in section("in_place") {
        let dst = dtype(c["dst"]["dtype"].as_str().unwrap());
        let src = &c["src"];
        let src_kind = match src["kind"].as_str().unwrap() {
            "tensor" => (
                dtype(src["dtype"].as_str().unwrap()),
                OperandKind::Dimensioned,
            ),
            _ => (scalar_dtype(src), OperandKind::Scalar),
        };
        let common = DType::result_type((dst, OperandKind::Dimensioned), src_kind);
        let result = if c["op"] == "div_" && common.category() < 2 {
            DType::F32
        } else {
            common
        };
        match c.get("error") {
            Some(e) => {
                assert!(!result.can_cast_to(dst), "{c}");
                let err = shaped::Error::CastForbidden {
                    from: result,
                    to: dst,
                };
                // PyTorch's complex32 result (see `is_complex32_divergence`)
                // is complex64 here.
                let pytorch = e["message"]
                    .as_str()
                    .unwrap()
                    .replace("type ComplexHalf ", "type ComplexFloat ")
                    .replace("type BComplex32 ", "type ComplexFloat ");
                assert_eq!(err.to_string(), pytorch, "{c}");
            }
            None => assert!(result.can_cast_to(dst), "{c}"),
        }
    }
}

// --------------------------------------------------------------- values

/// A fixture value as a `T` (numbers are exact in `f64` or `i64`).
fn elem<T: Element>(v: &Value) -> T {
    match v {
        Value::Bool(b) => cast(*b),
        Value::Number(n) if n.is_i64() => cast(n.as_i64().unwrap()),
        Value::Number(n) if n.is_u64() => cast(n.as_u64().unwrap() as i64),
        Value::Number(n) => cast(n.as_f64().unwrap()),
        Value::String(s) => cast(special(s)),
        Value::Array(p) => cast(Complex::new(number(&p[0]), number(&p[1]))),
        _ => panic!("not a value: {v}"),
    }
}

fn special(s: &str) -> f64 {
    match s {
        "nan" => f64::NAN,
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        _ => panic!("unknown value {s}"),
    }
}

fn number(v: &Value) -> f64 {
    match v {
        Value::String(s) => special(s),
        _ => v.as_f64().unwrap(),
    }
}

/// Whether `shaped`'s element equals PyTorch's value (NaN equals NaN).
fn same(got: Scalar, want: &Value) -> bool {
    let close = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
    match (got, want) {
        (Scalar::Bool(g), Value::Bool(w)) => g == *w,
        (Scalar::Int(g), w) => w.as_i64() == Some(g),
        (Scalar::Float(g), w) => close(g, number(w)),
        (Scalar::Complex(re, im), Value::Array(p)) => {
            close(re, number(&p[0])) && close(im, number(&p[1]))
        }
        _ => false,
    }
}

fn scalar_dtype(o: &Value) -> DType {
    match o["type"].as_str().unwrap() {
        "bool" => DType::Bool,
        "int" => DType::I64,
        "float" => DType::F64,
        _ => DType::C128,
    }
}

/// The binary cases by `(op, form, lhs, rhs)`; scalars are named by kind.
fn binary_cases() -> &'static HashMap<(String, String, String, String), Value> {
    static M: OnceLock<HashMap<(String, String, String, String), Value>> = OnceLock::new();
    M.get_or_init(|| {
        let name = |o: &Value| {
            o.get("dtype")
                .or_else(|| o.get("type"))
                .and_then(Value::as_str)
                .unwrap()
                .to_string()
        };
        section("binary")
            .iter()
            .map(|c| {
                let key = (
                    c["op"].as_str().unwrap().to_string(),
                    c["form"].as_str().unwrap().to_string(),
                    name(&c["lhs"]),
                    name(&c["rhs"]),
                );
                (key, c.clone())
            })
            .collect()
    })
}

/// Checks one computed result against its fixture case.
fn check<T: Element>(op: &str, form: &str, lhs: &str, rhs: &str, got: Vec<T>) -> usize {
    let key = (op.into(), form.into(), lhs.into(), rhs.into());
    let case = binary_cases()
        .get(&key)
        .unwrap_or_else(|| panic!("no fixture for {key:?}"));
    if is_complex32_divergence(case) && T::DTYPE != DType::Bool {
        assert_eq!(T::DTYPE, DType::C64, "{key:?}");
        return 0;
    }
    let result = case
        .get("result")
        .unwrap_or_else(|| panic!("{key:?} compiles here but PyTorch rejects it: {case}"));
    assert_eq!(
        T::DTYPE.name(),
        result["dtype"].as_str().unwrap(),
        "{key:?}"
    );
    let want = result["values"].as_array().unwrap();
    let got: Vec<Scalar> = got.into_iter().map(Element::to_scalar).collect();
    assert_eq!(got.len(), want.len(), "{key:?}");
    // Python's `number / tensor` is `tensor.reciprocal() * number`: two
    // roundings where `shaped` divides once, so those values may differ by
    // the result type's last bits.
    let reflected_div = op == "div" && form == "scalar_tensor";
    for (g, w) in got.iter().zip(want) {
        let ok = same(*g, w) || reflected_div && close_in(T::DTYPE, *g, w);
        assert!(ok, "{key:?}: shaped {got:?}, PyTorch {want:?}");
    }
    1
}

/// Within a few units in the last place of `dtype`.
fn close_in(dtype: DType, got: Scalar, want: &Value) -> bool {
    let eps = match dtype {
        DType::F16 => 2e-3,
        DType::BF16 => 1.6e-2,
        DType::F32 | DType::C64 => 4e-7,
        _ => 1e-15,
    };
    let near = |g: f64, w: f64| (g - w).abs() <= eps * w.abs().max(1e-30) || g == w;
    match (got, want) {
        (Scalar::Float(g), w) => near(g, number(w)),
        (Scalar::Complex(re, im), Value::Array(p)) => {
            near(re, number(&p[0])) && near(im, number(&p[1]))
        }
        _ => false,
    }
}

/// The operands of a case: the fixture's tensor values for the lhs and rhs
/// dtypes, and its rank-0 values.
fn operands(lhs: &str, rhs: &str) -> (Vec<Value>, Vec<Value>, Value, Value) {
    let tt = &binary_cases()[&("add".into(), "tensor_tensor".into(), lhs.into(), rhs.into())];
    let zz = &binary_cases()[&(
        "add".into(),
        "zero_dim_zero_dim".into(),
        lhs.into(),
        rhs.into(),
    )];
    (
        tt["lhs"]["values"].as_array().unwrap().clone(),
        tt["rhs"]["values"].as_array().unwrap().clone(),
        zz["lhs"]["value"].clone(),
        zz["rhs"]["value"].clone(),
    )
}

/// Runs `op` on the pair `(A, B)` in the four tensor forms.
macro_rules! tensor_forms {
    ($n:ident, $a:ty, $b:ty, $op:literal, |$x:ident, $y:ident| $e:expr) => {{
        let (an, bn) = (<$a>::DTYPE.name(), <$b>::DTYPE.name());
        let (va, vb, za, zb) = operands(an, bn);
        let ta = Tensor::<$a, shape![2]>::from_vec(va.iter().map(elem).collect()).unwrap();
        let tb = Tensor::<$b, shape![2]>::from_vec(vb.iter().map(elem).collect()).unwrap();
        let zb_t = Tensor::<$b, shape![]>::full(elem(&zb));
        let za_t = Tensor::<$a, shape![]>::full(elem(&za));
        let zb_in_zz = zb_t.clone();
        // zero_dim_tensor: a rank-0 `lhs` dtype value beside the `rhs` tensor
        // uses the tensor_zero_dim fixture's rank-0 value, mirrored.
        let tz = &binary_cases()[&($op.into(), "zero_dim_tensor".into(), an.into(), bn.into())];
        let za_left = Tensor::<$a, shape![]>::full(elem(&tz["lhs"]["value"]));
        let tb_right =
            Tensor::<$b, shape![2]>::from_vec(tz["rhs"]["values"].as_array().unwrap().iter().map(elem).collect())
                .unwrap();
        $n += {
            let ($x, $y) = (&ta, &tb);
            check($op, "tensor_tensor", an, bn, $e.to_vec())
        };
        $n += {
            let ($x, $y) = (&ta, &zb_t);
            check($op, "tensor_zero_dim", an, bn, $e.to_vec())
        };
        $n += {
            let ($x, $y) = (&za_left, &tb_right);
            check($op, "zero_dim_tensor", an, bn, $e.to_vec())
        };
        $n += {
            let ($x, $y) = (&za_t, &zb_in_zz);
            check($op, "zero_dim_zero_dim", an, bn, $e.to_vec())
        };
    }};
}

/// Every ordered pair of the listed types, through `$m!(A, B)`.
macro_rules! pairs {
    ($m:ident; $($a:ty),*) => { pairs!(@rows $m; [$($a),*]; $($a),*); };
    (@rows $m:ident; $all:tt; $($a:ty),*) => { $(pairs!(@row $m; $a; $all);)* };
    (@row $m:ident; $a:ty; [$($b:ty),*]) => { $($m!($a, $b);)* };
}

#[test]
fn add_mul_div_eq_of_every_pair_match_pytorch_in_type_and_value() {
    let mut n = 0;
    macro_rules! run {
        ($a:ty, $b:ty) => {
            tensor_forms!(n, $a, $b, "add", |x, y| x + y);
            tensor_forms!(n, $a, $b, "mul", |x, y| x * y);
            tensor_forms!(n, $a, $b, "div", |x, y| x / y);
            tensor_forms!(n, $a, $b, "eq", |x, y| x.eq(y));
        };
    }
    pairs!(run; f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool);
    // 144 pairs x 4 forms x 4 ops, less the complex32 divergences.
    assert!(n > 2250, "{n}");
}

#[test]
fn sub_of_every_non_bool_pair_matches_pytorch() {
    let mut n = 0;
    macro_rules! run {
        ($a:ty, $b:ty) => {
            tensor_forms!(n, $a, $b, "sub", |x, y| x - y);
        };
    }
    pairs!(run; f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64);
    assert!(n > 470, "{n}");
}

#[test]
fn lt_of_every_real_pair_matches_pytorch() {
    let mut n = 0;
    macro_rules! run {
        ($a:ty, $b:ty) => {
            tensor_forms!(n, $a, $b, "lt", |x, y| x.lt(y));
        };
    }
    pairs!(run; f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool);
    assert_eq!(n, 400);
}

/// Tensors with plain Rust numbers on either side: `true`, `3i64`, `2.5f64`
/// and `1+2j` stand for Python's `True`, `3`, `2.5`, `1+2j`.
#[test]
fn numbers_on_either_side_match_pytorch() {
    let mut n = 0;
    macro_rules! with_number {
        ($a:ty, $kind:literal, $s:expr) => {{
            let an = <$a>::DTYPE.name();
            let case = &binary_cases()[&(
                "add".into(),
                "tensor_scalar".into(),
                an.into(),
                $kind.into(),
            )];
            let vals: Vec<$a> = case["lhs"]["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(elem)
                .collect();
            let t = Tensor::<$a, shape![2]>::from_vec(vals).unwrap();
            let s = $s;
            n += check("add", "tensor_scalar", an, $kind, (&t + s).to_vec());
            n += check("add", "scalar_tensor", $kind, an, (s + &t).to_vec());
            n += check("mul", "tensor_scalar", an, $kind, (&t * s).to_vec());
            n += check("mul", "scalar_tensor", $kind, an, (s * &t).to_vec());
            n += check("div", "tensor_scalar", an, $kind, (&t / s).to_vec());
            n += check("div", "scalar_tensor", $kind, an, (s / &t).to_vec());
            n += check("eq", "tensor_scalar", an, $kind, t.eq(s).to_vec());
        }};
    }
    macro_rules! run {
        ($($a:ty),*) => {$(
            with_number!($a, "bool", true);
            with_number!($a, "int", 3i64);
            with_number!($a, "float", 2.5f64);
            with_number!($a, "complex", C128::new(1.0, 2.0));
        )*};
    }
    run!(f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool);
    macro_rules! sub_lt {
        ($($a:ty),*) => {$(
            let an = <$a>::DTYPE.name();
            let case = &binary_cases()[&("sub".into(), "tensor_scalar".into(), an.into(), "int".into())];
            let vals: Vec<$a> = case["lhs"]["values"].as_array().unwrap().iter().map(elem).collect();
            let t = Tensor::<$a, shape![2]>::from_vec(vals).unwrap();
            n += check("sub", "tensor_scalar", an, "int", (&t - 3i64).to_vec());
            n += check("sub", "scalar_tensor", "float", an, (2.5f64 - &t).to_vec());
            n += check("lt", "tensor_scalar", an, "float", t.lt(2.5f64).to_vec());
        )*};
    }
    sub_lt!(f16, bf16, f32, f64, u8, i8, i16, i32, i64);
    assert!(n > 300, "{n}");
}

/// In place: every allowed pair of `add_`, `mul_` (and `div_` into floating
/// outputs) with a tensor operand, checked in value.
#[test]
fn in_place_values_match_pytorch() {
    let cases: HashMap<(String, String, String), &Value> = section("in_place")
        .iter()
        .filter(|c| c["src"]["kind"] == "tensor")
        .map(|c| {
            let key = (
                c["op"].as_str().unwrap().to_string(),
                c["dst"]["dtype"].as_str().unwrap().to_string(),
                c["src"]["dtype"].as_str().unwrap().to_string(),
            );
            (key, c)
        })
        .collect();
    let mut n = 0;
    macro_rules! check_in_place {
        ($a:ty, $b:ty, $op:literal, |$x:ident, $y:ident| $e:expr) => {{
            let key = (
                $op.to_string(),
                <$a>::DTYPE.name().to_string(),
                <$b>::DTYPE.name().to_string(),
            );
            let c = cases[&key];
            let mut $x = Tensor::<$a, shape![3]>::from_vec(
                c["dst"]["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(elem)
                    .collect(),
            )
            .unwrap();
            let $y = Tensor::<$b, shape![3]>::from_vec(
                c["src"]["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(elem)
                    .collect(),
            )
            .unwrap();
            $e;
            let want = c["result"]["values"].as_array().unwrap();
            let got: Vec<Scalar> = $x.to_vec().into_iter().map(Element::to_scalar).collect();
            for (g, w) in got.iter().zip(want) {
                assert!(same(*g, w), "{key:?}: shaped {got:?}, PyTorch {want:?}");
            }
            n += 1;
        }};
    }
    macro_rules! both {
        ($a:ty, $b:ty) => {
            check_in_place!($a, $b, "add_", |x, y| x += &y);
            check_in_place!($a, $b, "mul_", |x, y| x *= &y);
        };
    }
    macro_rules! div_too {
        ($a:ty, $b:ty) => {
            both!($a, $b);
            check_in_place!($a, $b, "div_", |x, y| x /= &y);
        };
    }
    macro_rules! grid {
        ($m:ident; [$($a:ty),*]; $bs:tt) => { $(grid!(@row $m; $a; $bs);)* };
        (@row $m:ident; $a:ty; [$($b:ty),*]) => { $($m!($a, $b);)* };
    }
    // Complex outputs take everything; floating outputs take real operands;
    // integer outputs take integer and bool operands; bool takes bool.
    grid!(div_too; [C64, C128]; [f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool]);
    grid!(div_too; [f16, bf16, f32, f64]; [f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool]);
    grid!(both; [u8, i8, i16, i32, i64]; [u8, i8, i16, i32, i64, bool]);
    check_in_place!(bool, bool, "add_", |x, y| x += &y);
    check_in_place!(bool, bool, "mul_", |x, y| x *= &y);
    assert_eq!(n, 2 * 12 * 3 + 4 * 10 * 3 + 5 * 6 * 2 + 2);
}

// ------------------------------------------------------------------ casts

#[test]
fn casts_match_pytorch() {
    let (mut checked, mut skipped) = (0, 0);
    for c in section("cast") {
        if c["implementation_defined"] == true {
            skipped += 1;
            continue;
        }
        let src = dtype(c["src"].as_str().unwrap());
        let dst = dtype(c["dst"].as_str().unwrap());
        let got = cast_value(src, dst, &c["value"]);
        assert!(same(got, &c["result"]), "{c}: shaped {got:?}");
        checked += 1;
    }
    assert!(
        checked > 1500 && skipped < 200,
        "{checked} checked, {skipped} skipped"
    );
}

/// `value` stored as `src`, then converted to `dst` through a tensor's
/// `cast::<U>()`.
fn cast_value(src: DType, dst: DType, value: &Value) -> Scalar {
    macro_rules! to {
        ($t:ty, [$($u:ty),*]) => {{
            let x = DynTensor::<$t>::from_vec(vec![elem::<$t>(value)], &[1]).unwrap();
            $(if dst == <$u>::DTYPE {
                return x.cast::<$u>().to_vec()[0].to_scalar();
            })*
            unreachable!()
        }};
    }
    macro_rules! from {
        ($($t:ty),*) => {$(
            if src == <$t>::DTYPE {
                to!($t, [f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool]);
            }
        )*};
    }
    from!(f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool);
    unreachable!()
}

/// float16 and bfloat16 arithmetic rounds once per operation from float32,
/// bit for bit as PyTorch's CPU kernels.
#[test]
fn half_arithmetic_matches_pytorch_bit_for_bit() {
    let mut n = 0;
    for c in section("half_arithmetic") {
        let (a, b) = (
            c["a_bits"].as_u64().unwrap() as u16,
            c["b_bits"].as_u64().unwrap() as u16,
        );
        let op = c["op"].as_str().unwrap();
        macro_rules! run {
            ($t:ty) => {{
                let x = Tensor::<$t, shape![]>::full(<$t>::from_bits(a));
                let y = Tensor::<$t, shape![]>::full(<$t>::from_bits(b));
                let r = match op {
                    "add" => (&x + &y).to_vec()[0],
                    "sub" => (&x - &y).to_vec()[0],
                    "mul" => (&x * &y).to_vec()[0],
                    _ => (&x / &y).to_vec()[0],
                };
                if c["result"] == "nan" {
                    assert!(r.is_nan(), "{c}");
                } else {
                    assert_eq!(
                        r.to_bits() as u64,
                        c["result_bits"].as_u64().unwrap(),
                        "{c}"
                    );
                }
            }};
        }
        match c["dtype"].as_str().unwrap() {
            "float16" => run!(f16),
            _ => run!(bf16),
        }
        n += 1;
    }
    assert!(n > 300, "{n}");
}

/// The type promotion examples of PyTorch's documentation, each written as a user would.
#[test]
fn spec_examples() {
    let i32s = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3]).unwrap();
    let r: Tensor<i32, shape![3]> = &i32s + 5;
    assert_eq!(r.to_vec(), vec![6, 7, 8]);
    let r: Tensor<i32, shape![3]> = &i32s + &Tensor::<i64, shape![]>::full(5);
    assert_eq!(r.to_vec(), vec![6, 7, 8]);
    let r: Tensor<i64, shape![3]> = &i32s + &Tensor::<i64, shape![3]>::ones();
    assert_eq!(r.to_vec(), vec![2, 3, 4]);
    let r: Tensor<u8, shape![2]> = &tensor![true, false] + &tensor![1u8, 2];
    assert_eq!(r.to_vec(), vec![2, 2]);
    let r: Tensor<i16, shape![1]> = &tensor![200u8] + &tensor![-100i8];
    assert_eq!(r.to_vec(), vec![100]);
    let _: Tensor<f64, shape![1]> = &tensor![1.0f32] + &tensor![1.0f64];
    let _: Tensor<f32, shape![1]> = &tensor![1i64] + &tensor![1.0f32];
    let _: Tensor<C128, shape![1]> = &tensor![C64::new(1.0, 0.0)] + &tensor![C128::new(1.0, 0.0)];
    let _: Tensor<f32, shape![1]> = &tensor![f16::ONE] + &tensor![bf16::ONE];
    let r: Tensor<f32, shape![3]> = &i32s / &i32s;
    assert_eq!(r.to_vec(), vec![1.0; 3]);
    let _: Tensor<C64, shape![1]> =
        &tensor![1.0f32] + &Tensor::<C128, shape![]>::full(C128::new(0.0, 1.0));
    let r: Tensor<u8, shape![3]> = &tensor![1u8, 2, 3] + 1000;
    assert_eq!(r.to_vec(), vec![233, 234, 235]);
    let mut f = tensor![1.5f32, 2.0];
    f *= &tensor![2i64, 3];
    assert_eq!(f.to_vec(), vec![3.0, 6.0]);
    let mut i = tensor![1i32, 2];
    i *= &tensor![i64::MAX, 2];
    assert_eq!(i.to_vec(), vec![-1, 4]);
    let mut u = tensor![1u8, 2, 3];
    u *= -2;
    assert_eq!(u.to_vec(), vec![254, 252, 250]);
    u *= &tensor![2i32, 2, 2];
    assert_eq!(u.to_vec(), vec![252, 248, 244]);
}

/// A `DynShape` operand of rank 0 beside a dimensioned one: where PyTorch's
/// priority rule would pick another type than the compiler did (treating
/// it as dimensioned), the operation reports it instead of differing.
#[test]
fn runtime_rank_zero_promotion_is_checked() {
    let x = Tensor::<f32, shape![2]>::ones();
    let scalar64 = DynTensor::<f64>::from_vec(vec![2.0], &[]).unwrap();
    let err = x.try_add(&scalar64).unwrap_err();
    assert_eq!(
        err.to_string(),
        "type promotion depends on a runtime rank: torch.float32 (rank 1) with torch.float64 (rank 0) \
         gives torch.float32 in PyTorch, but the result's static type is torch.float64; \
         cast an operand first (`cast::<U>()`)"
    );
    // Same category or rank 1: nothing to check, it works.
    let vector64 = DynTensor::<f64>::from_vec(vec![2.0], &[1]).unwrap();
    assert_eq!(x.try_add(&vector64).unwrap().to_vec(), vec![3.0, 3.0]);
    let int_scalar = DynTensor::<i64>::from_vec(vec![2], &[]).unwrap();
    let err = x.try_mul(&int_scalar).map(|t| t.to_vec());
    assert_eq!(err, Ok(vec![2.0f32, 2.0]));
}

// ------------------------------------------------------------- AnyTensor

/// A fixture operand as an `AnyTensor` (tensors and rank-0 tensors) or a
/// number.
fn any_operand(o: &Value) -> Result<AnyTensor, Scalar> {
    let (values, sizes): (Vec<Value>, Vec<usize>) = match o["kind"].as_str().unwrap() {
        "tensor" => {
            let v = o["values"].as_array().unwrap().clone();
            let n = v.len();
            (v, vec![n])
        }
        "zero_dim" => (vec![o["value"].clone()], vec![]),
        _ => {
            let v = &o["value"];
            return Err(match o["type"].as_str().unwrap() {
                "bool" => Scalar::Bool(v.as_bool().unwrap()),
                "int" => Scalar::Int(v.as_i64().unwrap()),
                "float" => Scalar::Float(number(v)),
                _ => Scalar::Complex(number(&v[0]), number(&v[1])),
            });
        }
    };
    let d = dtype(o["dtype"].as_str().unwrap());
    macro_rules! build {
        ($($t:ty),*) => {$(
            if d == <$t>::DTYPE {
                let data: Vec<$t> = values.iter().map(elem).collect();
                return Ok(AnyTensor::from(DynTensor::<$t>::from_vec(data, &sizes).unwrap()));
            }
        )*};
    }
    build!(f16, bf16, f32, f64, C64, C128, u8, i8, i16, i32, i64, bool);
    unreachable!()
}

fn outcome(r: Result<AnyTensor, shaped::Error>) -> Result<(DType, Vec<Scalar>), String> {
    r.map(|t| (t.dtype(), t.to_scalars()))
        .map_err(|e| e.to_string())
}

fn check_outcome(case: &Value, got: Result<(DType, Vec<Scalar>), String>) {
    match (case.get("result"), got) {
        (Some(want), Ok((d, values))) => {
            assert_eq!(d.name(), want["dtype"].as_str().unwrap(), "{case}");
            let want = want["values"].as_array().unwrap();
            assert_eq!(values.len(), want.len(), "{case}");
            for (g, w) in values.iter().zip(want) {
                assert!(same(*g, w), "{case}: shaped {values:?}");
            }
        }
        (None, Err(e)) => assert_eq!(e, case["error"]["message"].as_str().unwrap(), "{case}"),
        (_, got) => panic!("{case}: shaped {got:?}"),
    }
}

/// Every binary case whose left operand is a tensor, through `AnyTensor`
/// (runtime dtypes): result dtype and values, or PyTorch's error text.
#[test]
fn any_tensor_binary_cases_match_pytorch() {
    let mut n = 0;
    for c in section("binary") {
        if is_complex32_divergence(c) || c["form"] == "scalar_tensor" {
            continue;
        }
        let lhs = any_operand(&c["lhs"]).expect("a tensor on the left");
        let rhs = any_operand(&c["rhs"]);
        let rhs: shaped::dynamic::Operand<'_> = match &rhs {
            Ok(t) => t.into(),
            Err(s) => (*s).into(),
        };
        let got = match c["op"].as_str().unwrap() {
            "add" => lhs.try_add(rhs),
            "sub" => lhs.try_sub(rhs),
            "mul" => lhs.try_mul(rhs),
            "div" => lhs.try_div(rhs),
            "eq" => lhs.try_eq(rhs),
            _ => lhs.try_lt(rhs),
        };
        check_outcome(c, outcome(got));
        n += 1;
    }
    assert!(n > 3300, "{n}");
}

/// The whole in-place table through `AnyTensor`: values, or PyTorch's text
/// (with the output unchanged).
#[test]
fn any_tensor_in_place_cases_match_pytorch() {
    let mut n = 0;
    for c in section("in_place") {
        let text = c
            .get("error")
            .and_then(|e| e["message"].as_str())
            .unwrap_or("");
        if text.contains("ComplexHalf") || text.contains("BComplex32") {
            continue; // complex32: see `is_complex32_divergence`
        }
        let mut dst = any_operand(&c["dst"]).unwrap();
        let before = dst.to_scalars();
        let src = any_operand(&c["src"]);
        let src: shaped::dynamic::Operand<'_> = match &src {
            Ok(t) => t.into(),
            Err(s) => (*s).into(),
        };
        let r = match c["op"].as_str().unwrap() {
            "add_" => dst.try_add_assign(src),
            "mul_" => dst.try_mul_assign(src),
            _ => dst.try_div_assign(src),
        };
        if r.is_err() {
            assert_eq!(dst.to_scalars(), before, "{c}: the output changed");
        }
        check_outcome(
            c,
            r.map(|()| (dst.dtype(), dst.to_scalars()))
                .map_err(|e| e.to_string()),
        );
        n += 1;
    }
    assert!(n > 590, "{n}");
}
