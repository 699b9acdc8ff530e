//! The dynamic API (`DynTensor`, `DynShape`, mixed shapes) checked against
//! PyTorch 2.15.0, character for character.
//!
//! 1. `tests/fixtures/broadcast.json` (`scripts/fixtures/broadcast.py`): for
//!    every pair of shapes, `DynTensor<i64>` operands holding `arange` values
//!    go through `try_add`, `try_sub`, `try_mul`, `try_div`, `try_eq`,
//!    `try_lt`, `try_add_assign`, `try_sub_assign`, `try_mul_assign` and the
//!    operators (`&a + &b` .., `a.eq(&b)`, `a.lt(&b)`, `x += &y` ..), whose
//!    panics must carry the same texts. Then the same with one operand of an
//!    all-`Dyn` static-rank shape (`shape![Dyn, Dyn]` ..), on either side.
//!    `add` is compared with PyTorch's values; the other operations with a
//!    reference loop over the broadcast index space here (itself checked
//!    against PyTorch's `add` values), and with `add`'s error texts, which
//!    `scripts/fixtures/dynamic.py` asserts PyTorch raises for every one of
//!    them (section `broadcast_ops` of `tests/fixtures/dynamic.json`).
//! 2. `tests/fixtures/dynamic.json` (`scripts/fixtures/dynamic.py`):
//!    `DynTensor::from_vec` against `torch.arange(n).view(sizes)`,
//!    `DynTensor::zeros` against `torch.zeros(sizes, dtype)`, element access
//!    (`get`, `get_mut`, `d[[i, j]]`, `d[&idx[..]]`) against `t[i, j]`, and
//!    `expand` / `broadcast_to` against PyTorch's (shape, strides, storage
//!    offset, shared storage, values, or the error text).
//! 3. `into_dyn` and `into_static`: no element moves, and sizes are checked,
//!    never reinterpreted by element count. PyTorch has no static shapes: the
//!    texts checked there are `shaped`'s own (`src/error/`).
//!
//! Every check compares two strings: what PyTorch did and what `shaped` did,
//! written the same way (`shape [2, 3] strides [3, 1] values [..]`, or
//! `error: <text>`). Where `shaped` disagrees with PyTorch, the check stays
//! and the case is listed in [`KNOWN_DIVERGENCES`] with `shaped`'s current
//! output: a listed case is printed rather than failed, but fails as soon as
//! `shaped`'s output changes (fixed or otherwise).

use serde::Deserialize;
use serde_json::Value;
use shaped::layout::checked_numel;
use shaped::prelude::*;
use shaped::shape::{BroadcastInto, BroadcastShape, Shape};
use shaped::storage::Repr;
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::OnceLock;

use crate::common;
use common::{Divergence, Tally, catch, err, no_panic};

// ---------------------------------------------------------------------------
// Divergences from PyTorch
// ---------------------------------------------------------------------------

/// Every known disagreement between `shaped` and PyTorch 2.15.0 in this file.
/// PyTorch's side is in the fixture; the test prints both.
const KNOWN_DIVERGENCES: &[Divergence] = &[
    // from_vec: `torch.arange(n).view(sizes)` multiplies the sizes with
    // wrap-around and compares with n (so an overflowing shape is "invalid for
    // input of size n"), then its `numel` check overflows when n matched the
    // wrapped product (0). `shaped` checks the product first and reports
    // overflow with `zeros`' text, or accepts it when a size is 0.
    // zeros: PyTorch checks numel * element size (bytes) for overflow, and
    // does not skip the check when a size is 0; `shaped` checks the element
    // count only, then reports a byte count it cannot represent as out of
    // memory.
    // index: `t[i]` on a 2-d tensor is a row in PyTorch; element access in
    // `shaped` wants one index per dimension.
    Divergence {
        checks: &["index"],
        case: "[3, 4] at [1]",
        shaped: &["error: expected 2 indices for tensor of dimension 2, got 1"],
        note: "fewer indices than dimensions: PyTorch gives a sub-tensor (by design: get is element access)",
    },
    Divergence {
        checks: &["index"],
        case: "[3, 4] at []",
        shaped: &["error: expected 2 indices for tensor of dimension 2, got 0"],
        note: "fewer indices than dimensions: PyTorch gives the tensor itself (by design: get is element access)",
    },
    Divergence {
        checks: &["index"],
        case: "[2, 3, 4] at [1, 2]",
        shaped: &["error: expected 3 indices for tensor of dimension 3, got 2"],
        note: "fewer indices than dimensions: PyTorch gives a sub-tensor (by design: get is element access)",
    },
    // expand: a new leading dimension of size 1 gets, in PyTorch, the
    // stride `size * stride` of the dimension after it (it is not a stretched
    // dimension); `shaped` gives every new leading dimension stride 0.
    // expand: PyTorch's legacy name for bool tensors in this message is
    // `CPUBoolType`, not `torch.BoolTensor`.
    // expand: element counts from 2**63 to 2**64 - 1 overflow PyTorch's
    // int64 numel but fit `shaped`'s usize.
];

/// A tally against [`KNOWN_DIVERGENCES`].
fn tally() -> Tally {
    Tally::new(KNOWN_DIVERGENCES, 400)
}

// ---------------------------------------------------------------------------
// Outcomes as strings
// ---------------------------------------------------------------------------

fn sizes_values<T: Debug>(shape: &[usize], values: &[T]) -> String {
    format!("shape {shape:?} values {values:?}")
}

