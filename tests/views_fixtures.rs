//! The runtime view API on `DynTensor` checked against PyTorch 2.15.0,
//! character for character.
//!
//! `tests/fixtures/views.json` (`scripts/fixtures/views.py`) holds 744 cases
//! over 37 operations. Each input is
//! `torch.arange(base_numel).as_strided(sizes, strides, offset)` (int64),
//! built here the same way: `DynTensor::<i64>::arange(base_numel)` then
//! `as_strided(&sizes, &strides, offset)`; the inputs may be offset,
//! permuted, sliced with steps, expanded (stride 0), size-0 or rank-0. For
//! every case the matching `shaped` call runs on that input and its outcome
//! is compared with PyTorch's: sizes, strides, storage offset,
//! `is_contiguous()`, the row-major values (`to_vec()`), whether the result
//! shares the input's storage (`shares_storage_with` the base), and for
//! `contiguous()` whether the input itself came back (`is_borrowed()` with
//! the same layout); every piece of the split family; or PyTorch's error text.
//! `is_contiguous_in` compares the three memory formats.
//!
//! Every check compares two strings: what PyTorch did and what `shaped` did,
//! written the same way (`sizes [..] strides [..] offset .. contiguous ..
//! shares_storage .. values [..]`, or `error: <text>`). Where `shaped`
//! disagrees with PyTorch, the check stays and the case is listed in
//! [`KNOWN_DIVERGENCES`] with `shaped`'s current output: a listed case is
//! printed rather than failed, but fails as soon as `shaped`'s output changes
//! (fixed or otherwise). The error *type* (`IndexError`, `RuntimeError`,
//! `ValueError`) is Python's and is not compared: `shaped` has one error type.
//! (`x[::0]` raises Python's own `ValueError: slice step cannot be zero`
//! before ATen sees the index; `shaped` prints the same text.)
//!
//! The writable `_mut` forms compute their layouts with the same engine
//! functions; `mut_forms_agree_with_views` runs each of them, with the
//! arguments of every case of its operation, on a writable contiguous tensor
//! holding that input's sizes and values (`as_strided` has no writable form
//! to rebuild the input's own layout), and checks that it agrees with the
//! read-only form and never hands out an overlapping layout.

use serde::Deserialize;
use serde_json::Value;
use shaped::layout::is_non_overlapping;
use shaped::layout::views::SliceItem;
use shaped::prelude::*;
use shaped::storage::Repr;
use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::common;
use common::{Divergence, Tally, catch, err, no_panic};

// ---------------------------------------------------------------------------
// Divergences from PyTorch
// ---------------------------------------------------------------------------

/// Every known disagreement between `shaped` and PyTorch 2.15.0 in this file.
/// PyTorch's side is in the fixture; the test prints both.
const KNOWN_DIVERGENCES: &[Divergence] = &[
    // Not a divergence: `x[::0]` (#578) is Python's `ValueError: slice step
    // cannot be zero`, raised before ATen sees the index; `shaped` has no
    // Python layer but prints the same text, so the case is checked as any
    // other.
    // as_strided: `shaped` takes `usize` sizes, strides and storage offset,
    // so PyTorch's errors for negative ones cannot happen (by design: a
    // negative stride or offset is a compile error, not a runtime one).
    Divergence {
        checks: &["as_strided"],
        case: "#533",
        shaped: &["not expressible: as_strided takes usize arguments, not a negative stride"],
        note: "stride [-1, 1]: a type error in shaped (by design)",
    },
    Divergence {
        checks: &["as_strided"],
        case: "#535",
        shaped: &["not expressible: as_strided takes usize arguments, not a negative size"],
        note: "size [2, -1]: a type error in shaped (by design)",
    },
    Divergence {
        checks: &["as_strided"],
        case: "#536",
        shaped: &[
            "not expressible: as_strided takes usize arguments, not a negative storage offset",
        ],
        note: "storage offset -1: a type error in shaped (by design)",
    },
];

// ---------------------------------------------------------------------------
// Fixture
// ---------------------------------------------------------------------------

#[derive(Deserialize)]
struct Fixture {
    torch: String,
    cases: Vec<Case>,
}

#[derive(Deserialize, Debug)]
struct Case {
    id: usize,
    op: String,
    input: Input,
    args: Value,
    result: Option<Value>,
    results: Option<Vec<Piece>>,
    error: Option<PyError>,
}

