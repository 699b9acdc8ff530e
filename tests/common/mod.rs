//! What the fixture tests share: a tally of checks against PyTorch's
//! outcomes with a table of known divergences, and panic capture.
//!
//! Each test file has `mod common;` and uses what it needs of this.

#![allow(dead_code, unused_macros, unused_imports)]

#[macro_use]
pub mod tensors;

use std::cell::Cell;
use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

// ---------------------------------------------------------------------------
// Divergences from PyTorch
// ---------------------------------------------------------------------------

/// A case whose outcome differs from PyTorch's, with `shaped`'s output as it
/// is now (the whole outcome string, exactly).
pub struct Divergence {
    /// The checks (as named in the failure messages) that see it.
    pub checks: &'static [&'static str],
    /// The fixture case.
    pub case: &'static str,
    /// What `shaped` gives now (more than one where it depends on the build
    /// profile: arithmetic overflow panics with `overflow-checks` on, the
    /// default of debug builds, and wraps without).
    pub shaped: &'static [&'static str],
    /// Why, in a few words.
    pub note: &'static str,
}

// ---------------------------------------------------------------------------
// Tally: every check goes through here
// ---------------------------------------------------------------------------

/// Counts checks and collects the failures of one test.
pub struct Tally {
    /// The test file's known divergences.
    known: &'static [Divergence],
    /// How much of an outcome the messages show.
    max_outcome: usize,
    checked: usize,
    failures: Vec<String>,
    /// `(check, case)` of every failure.
    failed: BTreeSet<(String, String)>,
    known_seen: BTreeSet<(String, String)>,
    checks_used: BTreeSet<String>,
}

/// What a check compares `shaped`'s outcome with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Against {
    /// PyTorch's outcome: known divergences apply.
    PyTorch,
    /// `shaped`'s own (another form of the operation, or a rule).
    Itself,
}

/// A [`Tally`] whose checks name what ran in their messages.
pub struct Detailed<'t> {
    tally: &'t mut Tally,
    detail: &'t str,
}

impl Detailed<'_> {
    /// [`Tally::check`], with the detail.
    pub fn check(&mut self, check: &str, case: &str, expected: &str, got: &str) {
        let detail = self.detail;
        self.tally
            .compare(Against::PyTorch, check, case, detail, expected, got);
    }

    /// [`Tally::same`], with the detail.
    pub fn same(&mut self, check: &str, case: &str, expected: &str, got: &str) {
        let detail = self.detail;
        self.tally
            .compare(Against::Itself, check, case, detail, expected, got);
    }
}

/// The start of a long outcome (its first `max` bytes), for messages.
fn short(s: &str, max: usize) -> String {
    if s.len() <= max {
        s.to_string()
    } else {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}.. ({} more bytes)", &s[..end], s.len() - end)
    }
}

/// ` <detail>`, or nothing where there is none.
fn spaced(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(" {detail}")
    }
}

impl Tally {
    /// A tally against `known` (the test file's `KNOWN_DIVERGENCES`), whose
    /// messages show the first `max_outcome` bytes of each outcome.
    pub fn new(known: &'static [Divergence], max_outcome: usize) -> Tally {
        Tally {
            known,
            max_outcome,
            checked: 0,
            failures: Vec::new(),
            failed: BTreeSet::new(),
            known_seen: BTreeSet::new(),
            checks_used: BTreeSet::new(),
        }
    }

    fn short(&self, s: &str) -> String {
        short(s, self.max_outcome)
    }

    fn fail(&mut self, check: &str, case: &str, message: String) {
        self.failed.insert((check.to_string(), case.to_string()));
        self.failures.push(message);
    }

    /// One check: `expected` is PyTorch's outcome, `got` `shaped`'s.
    pub fn check(&mut self, check: &str, case: &str, expected: &str, got: &str) {
        self.compare(Against::PyTorch, check, case, "", expected, got);
    }

    /// A check of `shaped` against itself (two forms of one operation) or
    /// against a rule with no PyTorch counterpart: never a known divergence.
    pub fn same(&mut self, check: &str, case: &str, expected: &str, got: &str) {
        self.compare(Against::Itself, check, case, "", expected, got);
    }

    /// The same checks with `detail` (what ran) in their messages.
    pub fn detailed<'t>(&'t mut self, detail: &'t str) -> Detailed<'t> {
        Detailed {
            tally: self,
            detail,
        }
    }

