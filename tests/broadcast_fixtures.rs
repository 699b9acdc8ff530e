//! Broadcasting checked against PyTorch 2.15.0.
//!
//! The cases live in `tests/fixtures/broadcast.json`, recorded from PyTorch by
//! `scripts/fixtures/broadcast.py` (spec table, exercise set, random pairs).
//! For each pair of shapes `a`, `b` with `x = arange(numel(a)).reshape(a)`
//! and `y` likewise, the fixture holds PyTorch's `x + y` (shape and values,
//! or the error text) and `x.add_(y)` (values, or the error text).
//!
//! - (a) the runtime rules: [`broadcast_sizes`] and [`check_in_place`];
//! - (b) the operators on tensors with all-`Dyn` shapes of static rank 0..=6,
//!   where every check happens at run time: `&a + &b` and `x += &y`, their
//!   values and shapes, and their panics (PyTorch's texts).
//!
//! Fully static shapes (the compiler's `Broadcast<SA, SB>`) are checked by
//! the generated `tests/static_broadcast.rs`.

use serde::Deserialize;
use shaped::prelude::*;
use shaped::shape::{BroadcastInto, BroadcastShape, Shape, broadcast_sizes, check_in_place};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use crate::common;
use common::catch;

#[derive(Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

#[derive(Deserialize, Debug)]
struct Case {
    id: usize,
    group: String,
    #[serde(default)]
    name: Option<String>,
    a: Vec<usize>,
    b: Vec<usize>,
    result: Option<Vec<usize>>,
    error: Option<String>,
    values: Option<Vec<i64>>,
    in_place_error: Option<String>,
    in_place_values: Option<Vec<i64>>,
}

impl Case {
    fn label(&self) -> String {
        let name = self
            .name
            .as_deref()
            .map(|n| format!(" {n}"))
            .unwrap_or_default();
        format!(
            "case {} ({}{name}) a={:?} b={:?}",
            self.id, self.group, self.a, self.b
        )
    }
}

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let fixture: Fixture = serde_json::from_str(include_str!("fixtures/broadcast.json"))
            .expect("tests/fixtures/broadcast.json parses");
        fixture.cases
    })
}

/// Checks whose fixture the library does not match. Each entry is
/// `(case id, check)`; listed mismatches are printed, not failed, so that the
/// rest still runs. Keep it empty unless a bug is being tracked, and name
/// every entry in the report that introduces it.
const KNOWN_DIVERGENCES: &[(usize, &str)] = &[];

/// Fails on every mismatch not listed in [`KNOWN_DIVERGENCES`], all of them at
/// once; prints the listed ones. Also fails when a listed one has gone away.
fn report(check: &str, mismatches: Vec<(usize, String)>) {
    let known: BTreeSet<usize> = KNOWN_DIVERGENCES
        .iter()
        .filter(|(_, c)| *c == check)
        .map(|(id, _)| *id)
        .collect();
    let mut fresh = Vec::new();
    let mut seen = BTreeSet::new();
    for (id, msg) in mismatches {
        if known.contains(&id) {
            eprintln!("known divergence [{check}]: {msg}");
            seen.insert(id);
        } else {
            fresh.push(msg);
        }
    }
    let fixed: Vec<_> = known.difference(&seen).collect();
    assert!(
        fresh.is_empty() && fixed.is_empty(),
        "[{check}] {} mismatch(es) with PyTorch:\n{}\nlisted in KNOWN_DIVERGENCES but now matching: {fixed:?}",
        fresh.len(),
        fresh.join("\n")
    );
}

fn arange(sizes: &[usize]) -> Vec<i64> {
    (0..sizes.iter().product::<usize>() as i64).collect()
}