/// A result tensor (shape and values), or its error.
fn result<T: Element, S: Shape, R: Repr>(r: Result<Tensor<T, S, Cpu, R>, String>) -> String {
    match r {
        Ok(t) => sizes_values(t.layout().sizes(), &t.to_vec()),
        Err(e) => err(&e),
    }
}

/// An in-place operation: its error (if any), then the output's state.
fn in_place<T: Element, S: Shape>(r: Result<(), String>, x: &Tensor<T, S>) -> String {
    let state = sizes_values(x.layout().sizes(), &x.to_vec());
    match r {
        Ok(()) => format!("ok; x {state}"),
        Err(e) => format!("{}; x {state}", err(&e)),
    }
}

/// Shape, strides and values of a new tensor, or its error.
fn layout_values<T: Element, S: Shape, R: Repr>(
    r: Result<&Tensor<T, S, Cpu, R>, String>,
) -> String {
    match r {
        Ok(t) => format!(
            "shape {:?} strides {:?} values {:?}",
            t.layout().sizes(),
            t.layout().strides(),
            t.to_vec()
        ),
        Err(e) => err(&e),
    }
}

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

#[derive(Deserialize)]
struct BroadcastFixture {
    cases: Vec<BroadcastCase>,
}

#[derive(Deserialize, Debug)]
struct BroadcastCase {
    id: usize,
    a: Vec<usize>,
    b: Vec<usize>,
    result: Option<Vec<usize>>,
    error: Option<String>,
    values: Option<Vec<i64>>,
    in_place_error: Option<String>,
    in_place_values: Option<Vec<i64>>,
}

#[derive(Deserialize)]
struct DynamicFixture {
    meta: Meta,
    broadcast_ops: BroadcastOps,
    from_vec: Vec<FromVecCase>,
    zeros: Vec<ZerosCase>,
    index: Vec<IndexCase>,
    expand: Vec<ExpandCase>,
}

#[derive(Deserialize)]
struct Meta {
    torch: String,
    max_values: usize,
}

#[derive(Deserialize)]
struct BroadcastOps {
    fixture: String,
    cases: usize,
    ops: Vec<String>,
    same_error_text_as_add: bool,
    values_checked: usize,
}

/// Shape, strides and values, or an error: what a constructor gave.
#[derive(Deserialize, Debug)]
struct Made {
    shape: Option<Vec<usize>>,
    strides: Option<Vec<usize>>,
    values: Option<Vec<Value>>,
    error: Option<String>,
}

#[derive(Deserialize, Debug)]
struct FromVecCase {
    name: String,
    n: usize,
    sizes: Vec<usize>,
    #[serde(flatten)]
    made: Made,
}

#[derive(Deserialize, Debug)]
struct ZerosCase {
    name: String,
    dtype: String,
    sizes: Vec<usize>,
    #[serde(flatten)]
    made: Made,
}

#[derive(Deserialize, Debug)]
struct IndexCase {
    name: String,
    sizes: Vec<usize>,
    index: Vec<usize>,
    value: Option<i64>,
    subtensor: Option<Vec<usize>>,
    error: Option<String>,
}

#[derive(Deserialize, Debug)]
struct ExpandCase {
    name: String,
    dtype: String,
    sizes: Vec<usize>,
    target: Vec<isize>,
    expand: Expanded,
    broadcast_to: Expanded,
}

#[derive(Deserialize, Debug)]
struct Expanded {
    shape: Option<Vec<usize>>,
    strides: Option<Vec<usize>>,
    storage_offset: Option<usize>,
    shares_storage: Option<bool>,
    #[serde(default)]
    values: Option<Vec<Value>>,
    error: Option<String>,
}

fn broadcast_cases() -> &'static [BroadcastCase] {
    static CASES: OnceLock<Vec<BroadcastCase>> = OnceLock::new();
    CASES.get_or_init(|| {
        let f: BroadcastFixture = serde_json::from_str(include_str!("fixtures/broadcast.json"))
            .expect("tests/fixtures/broadcast.json parses");
        f.cases
    })
}

fn dynamic() -> &'static DynamicFixture {
    static FIXTURE: OnceLock<DynamicFixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        serde_json::from_str(include_str!("fixtures/dynamic.json"))
            .expect("tests/fixtures/dynamic.json parses")
    })
}

fn arange(sizes: &[usize]) -> Vec<i64> {
    (0..sizes.iter().product::<usize>() as i64).collect()
}

/// Element types of the fixtures, read from JSON as PyTorch wrote them.
trait FixtureElement: Element {
    fn from_json(v: &Value) -> Self;
    /// `torch.arange(n).to(dtype)`.
    fn arange(n: usize) -> Vec<Self>;
}

impl FixtureElement for i64 {
    fn from_json(v: &Value) -> Self {
        v.as_i64().expect("an int64 value")
    }
    fn arange(n: usize) -> Vec<Self> {
        (0..n as i64).collect()
    }
}

impl FixtureElement for f32 {
    fn from_json(v: &Value) -> Self {
        v.as_f64().expect("a float32 value") as f32
    }
    fn arange(n: usize) -> Vec<Self> {
        (0..n).map(|i| i as f32).collect()
    }
}

impl FixtureElement for u8 {
    fn from_json(v: &Value) -> Self {
        u8::try_from(v.as_u64().expect("a uint8 value")).expect("a uint8 value")
    }
    fn arange(n: usize) -> Vec<Self> {
        assert!(n <= 256, "arange({n}) does not fit uint8");
        (0..n).map(|i| i as u8).collect()
    }
}

impl FixtureElement for bool {
    fn from_json(v: &Value) -> Self {
        v.as_bool().expect("a bool value")
    }
    fn arange(n: usize) -> Vec<Self> {
        (0..n).map(|i| i != 0).collect()
    }
}