    fn compare(
        &mut self,
        against: Against,
        check: &str,
        case: &str,
        detail: &str,
        expected: &str,
        got: &str,
    ) {
        self.checked += 1;
        let detail = spaced(detail);
        if against == Against::Itself {
            if expected != got {
                let message = format!(
                    "[{check}] {case}:{detail}\n  expected: {}\n  got:      {}",
                    self.short(expected),
                    self.short(got)
                );
                self.fail(check, case, message);
            }
            return;
        }
        self.checks_used.insert(check.to_string());
        let known = self
            .known
            .iter()
            .find(|d| d.case == case && d.checks.contains(&check));
        match (expected == got, known) {
            (true, None) => {}
            (true, Some(_)) => {
                let message = format!(
                    "[{check}] {case}: listed in KNOWN_DIVERGENCES but now agrees with PyTorch:{detail}\n  {}",
                    self.short(got)
                );
                self.fail(check, case, message);
            }
            (false, Some(d)) if d.shaped.contains(&got) => {
                eprintln!(
                    "known divergence [{check}] {case}{detail} ({}):\n  PyTorch: {}\n  shaped:  {}",
                    d.note,
                    self.short(expected),
                    self.short(got)
                );
                self.known_seen
                    .insert((check.to_string(), case.to_string()));
            }
            (false, Some(d)) => {
                let message = format!(
                    "[{check}] {case}: listed divergence changed:{detail}\n  PyTorch: {}\n  listed:  {}\n  shaped:  {}",
                    self.short(expected),
                    d.shaped
                        .iter()
                        .map(|s| self.short(s))
                        .collect::<Vec<_>>()
                        .join("\n  or:      "),
                    self.short(got)
                );
                self.fail(check, case, message);
            }
            (false, None) => {
                let message = format!(
                    "[{check}] {case}:{detail}\n  PyTorch: {}\n  shaped:  {}",
                    self.short(expected),
                    self.short(got)
                );
                self.fail(check, case, message);
            }
        }
    }

    /// Fails on every failure at once; also when a listed divergence of the
    /// checks run here was never met (a renamed or removed case).
    pub fn finish(mut self, test: &str, min_checks: usize) {
        for d in self.known {
            for check in d.checks {
                let key = (check.to_string(), d.case.to_string());
                if self.checks_used.contains(*check)
                    && !self.known_seen.contains(&key)
                    && !self.failed.contains(&key)
                {
                    self.failures.push(format!(
                        "[{check}] {}: listed in KNOWN_DIVERGENCES but no such case was checked",
                        d.case
                    ));
                }
            }
        }
        eprintln!(
            "{test}: {} checks, {} known divergences, {} failures",
            self.checked,
            self.known_seen.len(),
            self.failures.len()
        );
        assert!(
            self.checked >= min_checks,
            "{test}: only {} checks ran (expected at least {min_checks})",
            self.checked
        );
        assert!(
            self.failures.is_empty(),
            "{test}: {} mismatch(es):\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------

/// An error, as outcomes write it.
pub fn err(text: &str) -> String {
    format!("error: {text}")
}

// ---------------------------------------------------------------------------
// Panics
// ---------------------------------------------------------------------------

thread_local! {
    /// Set while a panic may come, so that the hook keeps quiet about it.
    static EXPECTING_PANIC: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, returning its panic message (`panic!("{e}")` in the library).
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !EXPECTING_PANIC.with(Cell::get) {
                default(info);
            }
        }));
    });
    EXPECTING_PANIC.with(|e| e.set(true));
    let out = panic::catch_unwind(AssertUnwindSafe(f));
    EXPECTING_PANIC.with(|e| e.set(false));
    out.map_err(|payload| {
        if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else {
            "<panic without a text>".to_string()
        }
    })
}

/// A fallible call that should not panic: `Err` with the error's text, or
/// with `panicked: <message>` when it panics all the same (so that one
/// library panic fails one check, not the whole test).
pub fn no_panic<R>(f: impl FnOnce() -> Result<R, shaped::Error>) -> Result<R, String> {
    match catch(f) {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(e.to_string()),
        Err(message) => Err(format!("panicked: {message}")),
    }
}

// ---------------------------------------------------------------------------
// Fixture values
// ---------------------------------------------------------------------------

/// A fixture's number: JSON numbers, bools as 0 and 1, and the texts
/// `"nan"`, `"inf"` and `"-inf"` the fixtures write for floats that are not
/// finite.
pub fn number(v: &serde_json::Value) -> f64 {
    use serde_json::Value;
    match v {
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => panic!("bad number {s}"),
        },
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => v.as_f64().expect("a number"),
    }
}

/// The distance in units in the last place between two values of a real
/// floating dtype (0 for two NaNs or two equal infinities).
pub fn ulps(dtype: shaped::DType, a: f64, b: f64) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    // Bits as a monotonic integer line (negative values mirrored).
    let line = |bits: i64, sign_bit: i64| {
        if bits & sign_bit != 0 {
            -(bits & !sign_bit)
        } else {
            bits
        }
    };
    let (x, y) = match dtype {
        shaped::DType::F16 => {
            let f = |v: f64| line(i64::from(half::f16::from_f64(v).to_bits()), 1 << 15);
            (f(a), f(b))
        }
        shaped::DType::BF16 => {
            let f = |v: f64| line(i64::from(half::bf16::from_f64(v).to_bits()), 1 << 15);
            (f(a), f(b))
        }
        shaped::DType::F32 => {
            let f = |v: f64| line(i64::from((v as f32).to_bits()), 1 << 31);
            (f(a), f(b))
        }
        _ => {
            let f = |v: f64| line(v.to_bits() as i64, i64::MIN);
            (f(a), f(b))
        }
    };
    x.abs_diff(y)
}