#[test]
fn fixture_covers_what_it_should() {
    let cases = cases();
    let mut per_group: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        assert_eq!(c.id, i, "ids are positions");
        *per_group.entry(c.group.as_str()).or_default() += 1;
        // Exactly one of result / error, values only with a result.
        assert_eq!(c.result.is_some(), c.error.is_none(), "{}", c.label());
        assert_eq!(c.result.is_some(), c.values.is_some(), "{}", c.label());
        assert_eq!(
            c.in_place_error.is_none(),
            c.in_place_values.is_some(),
            "{}",
            c.label()
        );
        if let (Some(r), Some(v)) = (&c.result, &c.values) {
            assert_eq!(r.iter().product::<usize>(), v.len(), "{}", c.label());
        }
        if let Some(v) = &c.in_place_values {
            assert_eq!(c.a.iter().product::<usize>(), v.len(), "{}", c.label());
        }
        assert!(c.a.len() <= 6 && c.b.len() <= 6, "{}", c.label());
    }
    assert_eq!(per_group.get("spec"), Some(&24));
    assert_eq!(per_group.get("exercise"), Some(&36));
    assert!(per_group["random"] >= 320, "{per_group:?}");
    assert_eq!(per_group.values().sum::<usize>(), cases.len());

    // Every row of the broadcasting table is there, with PyTorch's outcome.
    let find = |a: &[usize], b: &[usize]| {
        cases
            .iter()
            .find(|c| c.group == "spec" && c.a == a && c.b == b)
            .unwrap_or_else(|| panic!("spec case {a:?} + {b:?} missing"))
    };
    type Row<'a> = (&'a [usize], &'a [usize], Option<&'a [usize]>);
    let table: &[Row] = &[
        (&[5, 7, 3], &[5, 7, 3], Some(&[5, 7, 3])),
        (&[0], &[2, 2], None),
        (&[5, 3, 4, 1], &[3, 1, 1], Some(&[5, 3, 4, 1])),
        (&[5, 2, 4, 1], &[3, 1, 1], None),
        (&[5, 1, 4, 1], &[3, 1, 1], Some(&[5, 3, 4, 1])),
        (&[1], &[3, 1, 7], Some(&[3, 1, 7])),
        (&[3, 3], &[3], Some(&[3, 3])),
        (&[3, 1], &[1, 4], Some(&[3, 4])),
        (&[3, 2], &[1, 5], None),
        (&[2, 3, 4], &[4], Some(&[2, 3, 4])),
        (&[1, 0], &[3, 1], Some(&[3, 0])),
        (&[], &[], Some(&[])),
    ];
    for (a, b, r) in table {
        assert_eq!(find(a, b).result.as_deref(), *r, "{a:?} + {b:?}");
    }
    assert_eq!(
        find(&[1, 3, 1], &[3, 1, 7]).in_place_error.as_deref(),
        Some("output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]")
    );

    // All 36 ordered pairs of the exercise set.
    let names: BTreeSet<&str> = cases
        .iter()
        .filter(|c| c.group == "exercise")
        .map(|c| c.name.as_deref().expect("exercise cases are named"))
        .collect();
    assert_eq!(names.len(), 36);

    // All 49 pairs of ranks 0..=6.
    let ranks: BTreeSet<(usize, usize)> = cases.iter().map(|c| (c.a.len(), c.b.len())).collect();
    assert_eq!(ranks.len(), 49);
}

#[test]
fn runtime_broadcast_sizes_match_pytorch() {
    let mut bad = Vec::new();
    for c in cases() {
        let got = broadcast_sizes(&c.a, &c.b).map_err(|e| e.to_string());
        let want = match (&c.result, &c.error) {
            (Some(r), None) => Ok(r.clone()),
            (None, Some(e)) => Err(e.clone()),
            _ => unreachable!(),
        };
        if got != want {
            bad.push((
                c.id,
                format!(
                    "{}: broadcast_sizes: expected {want:?}, got {got:?}",
                    c.label()
                ),
            ));
        }
    }
    report("broadcast_sizes", bad);
}

#[test]
fn runtime_in_place_rule_matches_pytorch() {
    let mut bad = Vec::new();
    for c in cases() {
        let got = check_in_place(&c.a, &c.b).map_err(|e| e.to_string());
        let want = match &c.in_place_error {
            None => Ok(()),
            Some(e) => Err(e.clone()),
        };
        if got != want {
            bad.push((
                c.id,
                format!(
                    "{}: check_in_place: expected {want:?}, got {got:?}",
                    c.label()
                ),
            ));
        }
    }
    report("check_in_place", bad);
}