fn json_values<T: FixtureElement>(values: &[Value]) -> Vec<T> {
    values.iter().map(T::from_json).collect()
}

/// Calls `$f::<T>($args)` for the fixture's dtype name.
macro_rules! by_dtype {
    ($dtype:expr, $f:ident($($arg:expr),*)) => {
        match $dtype {
            "int64" => $f::<i64>($($arg),*),
            "float32" => $f::<f32>($($arg),*),
            "uint8" => $f::<u8>($($arg),*),
            "bool" => $f::<bool>($($arg),*),
            other => panic!("dtype {other} is not dispatched"),
        }
    };
}

#[test]
fn fixtures_are_what_the_tests_expect() {
    let d = dynamic();
    assert!(d.meta.torch.starts_with("2.15.0"), "{}", d.meta.torch);
    let ops = &d.broadcast_ops;
    assert_eq!(ops.fixture, "tests/fixtures/broadcast.json");
    // dynamic.py re-ran every case of broadcast.json: regenerate it after
    // broadcast.json changes.
    assert_eq!(ops.cases, broadcast_cases().len());
    assert!(ops.same_error_text_as_add);
    for op in ["sub", "mul", "div", "eq", "lt", "sub_", "mul_"] {
        assert!(
            ops.ops.iter().any(|o| o == op),
            "{op} not checked by dynamic.py"
        );
    }
    assert!(ops.values_checked > 1000, "{}", ops.values_checked);
    assert!(d.from_vec.len() >= 30);
    assert!(d.zeros.len() >= 17);
    assert!(d.index.len() >= 30);
    assert!(d.expand.len() >= 59);
    for (section, names) in [
        (
            "from_vec",
            d.from_vec.iter().map(|c| &c.name).collect::<Vec<_>>(),
        ),
        ("zeros", d.zeros.iter().map(|c| &c.name).collect()),
        ("index", d.index.iter().map(|c| &c.name).collect()),
        ("expand", d.expand.iter().map(|c| &c.name).collect()),
    ] {
        let unique: BTreeSet<_> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "{section}: duplicate names");
    }
    // The cases named in the brief are there, with PyTorch's texts.
    let from_vec = |name: &str| d.from_vec.iter().find(|c| c.name == name).unwrap();
    assert_eq!(
        from_vec("3 into [2, 2]").made.error.as_deref(),
        Some("shape '[2, 2]' is invalid for input of size 3")
    );
    let zeros = d
        .zeros
        .iter()
        .find(|c| c.name == "[2**62, 4] int64")
        .unwrap();
    assert_eq!(
        zeros.made.error.as_deref(),
        Some("Storage size calculation overflowed with sizes=[4611686018427387904, 4]")
    );
    let index = d.index.iter().find(|c| c.name == "[3] at [3]").unwrap();
    assert_eq!(
        index.error.as_deref(),
        Some("index 3 is out of bounds for dimension 0 with size 3")
    );
    let expand = d
        .expand
        .iter()
        .find(|c| c.name == "[1, 4] to [2**62, 4]")
        .unwrap();
    assert_eq!(
        expand.expand.error.as_deref(),
        Some("numel: integer multiplication overflow")
    );
    // Every divergence names a case of its section.
    for dv in KNOWN_DIVERGENCES {
        let found = match dv.checks[0] {
            "from_vec" => d.from_vec.iter().any(|c| c.name == dv.case),
            "zeros" => d.zeros.iter().any(|c| c.name == dv.case),
            "index" => d.index.iter().any(|c| c.name == dv.case),
            "expand" | "broadcast_to" => d.expand.iter().any(|c| c.name == dv.case),
            _ => false,
        };
        assert!(
            found,
            "KNOWN_DIVERGENCES: no case {:?} for {:?}",
            dv.case, dv.checks
        );
    }
}

// ---------------------------------------------------------------------------
// 1. Broadcasting through the dynamic API
// ---------------------------------------------------------------------------

/// The `arange` values of an operand of sizes `op`, broadcast to `out`, in
/// row-major order: a plain loop over `out`'s index space.
fn broadcast_arange(op: &[usize], out: &[usize]) -> Vec<i64> {
    assert!(
        op.len() <= out.len(),
        "{op:?} does not broadcast to {out:?}"
    );
    let extra = out.len() - op.len();
    let mut strides = vec![1usize; op.len()];
    for d in (0..op.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * op[d + 1];
    }
    let n: usize = out.iter().product();
    let mut index = vec![0usize; out.len()];
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        let mut at = 0;
        for d in 0..op.len() {
            assert!(op[d] == 1 || op[d] == out[extra + d]);
            let i = if op[d] == 1 { 0 } else { index[extra + d] };
            at += i * strides[d];
        }
        values.push(at as i64);
        for d in (0..out.len()).rev() {
            index[d] += 1;
            if index[d] < out[d] {
                break;
            }
            index[d] = 0;
        }
    }
    values
}

/// What every operation should give on one case, as outcome strings.
struct Expected {
    add: String,
    sub: String,
    mul: String,
    div: String,
    eq: String,
    lt: String,
    add_assign: String,
    sub_assign: String,
    mul_assign: String,
}