#[derive(Deserialize, Debug)]
struct Input {
    base_numel: usize,
    sizes: Vec<usize>,
    strides: Vec<usize>,
    offset: usize,
}

/// One result tensor as PyTorch recorded it.
#[derive(Deserialize, Debug)]
struct Piece {
    sizes: Vec<usize>,
    strides: Vec<usize>,
    offset: usize,
    contiguous: bool,
    shares_storage: bool,
    values: Vec<i64>,
    same_tensor: Option<bool>,
}

#[derive(Deserialize, Debug)]
struct PyError {
    #[serde(rename = "type")]
    kind: String,
    message: String,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        serde_json::from_str(include_str!("fixtures/views.json"))
            .expect("tests/fixtures/views.json parses")
    })
}

/// The cases at the limits of size and stride arithmetic
/// (`tests/fixtures/view_limits.json`, same script): stride-0 inputs of up
/// to 2^63 - 1 elements, steps near 2^63, element counts past 2^63, counts
/// of pieces that no memory holds.
fn limits() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        serde_json::from_str(include_str!("fixtures/view_limits.json"))
            .expect("tests/fixtures/view_limits.json parses")
    })
}

impl Case {
    /// The case's name in messages and in [`KNOWN_DIVERGENCES`].
    fn name(&self) -> String {
        format!("#{}", self.id)
    }

    /// What ran, for messages.
    fn detail(&self) -> String {
        let i = &self.input;
        format!(
            "{} of sizes {:?} strides {:?} offset {} (arange({})) with {}",
            self.op, i.sizes, i.strides, i.offset, i.base_numel, self.args
        )
    }

    /// PyTorch's outcome, written as [`piece`] and [`pieces`] write `shaped`'s.
    fn expected(&self) -> String {
        if let Some(e) = &self.error {
            assert!(
                ["RuntimeError", "IndexError", "ValueError"].contains(&e.kind.as_str()),
                "case {}: unexpected error type {}",
                self.id,
                e.kind
            );
            return err(&e.message);
        }
        if let Some(results) = &self.results {
            return joined(results.iter().map(expected_piece));
        }
        let result = self.result.as_ref().expect("a result, results or error");
        if self.op == "is_contiguous_in" {
            return formats(
                result["contiguous"].as_bool().expect("a bool"),
                result["channels_last"].as_bool().expect("a bool"),
                result["channels_last_3d"].as_bool().expect("a bool"),
            );
        }
        let p: Piece = serde_json::from_value(result.clone()).expect("a result tensor");
        expected_piece(&p)
    }
}

// ---------------------------------------------------------------------------
// Outcomes as strings
// ---------------------------------------------------------------------------

fn write_piece(
    sizes: &[usize],
    strides: &[usize],
    offset: usize,
    contiguous: bool,
    shares: bool,
    values: &[i64],
    same_tensor: Option<bool>,
) -> String {
    let mut s = format!(
        "sizes {sizes:?} strides {strides:?} offset {offset} contiguous {contiguous} shares_storage {shares} values {values:?}"
    );
    if let Some(same) = same_tensor {
        s += &format!(" same_tensor {same}");
    }
    s
}

fn expected_piece(p: &Piece) -> String {
    write_piece(
        &p.sizes,
        &p.strides,
        p.offset,
        p.contiguous,
        p.shares_storage,
        &p.values,
        p.same_tensor,
    )
}

fn joined(pieces: impl Iterator<Item = String>) -> String {
    let pieces: Vec<String> = pieces.collect();
    format!("{} pieces: [{}]", pieces.len(), pieces.join(" | "))
}

fn formats(contiguous: bool, channels_last: bool, channels_last_3d: bool) -> String {
    format!(
        "contiguous {contiguous} channels_last {channels_last} channels_last_3d {channels_last_3d}"
    )
}

type Base = DynTensor<i64>;

/// A result tensor of `shaped`, its storage compared with the input's base.
fn piece<R: Repr>(t: &Tensor<i64, DynShape, Cpu, R>, base: &Base) -> String {
    let l = t.layout();
    write_piece(
        l.sizes(),
        l.strides(),
        l.offset(),
        t.is_contiguous(),
        t.shares_storage_with(base),
        &t.to_vec(),
        None,
    )
}