/// An all-`Dyn` shape of static rank `n`.
macro_rules! dyn_shape {
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

/// Calls `$f::<rank a shape, rank b shape>($case)` for the case's ranks:
/// the listed ranks of `a`, each with its listed ranks of `b`; other pairs go
/// to `$otherwise($case)`.
macro_rules! by_ranks {
    ($f:ident, $otherwise:ident, $case:expr; $($ra:tt => [$($rb:tt)*]),* $(,)?) => {{
        let c: &Case = $case;
        match c.a.len() {
            $($ra => match c.b.len() {
                $($rb => $f::<dyn_shape!($ra), dyn_shape!($rb)>(c),)*
                _ => $otherwise(c),
            },)*
            _ => $otherwise(c),
        }
    }};
}

fn no_such_rank(c: &Case) -> Option<String> {
    panic!("{}: ranks beyond 6 are not dispatched", c.label())
}

/// `&a + &b` on all-`Dyn` tensors, against the fixture. `None` when it agrees.
fn dyn_add<SA, SB>(c: &Case) -> Option<String>
where
    SA: BroadcastShape<SB>,
    SB: Shape,
{
    let a = Tensor::<i64, SA>::from_vec_with(arange(&c.a), &c.a).expect("a builds");
    let b = Tensor::<i64, SB>::from_vec_with(arange(&c.b), &c.b).expect("b builds");
    let got = catch(|| {
        let z = &a + &b;
        (z.shape().as_ref().to_vec(), z.to_vec())
    });
    match (got, &c.result, &c.values, &c.error) {
        (Ok((shape, values)), Some(r), Some(v), None) if &shape == r && &values == v => None,
        (Err(msg), None, None, Some(e)) if &msg == e => None,
        (got, ..) => Some(format!(
            "{}: &a + &b: expected {:?}, got {:?}",
            c.label(),
            c.result
                .as_ref()
                .map(|r| (r, c.values.as_ref()))
                .ok_or(&c.error),
            got
        )),
    }
}

/// `x += &y` on all-`Dyn` tensors (`y`'s rank at most `x`'s), against the
/// fixture. `None` when it agrees. After a panic `x` must be untouched.
fn dyn_add_assign<SX, SY>(c: &Case) -> Option<String>
where
    SX: Shape,
    SY: BroadcastInto<SX>,
{
    let mut x = Tensor::<i64, SX>::from_vec_with(arange(&c.a), &c.a).expect("x builds");
    let y = Tensor::<i64, SY>::from_vec_with(arange(&c.b), &c.b).expect("y builds");
    let got = catch(|| x += &y);
    let shape = x.shape().as_ref().to_vec();
    let values = x.to_vec();
    match (got, &c.in_place_values, &c.in_place_error) {
        (Ok(()), Some(v), None) if shape == c.a && &values == v => None,
        (Err(msg), None, Some(e)) if &msg == e && shape == c.a && values == arange(&c.a) => None,
        (got, ..) => Some(format!(
            "{}: x += &y: expected {:?}, got {:?} with x = {values:?} (shape {shape:?})",
            c.label(),
            c.in_place_values.as_ref().ok_or(&c.in_place_error),
            got
        )),
    }
}

/// `y` has more dimensions than `x`: `x += &y` does not compile even with
/// `Dyn` sizes (the static rank is enough to reject it), which is right
/// exactly when PyTorch rejects it too.
fn in_place_rank_rejected(c: &Case) -> Option<String> {
    assert!(c.b.len() > c.a.len());
    match &c.in_place_error {
        Some(_) => None,
        None => Some(format!(
            "{}: x += &y is rejected by the static ranks, but PyTorch accepts it",
            c.label()
        )),
    }
}

#[test]
fn dyn_add_matches_pytorch() {
    let mut bad = Vec::new();
    for c in cases() {
        let all = by_ranks!(dyn_add, no_such_rank, c;
            0 => [0 1 2 3 4 5 6],
            1 => [0 1 2 3 4 5 6],
            2 => [0 1 2 3 4 5 6],
            3 => [0 1 2 3 4 5 6],
            4 => [0 1 2 3 4 5 6],
            5 => [0 1 2 3 4 5 6],
            6 => [0 1 2 3 4 5 6],
        );
        if let Some(msg) = all {
            bad.push((c.id, msg));
        }
    }
    report("dyn_add", bad);
}

#[test]
fn dyn_add_assign_matches_pytorch() {
    let mut bad = Vec::new();
    let mut rank_rejected = 0;
    for c in cases() {
        if c.b.len() > c.a.len() {
            rank_rejected += 1;
        }
        let got = by_ranks!(dyn_add_assign, in_place_rank_rejected, c;
            0 => [0],
            1 => [0 1],
            2 => [0 1 2],
            3 => [0 1 2 3],
            4 => [0 1 2 3 4],
            5 => [0 1 2 3 4 5],
            6 => [0 1 2 3 4 5 6],
        );
        if let Some(msg) = got {
            bad.push((c.id, msg));
        }
    }
    assert!(rank_rejected > 0);
    report("dyn_add_assign", bad);
}