impl Expected {
    fn of(c: &BroadcastCase) -> Expected {
        let add = match (&c.result, &c.values, &c.error) {
            (Some(r), Some(v), None) => sizes_values(r, v),
            (None, None, Some(e)) => err(e),
            _ => panic!("case {}: inconsistent fixture", c.id),
        };
        let x0 = sizes_values(&c.a, &arange(&c.a));
        let in_place = |values: Option<Vec<i64>>| match (&c.in_place_error, values) {
            (Some(e), _) => format!("{}; x {x0}", err(e)),
            (None, Some(v)) => format!("ok; x {}", sizes_values(&c.a, &v)),
            (None, None) => panic!("case {}: inconsistent fixture", c.id),
        };
        Expected {
            sub: elementwise(c, |x, y| x.wrapping_sub(y)),
            mul: elementwise(c, |x, y| x.wrapping_mul(y)),
            div: elementwise(c, |x, y| x as f32 / y as f32),
            eq: elementwise(c, |x, y| x == y),
            lt: elementwise(c, |x, y| x < y),
            add_assign: in_place(c.in_place_values.clone()),
            sub_assign: in_place(in_place_reference(c, i64::wrapping_sub)),
            mul_assign: in_place(in_place_reference(c, i64::wrapping_mul)),
            add,
        }
    }
}

/// `a op b` by the reference loop when PyTorch broadcasts `a` and `b`, else
/// PyTorch's error (the one `add` raised, as for every operation).
fn elementwise<T: Debug>(c: &BroadcastCase, f: impl Fn(i64, i64) -> T) -> String {
    match (&c.result, &c.error) {
        (Some(r), None) => {
            let a = broadcast_arange(&c.a, r);
            let b = broadcast_arange(&c.b, r);
            let v: Vec<T> = a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect();
            sizes_values(r, &v)
        }
        (None, Some(e)) => err(e),
        _ => panic!("case {}: neither result nor error", c.id),
    }
}

/// `x op= y` by the reference loop, when PyTorch accepts it.
fn in_place_reference(c: &BroadcastCase, f: fn(i64, i64) -> i64) -> Option<Vec<i64>> {
    c.in_place_error.is_none().then(|| {
        let y = broadcast_arange(&c.b, &c.a);
        arange(&c.a)
            .iter()
            .zip(&y)
            .map(|(&p, &q)| f(p, q))
            .collect()
    })
}

/// The reference loop agrees with PyTorch's `x + y` on every case, so that
/// the references for the other operations stand on it.
#[test]
fn reference_loop_reproduces_pytorch_add() {
    let mut tally = tally();
    for c in broadcast_cases() {
        if let (Some(r), Some(v)) = (&c.result, &c.values) {
            let a = broadcast_arange(&c.a, r);
            let b = broadcast_arange(&c.b, r);
            let sum: Vec<i64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
            tally.same(
                "reference add",
                &format!("#{}", c.id),
                &sizes_values(r, v),
                &sizes_values(r, &sum),
            );
        }
        if let Some(v) = &c.in_place_values {
            tally.same(
                "reference add_",
                &format!("#{}", c.id),
                &format!("{v:?}"),
                &format!("{:?}", in_place_reference(c, i64::wrapping_add).unwrap()),
            );
        }
    }
    tally.finish("reference_loop_reproduces_pytorch_add", 300);
}

/// Every operation of one case on operands `a` and `b` (whatever their
/// shape types), against `e`. `pair` names the shape types in messages.
fn check_operations<SA, SB>(
    tally: &mut Tally,
    pair: &str,
    c: &BroadcastCase,
    e: &Expected,
    a: &Tensor<i64, SA>,
    b: &Tensor<i64, SB>,
) where
    SA: BroadcastShape<SB>,
    SB: BroadcastInto<SA>,
{
    let case = format!("#{} a={:?} b={:?}", c.id, c.a, c.b);
    let mut check = |op: &str, expected: &str, got: String| {
        tally.check(&format!("{pair} {op}"), &case, expected, &got);
    };
    check("a.try_add(&b)", &e.add, result(no_panic(|| a.try_add(b))));
    check("a.try_sub(&b)", &e.sub, result(no_panic(|| a.try_sub(b))));
    check("a.try_mul(&b)", &e.mul, result(no_panic(|| a.try_mul(b))));
    check("a.try_div(&b)", &e.div, result(no_panic(|| a.try_div(b))));
    check("a.try_eq(&b)", &e.eq, result(no_panic(|| a.try_eq(b))));
    check("a.try_lt(&b)", &e.lt, result(no_panic(|| a.try_lt(b))));

    check("&a + &b", &e.add, result(catch(|| a + b)));
    check("&a - &b", &e.sub, result(catch(|| a - b)));
    check("&a * &b", &e.mul, result(catch(|| a * b)));
    check("&a / &b", &e.div, result(catch(|| a / b)));
    check("a.eq(&b)", &e.eq, result(catch(|| a.eq(b))));
    check("a.lt(&b)", &e.lt, result(catch(|| a.lt(b))));

    let mut x = a.clone();
    let r = no_panic(|| x.try_add_assign(b));
    check("x.try_add_assign(&y)", &e.add_assign, in_place(r, &x));
    let mut x = a.clone();
    let r = no_panic(|| x.try_sub_assign(b));
    check("x.try_sub_assign(&y)", &e.sub_assign, in_place(r, &x));
    let mut x = a.clone();
    let r = no_panic(|| x.try_mul_assign(b));
    check("x.try_mul_assign(&y)", &e.mul_assign, in_place(r, &x));

    let mut x = a.clone();
    let r = catch(|| x += b);
    check("x += &y", &e.add_assign, in_place(r, &x));
    let mut x = a.clone();
    let r = catch(|| x -= b);
    check("x -= &y", &e.sub_assign, in_place(r, &x));
    let mut x = a.clone();
    let r = catch(|| x *= b);
    check("x *= &y", &e.mul_assign, in_place(r, &x));
}