fn one<R: Repr>(r: Result<Tensor<i64, DynShape, Cpu, R>, String>, base: &Base) -> String {
    match r {
        Ok(t) => piece(&t, base),
        Err(e) => err(&e),
    }
}

fn pieces<R: Repr>(r: Result<Vec<Tensor<i64, DynShape, Cpu, R>>, String>, base: &Base) -> String {
    match r {
        Ok(ts) => joined(ts.iter().map(|t| piece(t, base))),
        Err(e) => err(&e),
    }
}

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

fn int(args: &Value, key: &str) -> isize {
    args[key]
        .as_i64()
        .unwrap_or_else(|| panic!("argument {key} is an int: {args}")) as isize
}

fn ints(args: &Value, key: &str) -> Vec<isize> {
    args[key]
        .as_array()
        .unwrap_or_else(|| panic!("argument {key} is a list: {args}"))
        .iter()
        .map(|v| v.as_i64().expect("an int") as isize)
        .collect()
}

/// An int or a list of ints.
fn int_or_ints(args: &Value, key: &str) -> Result<isize, Vec<isize>> {
    match &args[key] {
        Value::Array(_) => Err(ints(args, key)),
        _ => Ok(int(args, key)),
    }
}

/// `args[key]` as unsigned values, or `None` where one is negative (the
/// `usize` parameters of `as_strided` cannot take it).
fn unsigned(args: &Value, key: &str) -> Option<Vec<usize>> {
    ints(args, key)
        .into_iter()
        .map(|i| usize::try_from(i).ok())
        .collect()
}

/// PyTorch's index entry as a `SliceItem` (`s![..]` builds the same).
fn slice_item(v: &Value) -> SliceItem {
    if let Some(i) = v.get("int") {
        return SliceItem::Index(i.as_i64().expect("an int") as isize);
    }
    if let Some(s) = v.get("slice") {
        let part = |k: usize| s[k].as_i64().map(|i| i as isize);
        return SliceItem::Range {
            start: part(0).unwrap_or(0),
            end: part(1),
            step: part(2).unwrap_or(1),
        };
    }
    if v.get("none").is_some() {
        return SliceItem::NewAxis;
    }
    if v.get("ellipsis").is_some() {
        return SliceItem::Ellipsis;
    }
    panic!("unknown index entry {v}")
}

/// The case's index (`args["index"]`) as `SliceItem`s.
fn slice_items(args: &Value) -> Vec<SliceItem> {
    args["index"]
        .as_array()
        .expect("an index list")
        .iter()
        .map(slice_item)
        .collect()
}

fn memory_format(name: &str) -> MemoryFormat {
    match name {
        "contiguous" => MemoryFormat::Contiguous,
        "channels_last" => MemoryFormat::ChannelsLast,
        "channels_last_3d" => MemoryFormat::ChannelsLast3d,
        other => panic!("unknown memory format {other}"),
    }
}

// ---------------------------------------------------------------------------
// Running a case
// ---------------------------------------------------------------------------

/// The operations of each test.
const LAYOUT_OPS: &[&str] = &[
    "view",
    "reshape",
    "flatten",
    "unflatten",
    "transpose",
    "swapaxes",
    "swapdims",
    "t",
    "mT",
    "permute",
    "movedim",
    "expand",
    "narrow",
    "select",
    "squeeze",
    "squeeze_dim",
    "squeeze_dims",
    "unsqueeze",
    "diagonal",
    "unfold",
    "as_strided",
    "slice",
];
const SPLIT_OPS: &[&str] = &[
    "unbind",
    "split",
    "split_with_sizes",
    "chunk",
    "tensor_split",
    "tensor_split_indices",
    "hsplit",
    "hsplit_indices",
    "vsplit",
    "vsplit_indices",
];
const COPY_OPS: &[&str] = &[
    "contiguous",
    "clone_preserve",
    "contiguous_format",
    "is_contiguous_in",
    "detach",
];

