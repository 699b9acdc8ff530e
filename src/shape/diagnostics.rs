//! The texts of the compile errors that shape rules produce.
//!
//! Each error is a trait that nothing implements, with an
//! `#[diagnostic::on_unimplemented]` message. rustc prints const generic
//! arguments as numbers, so sizes appear in decimal: the family macro makes one
//! message trait per pair of digit counts, whose const parameters are the
//! digits. The `ui-tests/fail` cases show every message in context.

use super::dim::Dec;

shaped_macros::size_mismatch_diagnostic! {
    family: BroadcastMismatch,
    message: "cannot broadcast: the size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {i}",
    label: "these shapes do not broadcast: size {a} vs size {b} at dimension {i}",
    note: "two shapes broadcast when, from the last dimension backwards, each pair of sizes is equal or one of them is 1",
}

shaped_macros::size_mismatch_diagnostic! {
    family: IndexBroadcastMismatch,
    message: "shape mismatch: indexing tensors could not be broadcast together: size {a} vs size {b} at dimension {i}",
    label: "these index tensors do not broadcast: size {a} vs size {b} at dimension {i} of their broadcast shape",
    note: "the index tensors of one index broadcast together, as the operands of `+` do",
}

shaped_macros::size_mismatch_diagnostic! {
    family: MaskShapeMismatch,
    message: "the shape of the mask does not match the shape of the indexed tensor: size {a} vs size {b} at the mask's dimension {i}",
    label: "the mask has size {a} where the dimension it covers has size {b} (its dimension {i})",
    note: "a mask of rank r covers r dimensions of the tensor and must have their sizes",
}

shaped_macros::size_mismatch_diagnostic! {
    family: InPlaceMismatch,
    message: "an in-place operation cannot change the shape of its output: size {b} does not broadcast to the output's size {a} at dimension {i}",
    label: "size {b} does not broadcast to the output's size {a} at dimension {i}",
    note: "in `x op= y`, `y` must broadcast to `x`'s shape: each of its sizes must equal `x`'s or be 1",
}

shaped_macros::size_mismatch_diagnostic! {
    family: ExpandMismatch,
    message: "cannot expand: the expanded size of the tensor ({a}) must match the existing size ({b}) at non-singleton dimension {i}",
    label: "size {b} cannot be expanded to size {a} at dimension {i}",
    note: "`expand` can only stretch dimensions of size 1 and add new leading dimensions",
}

shaped_macros::size_mismatch_diagnostic! {
    family: ViewNumelMismatch,
    message: "cannot view or reshape: the new shape has {a} elements, the tensor has {b}",
    label: "{a} elements cannot hold the tensor's {b}",
    note: "`view` and `reshape` keep every element: the product of the new sizes must equal the old one",
}

shaped_macros::size_mismatch_diagnostic! {
    family: IndexOutOfBounds,
    message: "index {a} is out of bounds for a dimension of size {b}",
    label: "valid indices are -{b} <= i < {b}",
}

shaped_macros::size_mismatch_diagnostic! {
    family: IndexFromEndOutOfBounds,
    message: "index -{a} is out of bounds for a dimension of size {b}",
    label: "valid indices are -{b} <= i < {b}",
}

shaped_macros::size_mismatch_diagnostic! {
    family: NarrowTooLong,
    message: "cannot narrow to length {a}: the dimension has size {b}",
    label: "`narrow::<DIM, LEN>` needs LEN no larger than the dimension's size ({b})",
}

/// The in-place rule when the operand has more dimensions than the output.
#[diagnostic::on_unimplemented(
    message = "an in-place operation cannot change the shape of its output: the other operand has {EXTRA} more dimension(s) than the output",
    label = "the other operand has more dimensions than the output",
    note = "in `x op= y`, `y` must broadcast to `x`'s shape, so it cannot have more dimensions than `x`"
)]
pub trait InPlaceRankMismatch<const EXTRA: u8> {}

/// `expand` to fewer dimensions than the tensor has.
#[diagnostic::on_unimplemented(
    message = "cannot expand: the tensor has {EXTRA} more dimension(s) than the target shape",
    label = "the target shape has fewer dimensions than the tensor",
    note = "`expand` can only stretch dimensions of size 1 and add new leading dimensions"
)]
pub trait ExpandRankMismatch<const EXTRA: u8> {}

/// Routes `Dec<extra>` to [`InPlaceRankMismatch`].
pub trait InPlaceRankReport {}
impl<const EXTRA: u8> InPlaceRankReport for Dec<EXTRA> where (): InPlaceRankMismatch<EXTRA> {}

/// Routes `Dec<extra>` to [`ExpandRankMismatch`].
pub trait ExpandRankReport {}
impl<const EXTRA: u8> ExpandRankReport for Dec<EXTRA> where (): ExpandRankMismatch<EXTRA> {}

shaped_macros::size_mismatch_diagnostic! {
    family: BmmBatchMismatch,
    message: "bmm: the batch sizes differ: {a} vs {b}",
    label: "`bmm` multiplies batches of the same size: {a} vs {b}",
    note: "`matmul` broadcasts batch dimensions; `bmm` does not",
}

shaped_macros::size_mismatch_diagnostic! {
    family: MatmulInnerMismatch,
    message: "matmul: the inner dimensions differ: a's last dimension has size {a}, b's contracted dimension has size {b}",
    label: "these shapes cannot be multiplied: size {a} vs size {b}",
    note: "in `a.matmul(&b)`, a's last dimension must equal b's second-to-last dimension (its only one if b is 1-d)",
}

shaped_macros::size_mismatch_diagnostic! {
    family: GatherIndexTooLarge,
    message: "cannot gather: the index's size {a} is larger than the input's size {b} at dimension {i}",
    label: "the index has size {a} where the input has {b} (dimension {i})",
    note: "`gather` reads along one dimension; on every other the index may be no larger than the input",
}

shaped_macros::size_mismatch_diagnostic! {
    family: ScatterIndexTooLarge,
    message: "cannot scatter: the index's size {a} is larger than the tensor's size {b} at dimension {i}",
    label: "the index has size {a} where the tensor has {b} (dimension {i})",
    note: "`scatter` writes along one dimension; on every other the index may be no larger than the tensor",
}

shaped_macros::size_mismatch_diagnostic! {
    family: ScatterSourceTooSmall,
    message: "cannot scatter: the index's size {a} is larger than the source's size {b} at dimension {i}",
    label: "the index has size {a} where the source has {b} (dimension {i})",
    note: "each index position sends the source's element at the same position: the source must be at least as large",
}

shaped_macros::size_mismatch_diagnostic! {
    family: IndexSourceMismatch,
    message: "the source's size {a} should be {b} at dimension {i}",
    label: "`index_add` and `index_copy` take a source of the tensor's shape, with the index's length along the dim (size {b} at dimension {i}, not {a})",
}

shaped_macros::size_mismatch_diagnostic! {
    family: SelectTooMany,
    message: "cannot select {a} elements along dimension {i}: it has only {b}",
    label: "`topk::<K, DIM>` and `kthvalue::<K, DIM>` need K no larger than the size of dimension DIM ({b})",
    note: "PyTorch raises \"selected index k out of range\" (topk) or \"kthvalue(): selected number k out of range for dimension\" here",
}