fn dyn_operand(sizes: &[usize]) -> DynTensor<i64> {
    DynTensor::<i64>::from_vec(arange(sizes), sizes).expect("the operand builds")
}

#[test]
fn dynamic_operations_match_pytorch() {
    let mut tally = tally();
    for c in broadcast_cases() {
        let e = Expected::of(c);
        let a = dyn_operand(&c.a);
        let b = dyn_operand(&c.b);
        // The operands are what PyTorch had: arange values in their shapes.
        let case = format!("#{}", c.id);
        tally.same(
            "operand a",
            &case,
            &sizes_values(&c.a, &arange(&c.a)),
            &result(Ok(a.as_view())),
        );
        let flat = DynTensor::<i64>::arange(c.b.iter().product());
        tally.same(
            "DynTensor::arange",
            &case,
            &format!("{:?}", arange(&c.b)),
            &format!("{:?}", flat.to_vec()),
        );
        check_operations(&mut tally, "dyn,dyn", c, &e, &a, &b);
    }
    tally.finish("dynamic_operations_match_pytorch", 454 * 20);
}

/// An all-`Dyn` shape of static rank `n`.
macro_rules! all_dyn {
    (0) => {
        shape![]
    };
    (1) => {
        shape![Dyn]
    };
    (2) => {
        shape![Dyn, Dyn]
    };
    (3) => {
        shape![Dyn, Dyn, Dyn]
    };
    (4) => {
        shape![Dyn, Dyn, Dyn, Dyn]
    };
    (5) => {
        shape![Dyn, Dyn, Dyn, Dyn, Dyn]
    };
    (6) => {
        shape![Dyn, Dyn, Dyn, Dyn, Dyn, Dyn]
    };
}

/// Runs `$body` with `$S` the all-`Dyn` shape of rank `$rank` (0..=6).
macro_rules! with_all_dyn {
    ($rank:expr, $S:ident => $body:expr) => {
        match $rank {
            0 => {
                type $S = all_dyn!(0);
                $body
            }
            1 => {
                type $S = all_dyn!(1);
                $body
            }
            2 => {
                type $S = all_dyn!(2);
                $body
            }
            3 => {
                type $S = all_dyn!(3);
                $body
            }
            4 => {
                type $S = all_dyn!(4);
                $body
            }
            5 => {
                type $S = all_dyn!(5);
                $body
            }
            6 => {
                type $S = all_dyn!(6);
                $body
            }
            r => panic!("rank {r} is not dispatched"),
        }
    };
}

#[test]
fn mixed_operations_match_pytorch() {
    let mut tally = tally();
    for c in broadcast_cases() {
        let e = Expected::of(c);
        // a: DynShape, b: all-Dyn static rank.
        let a = dyn_operand(&c.a);
        with_all_dyn!(c.b.len(), SB => {
            let b = Tensor::<i64, SB>::from_vec_with(arange(&c.b), &c.b).expect("b builds");
            check_operations(&mut tally, "dyn,static", c, &e, &a, &b);
        });
        // a: all-Dyn static rank, b: DynShape.
        let b = dyn_operand(&c.b);
        with_all_dyn!(c.a.len(), SA => {
            let a = Tensor::<i64, SA>::from_vec_with(arange(&c.a), &c.a).expect("a builds");
            check_operations(&mut tally, "static,dyn", c, &e, &a, &b);
        });
    }
    tally.finish("mixed_operations_match_pytorch", 454 * 2 * 18);
}

// ---------------------------------------------------------------------------
// 2. Constructors, indexing and expand against dynamic.json
// ---------------------------------------------------------------------------

/// PyTorch's outcome of a constructor, written as [`layout_values`] writes
/// `shaped`'s.
fn made<T: FixtureElement>(m: &Made) -> String {
    match (&m.shape, &m.strides, &m.values, &m.error) {
        (Some(shape), Some(strides), Some(values), None) => format!(
            "shape {shape:?} strides {strides:?} values {:?}",
            json_values::<T>(values)
        ),
        (None, None, None, Some(e)) => err(e),
        _ => panic!("inconsistent fixture entry {m:?}"),
    }
}

#[test]
fn from_vec_matches_pytorch_view() {
    let mut tally = tally();
    for c in &dynamic().from_vec {
        let expected = made::<i64>(&c.made);
        let data: Vec<i64> = (0..c.n as i64).collect();
        let got = no_panic(|| DynTensor::<i64>::from_vec(data.clone(), &c.sizes));
        let got_s = layout_values(got.as_ref().map_err(String::clone));
        tally.check("from_vec", &c.name, &expected, &got_s);
        if let Ok(t) = &got {
            tally.same(
                "from_vec offset",
                &c.name,
                "0",
                &t.storage_offset().to_string(),
            );
            tally.same(
                "from_vec rank",
                &c.name,
                &c.sizes.len().to_string(),
                &t.rank().to_string(),
            );
        }
        // The static-rank form of the same constructor says the same.
        if c.sizes.len() <= 6 {
            with_all_dyn!(c.sizes.len(), S => {
                let s = no_panic(|| Tensor::<i64, S>::from_vec_with(data, &c.sizes));
                tally.same(
                    "from_vec_with (all-Dyn static rank)",
                    &c.name,
                    &got_s,
                    &layout_values(s.as_ref().map_err(String::clone)),
                );
            });
        }
    }
    tally.finish("from_vec_matches_pytorch_view", 30);
}