/// `shaped`'s outcome for a case, written as [`Case::expected`] writes
/// PyTorch's.
fn run(case: &Case) -> String {
    let i = &case.input;
    let base = Base::arange(i.base_numel);
    let x = base
        .as_strided(&i.sizes, &i.strides, i.offset)
        .unwrap_or_else(|e| panic!("the input of case #{} does not build: {e}", case.id));
    let a = &case.args;
    let b = &base;
    match case.op.as_str() {
        "view" => one(no_panic(|| x.view(&ints(a, "sizes"))), b),
        "reshape" => one(no_panic(|| x.reshape(&ints(a, "sizes"))), b),
        "flatten" => one(
            no_panic(|| x.flatten(int(a, "start_dim"), int(a, "end_dim"))),
            b,
        ),
        "unflatten" => one(
            no_panic(|| x.unflatten(int(a, "dim"), &ints(a, "sizes"))),
            b,
        ),
        "transpose" => one(no_panic(|| x.transpose(int(a, "dim0"), int(a, "dim1"))), b),
        "swapaxes" => one(no_panic(|| x.swapaxes(int(a, "dim0"), int(a, "dim1"))), b),
        "swapdims" => one(no_panic(|| x.swapdims(int(a, "dim0"), int(a, "dim1"))), b),
        "t" => one(no_panic(|| x.t()), b),
        "mT" => one(no_panic(|| x.mt()), b),
        "permute" => one(no_panic(|| x.permute(&ints(a, "dims"))), b),
        "movedim" => match (int_or_ints(a, "source"), int_or_ints(a, "destination")) {
            (Ok(s), Ok(d)) => one(no_panic(|| x.movedim(s, d)), b),
            (s, d) => {
                let list = |v: Result<isize, Vec<isize>>| v.map_or_else(|l| l, |i| vec![i]);
                let (s, d) = (list(s), list(d));
                one(no_panic(|| x.movedims(&s, &d)), b)
            }
        },
        "expand" => one(no_panic(|| x.expand(&ints(a, "sizes"))), b),
        "narrow" => one(
            no_panic(|| x.narrow(int(a, "dim"), int(a, "start"), int(a, "length"))),
            b,
        ),
        "select" => one(no_panic(|| x.select(int(a, "dim"), int(a, "index"))), b),
        "squeeze" => one(no_panic(|| x.squeeze()), b),
        "squeeze_dim" => one(no_panic(|| x.squeeze_dim(int(a, "dim"))), b),
        "squeeze_dims" => one(no_panic(|| x.squeeze_dims(&ints(a, "dims"))), b),
        "unsqueeze" => one(no_panic(|| x.unsqueeze(int(a, "dim"))), b),
        "diagonal" => one(
            no_panic(|| x.diagonal(int(a, "offset"), int(a, "dim1"), int(a, "dim2"))),
            b,
        ),
        "unfold" => one(
            no_panic(|| x.unfold(int(a, "dimension"), int(a, "size"), int(a, "step"))),
            b,
        ),
        "as_strided" => {
            let offset = usize::try_from(int(a, "storage_offset")).ok();
            let negative = |what: &str| {
                format!("not expressible: as_strided takes usize arguments, not a negative {what}")
            };
            match (unsigned(a, "size"), unsigned(a, "stride"), offset) {
                (Some(size), Some(stride), Some(offset)) => {
                    one(no_panic(|| x.as_strided(&size, &stride, offset)), b)
                }
                (None, _, _) => negative("size"),
                (_, None, _) => negative("stride"),
                (_, _, None) => negative("storage offset"),
            }
        }
        "slice" => {
            let items = slice_items(a);
            one(no_panic(|| x.slice(&items)), b)
        }
        "unbind" => pieces(no_panic(|| x.unbind(int(a, "dim"))), b),
        "split" => pieces(no_panic(|| x.split(int(a, "split_size"), int(a, "dim"))), b),
        "split_with_sizes" => pieces(
            no_panic(|| x.split_with_sizes(&ints(a, "split_sizes"), int(a, "dim"))),
            b,
        ),
        "chunk" => pieces(no_panic(|| x.chunk(int(a, "chunks"), int(a, "dim"))), b),
        "tensor_split" => pieces(
            no_panic(|| x.tensor_split(int(a, "sections"), int(a, "dim"))),
            b,
        ),
        "tensor_split_indices" => pieces(
            no_panic(|| x.tensor_split_indices(&ints(a, "indices"), int(a, "dim"))),
            b,
        ),
        "hsplit" => pieces(no_panic(|| x.hsplit(int(a, "sections"))), b),
        "hsplit_indices" => pieces(no_panic(|| x.hsplit_indices(&ints(a, "indices"))), b),
        "vsplit" => pieces(no_panic(|| x.vsplit(int(a, "sections"))), b),
        "vsplit_indices" => pieces(no_panic(|| x.vsplit_indices(&ints(a, "indices"))), b),
        "contiguous" => match no_panic(|| x.try_contiguous_in(MemoryFormat::Contiguous)) {
            Ok(c) => {
                // PyTorch returns the input itself when it is contiguous.
                let same = c.is_borrowed()
                    && c.layout().strides() == x.layout().strides()
                    && c.layout().offset() == x.layout().offset();
                let p = piece(&c, b);
                let infallible = piece(&x.contiguous(), b);
                if infallible != p {
                    return format!("contiguous() and try_contiguous_in differ: {infallible}");
                }
                format!("{p} same_tensor {same}")
            }
            Err(e) => err(&e),
        },
        "clone_preserve" => {
            let r = one(no_panic(|| x.try_clone()), b);
            let infallible = one(catch(|| x.clone()), b);
            if infallible != r {
                return format!("clone() and try_clone() differ: {infallible}");
            }
            r
        }
        "contiguous_format" => {
            let format = memory_format(a["format"].as_str().expect("a format name"));
            one(no_panic(|| x.try_contiguous_in(format)), b)
        }
        "is_contiguous_in" => formats(
            x.is_contiguous_in(MemoryFormat::Contiguous),
            x.is_contiguous_in(MemoryFormat::ChannelsLast),
            x.is_contiguous_in(MemoryFormat::ChannelsLast3d),
        ),
        "detach" => piece(&x.detach(), b),
        other => panic!("operation {other} is not dispatched"),
    }
}