fn zeros_case<T: FixtureElement>(tally: &mut Tally, c: &ZerosCase) {
    let expected = made::<T>(&c.made);
    let got = no_panic(|| DynTensor::<T>::try_full_with(&c.sizes, T::ZERO));
    let got_s = layout_values(got.as_ref().map_err(String::clone));
    tally.check("zeros", &c.name, &expected, &got_s);
    // `zeros` panics with the text `try_full_with` returns (or with the
    // panic `try_full_with` raised).
    let zeros_expected = layout_values(
        got.as_ref()
            .map_err(|e| e.strip_prefix("panicked: ").unwrap_or(e).to_string()),
    );
    drop(got);
    let zeros = catch(|| DynTensor::<T>::zeros(&c.sizes));
    tally.same(
        "DynTensor::zeros (panic)",
        &c.name,
        &zeros_expected,
        &layout_values(zeros.as_ref().map_err(String::clone)),
    );
}

#[test]
fn zeros_matches_pytorch() {
    let mut tally = tally();
    for c in &dynamic().zeros {
        by_dtype!(c.dtype.as_str(), zeros_case(&mut tally, c));
    }
    // The overflow texts are `checked_numel`'s.
    let e = checked_numel(&[1 << 62, 4]).unwrap_err();
    tally.check(
        "checked_numel",
        "[2**62, 4] int64",
        &made::<i64>(
            &dynamic()
                .zeros
                .iter()
                .find(|c| c.name == "[2**62, 4] int64")
                .unwrap()
                .made,
        ),
        &err(&e.to_string()),
    );
    tally.finish("zeros_matches_pytorch", 17 * 2);
}

/// Reads `t[index]` every way `shaped` offers; all must agree with `get`.
fn index_forms(tally: &mut Tally, name: &str, t: &mut DynTensor<i64>, index: &[usize]) -> String {
    let outcome = |r: Result<i64, String>| match r {
        Ok(v) => format!("value {v}"),
        Err(e) => err(&e),
    };
    let got = outcome(t.get(index).copied().map_err(|e| e.to_string()));
    let mut same =
        |form: &str, other: String| tally.same(&format!("index {form}"), name, &got, &other);
    same(
        "get_mut",
        outcome(t.get_mut(index).map(|v| *v).map_err(|e| e.to_string())),
    );
    same("d[&idx[..]]", outcome(catch(|| t[index])));
    same(
        "d[&idx[..]] (IndexMut)",
        outcome(catch(|| {
            let place: &mut i64 = &mut t[index];
            *place
        })),
    );
    let array = match index.len() {
        0 => Some(catch(|| t[[0usize; 0]])),
        1 => Some(catch(|| t[[index[0]]])),
        2 => Some(catch(|| t[[index[0], index[1]]])),
        3 => Some(catch(|| t[[index[0], index[1], index[2]]])),
        4 => Some(catch(|| t[[index[0], index[1], index[2], index[3]]])),
        7 => {
            let i: [usize; 7] = index.try_into().unwrap();
            Some(catch(|| t[i]))
        }
        _ => None,
    };
    if let Some(r) = array {
        same("d[[i, j, ..]]", outcome(r));
    }
    // Writing through a good index changes that element only.
    if t.get(index).is_ok() {
        let before = t.to_vec();
        t[index] = -7;
        let after = t.to_vec();
        let changed: Vec<usize> = (0..before.len())
            .filter(|&i| before[i] != after[i])
            .collect();
        tally.same(
            "index write",
            name,
            "1 element now -7",
            &format!(
                "{} element now {}",
                changed.len(),
                changed.first().map(|&i| after[i]).unwrap_or(0)
            ),
        );
        t[index] = before[changed[0]];
    }
    got
}

#[test]
fn indexing_matches_pytorch() {
    let mut tally = tally();
    for c in &dynamic().index {
        let expected = match (&c.value, &c.subtensor, &c.error) {
            (Some(v), None, None) => format!("value {v}"),
            (None, Some(shape), None) => format!("a sub-tensor of shape {shape:?}"),
            (None, None, Some(e)) => err(e),
            _ => panic!("inconsistent fixture entry {c:?}"),
        };
        let mut t = dyn_operand(&c.sizes);
        let got = index_forms(&mut tally, &c.name, &mut t, &c.index);
        tally.check("index", &c.name, &expected, &got);
    }
    tally.finish("indexing_matches_pytorch", 30 * 5);
}

/// PyTorch's outcome of `expand`, written as [`expanded`] writes `shaped`'s.
fn pytorch_expanded<T: FixtureElement>(e: &Expanded) -> String {
    match (
        &e.shape,
        &e.strides,
        &e.storage_offset,
        &e.shares_storage,
        &e.error,
    ) {
        (Some(shape), Some(strides), Some(offset), Some(shares), None) => format!(
            "shape {shape:?} strides {strides:?} offset {offset} shares {shares} values {}",
            match &e.values {
                Some(v) => format!("{:?}", json_values::<T>(v)),
                None => format!(
                    "not compared (more than {} elements)",
                    dynamic().meta.max_values
                ),
            }
        ),
        (None, None, None, None, Some(text)) => err(text),
        _ => panic!("inconsistent fixture entry {e:?}"),
    }
}

/// `shaped`'s outcome of an `expand` of `source`.
fn expanded<T: Element, R: Repr>(
    source: &DynTensor<T>,
    r: Result<Tensor<T, DynShape, Cpu, R>, String>,
) -> String {
    match r {
        Ok(e) => format!(
            "shape {:?} strides {:?} offset {} shares {} values {}",
            e.layout().sizes(),
            e.layout().strides(),
            e.storage_offset(),
            e.shares_storage_with(source),
            if e.numel() <= dynamic().meta.max_values {
                format!("{:?}", e.to_vec())
            } else {
                format!(
                    "not compared (more than {} elements)",
                    dynamic().meta.max_values
                )
            }
        ),
        Err(e) => err(&e),
    }
}