/// A tally against [`KNOWN_DIVERGENCES`].
fn tally() -> Tally {
    Tally::new(KNOWN_DIVERGENCES, 600)
}

fn check_ops(test: &str, ops: &[&str], min_checks: usize) {
    let f = fixture();
    let mut tally = tally();
    for case in f.cases.iter().filter(|c| ops.contains(&c.op.as_str())) {
        let got = run(case);
        tally
            .detailed(&case.detail())
            .check(&case.op, &case.name(), &case.expected(), &got);
    }
    tally.finish(test, min_checks);
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn fixture_is_what_the_tests_expect() {
    let f = fixture();
    assert!(f.torch.starts_with("2.15.0"), "{}", f.torch);
    assert_eq!(f.cases.len(), 744);
    let ops: BTreeSet<&str> = f.cases.iter().map(|c| c.op.as_str()).collect();
    assert_eq!(ops.len(), 37);
    for op in &ops {
        assert!(
            LAYOUT_OPS.contains(op) || SPLIT_OPS.contains(op) || COPY_OPS.contains(op),
            "operation {op} is in no test"
        );
    }
    for (i, case) in f.cases.iter().enumerate() {
        assert_eq!(case.id, i);
        let outcomes = [
            case.result.is_some(),
            case.results.is_some(),
            case.error.is_some(),
        ];
        assert_eq!(outcomes.iter().filter(|&&o| o).count(), 1, "case {i}");
    }
    for d in KNOWN_DIVERGENCES {
        let id: usize = d.case[1..].parse().expect("a case named #id");
        let case = &f.cases[id];
        assert!(
            d.checks.contains(&case.op.as_str()),
            "{} is a {} case",
            d.case,
            case.op
        );
    }
}

#[test]
fn limits_match_pytorch() {
    let f = limits();
    assert!(f.torch.starts_with("2.15.0"), "{}", f.torch);
    assert_eq!(f.cases.len(), 46);
    // No known divergence here: each case is checked as it is.
    let mut tally = Tally::new(&[], 600);
    for (i, case) in f.cases.iter().enumerate() {
        assert_eq!(case.id, i);
        let got = run(case);
        tally
            .detailed(&case.detail())
            .check(&case.op, &case.name(), &case.expected(), &got);
    }
    tally.finish("limits_match_pytorch", 46);
}

#[test]
fn layout_views_match_pytorch() {
    check_ops("layout_views_match_pytorch", LAYOUT_OPS, 400);
}

#[test]
fn splits_match_pytorch() {
    check_ops("splits_match_pytorch", SPLIT_OPS, 150);
}

#[test]
fn copies_and_memory_formats_match_pytorch() {
    check_ops("copies_and_memory_formats_match_pytorch", COPY_OPS, 140);
}

/// Layout, values or error of a view, for comparing two forms of one call.
fn layout_values<R: Repr>(r: &Result<Tensor<i64, DynShape, Cpu, R>, String>) -> String {
    match r {
        Ok(t) => {
            let l = t.layout();
            format!(
                "sizes {:?} strides {:?} offset {} values {:?}",
                l.sizes(),
                l.strides(),
                l.offset(),
                t.to_vec()
            )
        }
        Err(e) => err(e),
    }
}

/// The `_mut` form's outcome (and whether its layout is non-overlapping).
fn mut_outcome(r: Result<TensorViewMut<'_, i64, DynShape>, String>) -> (String, bool) {
    let overlap_free = r
        .as_ref()
        .map(|t| is_non_overlapping(t.layout().sizes(), t.layout().strides()))
        .unwrap_or(true);
    (layout_values(&r), overlap_free)
}

#[test]
fn mut_forms_agree_with_views() {
    let f = fixture();
    let mut tally = tally();
    for case in &f.cases {
        let i = &case.input;
        let base = Base::arange(i.base_numel);
        let x = base
            .as_strided(&i.sizes, &i.strides, i.offset)
            .expect("the input builds");
        // A writable tensor with the input's sizes and elements.
        let mut w = Base::from_vec(x.to_vec(), x.layout().sizes()).expect("from_vec");
        let a = &case.args;
        let (view, (got, overlap_free)) = match case.op.as_str() {
            "view" => (
                layout_values(&no_panic(|| w.view(&ints(a, "sizes")))),
                mut_outcome(no_panic(|| w.view_mut_as(&ints(a, "sizes")))),
            ),
            "transpose" => (
                layout_values(&no_panic(|| w.transpose(int(a, "dim0"), int(a, "dim1")))),
                mut_outcome(no_panic(|| w.transpose_mut(int(a, "dim0"), int(a, "dim1")))),
            ),
            "permute" => (
                layout_values(&no_panic(|| w.permute(&ints(a, "dims")))),
                mut_outcome(no_panic(|| w.permute_mut(&ints(a, "dims")))),
            ),
            "narrow" => {
                let (d, s, l) = (int(a, "dim"), int(a, "start"), int(a, "length"));
                (
                    layout_values(&no_panic(|| w.narrow(d, s, l))),
                    mut_outcome(no_panic(|| w.narrow_mut(d, s, l))),
                )
            }
            "select" => (
                layout_values(&no_panic(|| w.select(int(a, "dim"), int(a, "index")))),
                mut_outcome(no_panic(|| w.select_mut(int(a, "dim"), int(a, "index")))),
            ),
            "squeeze" => (
                layout_values(&no_panic(|| w.squeeze())),
                mut_outcome(no_panic(|| w.squeeze_mut())),
            ),
            "unsqueeze" => (
                layout_values(&no_panic(|| w.unsqueeze(int(a, "dim")))),
                mut_outcome(no_panic(|| w.unsqueeze_mut(int(a, "dim")))),
            ),
            "diagonal" => {
                let (o, d1, d2) = (int(a, "offset"), int(a, "dim1"), int(a, "dim2"));
                (
                    layout_values(&no_panic(|| w.diagonal(o, d1, d2))),
                    mut_outcome(no_panic(|| w.diagonal_mut(o, d1, d2))),
                )
            }
            "slice" => {
                let items = slice_items(a);
                (
                    layout_values(&no_panic(|| w.slice(&items))),
                    mut_outcome(no_panic(|| w.slice_mut(&items))),
                )
            }
            _ => continue,
        };
        let (name, detail) = (case.name(), case.detail());
        let mut checks = tally.detailed(&detail);
        checks.same(&format!("{}_mut", case.op), &name, &view, &got);
        checks.same(
            &format!("{}_mut overlap", case.op),
            &name,
            "non-overlapping",
            if overlap_free {
                "non-overlapping"
            } else {
                "overlapping"
            },
        );
    }
    tally.finish("mut_forms_agree_with_views", 300);
}