fn expand_case<T: FixtureElement>(tally: &mut Tally, c: &ExpandCase) {
    let t = DynTensor::<T>::from_vec(T::arange(c.sizes.iter().product()), &c.sizes)
        .expect("the source builds");
    tally.check(
        "expand",
        &c.name,
        &pytorch_expanded::<T>(&c.expand),
        &expanded(&t, no_panic(|| t.expand(&c.target))),
    );
    tally.check(
        "broadcast_to",
        &c.name,
        &pytorch_expanded::<T>(&c.broadcast_to),
        &expanded(&t, no_panic(|| t.broadcast_to(&c.target))),
    );
}

#[test]
fn expand_matches_pytorch() {
    let mut tally = tally();
    for c in &dynamic().expand {
        by_dtype!(c.dtype.as_str(), expand_case(&mut tally, c));
    }
    tally.finish("expand_matches_pytorch", 59 * 2);
}

// ---------------------------------------------------------------------------
// 3. Conversions (no PyTorch counterpart; the texts are shaped's own)
// ---------------------------------------------------------------------------

/// The address of element `[0, 0, ..]`: equal before and after a move means
/// the elements did not move.
fn first_addr<T: Element, S: Shape, R: Repr>(t: &Tensor<T, S, Cpu, R>) -> usize {
    let zeros = vec![0usize; t.rank()];
    t.get(&zeros).expect("a non-empty tensor") as *const T as usize
}

/// Sizes, strides, offset, values and element address of a tensor.
fn anatomy<T: Element, S: Shape, R: Repr>(t: &Tensor<T, S, Cpu, R>) -> String {
    format!(
        "shape {:?} strides {:?} offset {} values {:?} at {:#x}",
        t.layout().sizes(),
        t.layout().strides(),
        t.storage_offset(),
        t.to_vec(),
        first_addr(t)
    )
}

fn conversion_err<T: Element, S: Shape, R: Repr>(
    r: Result<Tensor<T, S, Cpu, R>, shaped::Error>,
) -> String {
    match r {
        Ok(t) => format!("Ok({})", anatomy(&t)),
        Err(e) => err(&e.to_string()),
    }
}

#[test]
fn into_dyn_moves_no_element() {
    let mut tally = tally();
    // Owned, static: the elements stay where they are.
    let s = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    let before = anatomy(&s);
    let d: DynTensor<i64> = s.into_dyn();
    tally.same("into_dyn owned static", "[2, 3]", &before, &anatomy(&d));
    // Owned, mixed.
    let m = Tensor::<i64, shape![Dyn, 3]>::from_vec_with((0..12).collect(), &[4, 3]).unwrap();
    let before = anatomy(&m);
    let d = m.into_dyn();
    tally.same("into_dyn owned mixed", "[4, 3]", &before, &anatomy(&d));
    // Dynamic to dynamic.
    let before = anatomy(&d);
    let d = d.into_dyn();
    tally.same("into_dyn owned dyn", "[4, 3]", &before, &anatomy(&d));
    // Rank 0.
    let z = Tensor::<f32, shape![]>::full(2.5);
    let before = anatomy(&z);
    let d = z.into_dyn();
    tally.same("into_dyn rank 0", "[]", &before, &anatomy(&d));
    tally.same("into_dyn rank 0", "rank", "0", &d.rank().to_string());

    // Views keep their strides and their storage.
    let x = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    let t = x.t();
    let before = anatomy(&t);
    let dt = t.into_dyn();
    tally.same("into_dyn transposed view", "[3, 2]", &before, &anatomy(&dt));
    tally.same(
        "into_dyn transposed view",
        "strides, shares",
        "[1, 3] true",
        &format!("{:?} {}", dt.strides().as_ref(), dt.shares_storage_with(&x)),
    );
    let row = Tensor::<i64, shape![3]>::arange();
    let e = row.expand::<shape![2, 3]>().into_dyn();
    tally.same(
        "into_dyn expanded view",
        "[3] to [2, 3]",
        &format!(
            "shape [2, 3] strides [0, 1] values {:?} shares true",
            [0, 1, 2, 0, 1, 2]
        ),
        &format!(
            "shape {:?} strides {:?} values {:?} shares {}",
            e.shape().as_ref(),
            e.strides().as_ref(),
            e.to_vec(),
            e.shares_storage_with(&row)
        ),
    );
    tally.finish("into_dyn_moves_no_element", 8);
}

#[test]
fn into_static_checks_every_size() {
    let mut tally = tally();
    let source = || DynTensor::<i64>::from_vec((0..6).collect(), &[2, 3]).unwrap();

    // Matching sizes: static, mixed, all-Dyn, dynamic. No element moves.
    macro_rules! accepts {
        ($($S:ty),*) => {$(
            let d = source();
            let before = anatomy(&d);
            let got = conversion_err(d.into_static::<$S>());
            tally.same("into_static accepts", stringify!($S), &format!("Ok({before})"), &got);
        )*};
    }
    accepts!(
        shape![2, 3],
        shape![Dyn, 3],
        shape![2, Dyn],
        shape![Dyn, Dyn],
        DynShape
    );

    // Different ranks or contradicting sizes: the exact texts, and never a
    // reading by element count ((2, 3) is not (3, 2), (6,) or (1, 2, 3)).
    macro_rules! rejects {
        ($($S:ty => $text:literal),* $(,)?) => {$(
            let got = conversion_err(source().into_static::<$S>());
            tally.same("into_static rejects", stringify!($S), &err($text), &got);
        )*};
    }
    rejects!(
        shape![3, 2] => "size 2 at dimension 0 contradicts the static size 3",
        shape![2, 2] => "size 3 at dimension 1 contradicts the static size 2",
        shape![Dyn, 2] => "size 3 at dimension 1 contradicts the static size 2",
        shape![3, Dyn] => "size 2 at dimension 0 contradicts the static size 3",
        shape![6] => "a shape of rank 1 cannot take 2 sizes",
        shape![Dyn] => "a shape of rank 1 cannot take 2 sizes",
        shape![1, 2, 3] => "a shape of rank 3 cannot take 2 sizes",
        shape![Dyn, Dyn, Dyn] => "a shape of rank 3 cannot take 2 sizes",
        shape![] => "a shape of rank 0 cannot take 2 sizes",
    );

    // Static to static, and mixed to mixed.
    let s = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    tally.same(
        "into_static static",
        "[2, 3] as [3, 2]",
        &err("size 2 at dimension 0 contradicts the static size 3"),
        &conversion_err(s.into_static::<shape![3, 2]>()),
    );
    let s = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    let before = anatomy(&s);
    tally.same(
        "into_static static",
        "[2, 3] as [Dyn, 3]",
        &format!("Ok({before})"),
        &conversion_err(s.into_static::<shape![Dyn, 3]>()),
    );
    let m = Tensor::<i64, shape![Dyn, 3]>::from_vec_with((0..12).collect(), &[4, 3]).unwrap();
    let before = anatomy(&m);
    tally.same(
        "into_static mixed",
        "[4, 3] as [4, Dyn]",
        &format!("Ok({before})"),
        &conversion_err(m.into_static::<shape![4, Dyn]>()),
    );
    let m = Tensor::<i64, shape![Dyn, 3]>::from_vec_with((0..12).collect(), &[4, 3]).unwrap();
    tally.same(
        "into_static mixed",
        "[4, 3] as [5, Dyn]",
        &err("size 4 at dimension 0 contradicts the static size 5"),
        &conversion_err(m.into_static::<shape![5, Dyn]>()),
    );
    let m = Tensor::<i64, shape![Dyn, 3]>::from_vec_with((0..12).collect(), &[4, 3]).unwrap();
    tally.same(
        "into_static mixed",
        "[4, 3] as [3, 4]",
        &err("size 4 at dimension 0 contradicts the static size 3"),
        &conversion_err(m.into_static::<shape![3, 4]>()),
    );

    // Rank 0 and rank 1.
    let z = DynTensor::<i64>::full(&[], 7);
    let before = anatomy(&z);
    tally.same(
        "into_static rank 0",
        "[] as []",
        &format!("Ok({before})"),
        &conversion_err(z.into_static::<shape![]>()),
    );
    let z = DynTensor::<i64>::full(&[], 7);
    tally.same(
        "into_static rank 0",
        "[] as [1]",
        &err("a shape of rank 1 cannot take 0 sizes"),
        &conversion_err(z.into_static::<shape![1]>()),
    );
    let one = DynTensor::<i64>::full(&[1], 7);
    tally.same(
        "into_static rank 1",
        "[1] as []",
        &err("a shape of rank 0 cannot take 1 sizes"),
        &conversion_err(one.into_static::<shape![]>()),
    );

    // Views: the strides come along; sizes are checked, not reinterpreted.
    let x = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    let t = x.t().into_dyn(); // (3, 2), strides (1, 3)
    let before = anatomy(&t);
    let back = t.into_static::<shape![3, 2]>().unwrap();
    tally.same(
        "into_static transposed view",
        "[3, 2]",
        &before,
        &anatomy(&back),
    );
    tally.same(
        "into_static transposed view",
        "values, shares",
        "[0, 3, 1, 4, 2, 5] true",
        &format!("{:?} {}", back.to_vec(), back.shares_storage_with(&x)),
    );
    tally.same(
        "into_static transposed view",
        "[3, 2] as [2, 3]",
        &err("size 3 at dimension 0 contradicts the static size 2"),
        &conversion_err(x.t().into_dyn().into_static::<shape![2, 3]>()),
    );
    let row = DynTensor::<i64>::arange(3);
    let e = row.expand(&[2, 3]).unwrap();
    let before = anatomy(&e);
    let s = e.into_static::<shape![2, 3]>().unwrap();
    tally.same("into_static expanded view", "[2, 3]", &before, &anatomy(&s));
    tally.same(
        "into_static expanded view",
        "shares",
        "true",
        &s.shares_storage_with(&row).to_string(),
    );
    tally.finish("into_static_checks_every_size", 25);
}

/// The conversions round-trip: static -> dyn -> static and back, nothing moves.
#[test]
fn conversions_round_trip() {
    let mut tally = tally();
    let mut all = Vec::new();
    let s = Tensor::<f32, shape![2, 1, 3]>::from_vec((0..6).map(|i| i as f32).collect()).unwrap();
    all.push(anatomy(&s));
    let d = s.into_dyn();
    all.push(anatomy(&d));
    let m = d.into_static::<shape![Dyn, 1, Dyn]>().unwrap();
    all.push(anatomy(&m));
    let d = m.into_dyn();
    all.push(anatomy(&d));
    let s = d.into_static::<shape![2, 1, 3]>().unwrap();
    all.push(anatomy(&s));
    for (i, a) in all.iter().enumerate().skip(1) {
        tally.same("round trip", &format!("step {i}"), &all[0], a);
    }
    tally.finish("conversions_round_trip", 4);
}
