//! The one error type of `shaped`, and the one home of its texts.
//!
//! Where PyTorch has a message for the same mistake, [`Error`]'s `Display`
//! prints PyTorch's exact text, so a search for it finds PyTorch's answers.

mod matmul;

pub use matmul::MatmulError;

use crate::dtype::DType;
use core::fmt;

/// Everything that can go wrong at run time.
///
/// ```
/// use shaped::prelude::*;
/// let err = Tensor::<i64, shape![3, 3]>::from_vec(vec![0; 8]).unwrap_err();
/// assert_eq!(err.to_string(), "shape '[3, 3]' is invalid for input of size 8");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Two shapes do not broadcast; `dim` counts from the left of the result.
    BroadcastMismatch {
        /// The size of the left operand.
        size_a: usize,
        /// The size of the right operand.
        size_b: usize,
        /// The dimension of the broadcast result.
        dim: usize,
    },
    /// An in-place result that cannot be stored in its output (PyTorch's
    /// `canCast`: floating into integer, complex into real, non-bool into
    /// bool).
    CastForbidden {
        /// The result type.
        from: DType,
        /// The output's type.
        to: DType,
    },
    /// A `DynShape` operand turned out to have rank 0, and PyTorch's
    /// promotion gives another element type than the one the compiler chose
    /// treating it as dimensioned.
    RuntimeRankPromotion {
        /// The left operand's dtype and rank.
        lhs: (DType, usize),
        /// The right operand's dtype and rank.
        rhs: (DType, usize),
        /// What PyTorch gives.
        pytorch: DType,
        /// The static result type.
        chosen: DType,
    },
    /// `AnyTensor::downcast` to another element type than the tensor's.
    DTypeMismatch {
        /// The type asked for.
        expected: DType,
        /// The tensor's type.
        actual: DType,
    },
    /// A runtime-typed tensor ([`AnyTensor`](crate::AnyTensor), or one read
    /// from a file) converted to a typed one whose dtype or shape differs.
    TypedMismatch {
        /// The typed tensor's dtype.
        expected_dtype: DType,
        /// The typed tensor's shape, in words (`[768, 3072]`, `[Dyn, 3]`).
        expected_shape: String,
        /// The tensor's dtype.
        actual_dtype: DType,
        /// The tensor's sizes.
        actual_shape: Vec<usize>,
        /// Whether the sizes contradict the typed shape.
        shape_differs: bool,
    },
    /// A file or byte stream that could not be read or written (see
    /// [`crate::io`]): which one, and what was wrong with it.
    File {
        /// The file's path, or a name for the bytes (`"<bytes>"`).
        path: String,
        /// What went wrong, in words.
        problem: String,
    },
    /// `-` with a bool operand (PyTorch has no bool subtraction).
    BoolSubtraction {
        /// Both operands are bool.
        both: bool,
    },
    /// An operation PyTorch has no kernel for on this dtype (`lt` of
    /// complex values).
    NotImplementedFor {
        /// PyTorch's kernel name (`lt_cpu`).
        op: &'static str,
        /// The dtype.
        dtype: DType,
    },
    /// An in-place operation would change its output's shape.
    InPlaceShape {
        /// The output's shape.
        output: Vec<usize>,
        /// The shape both operands broadcast to.
        broadcast: Vec<usize>,
    },
    /// `expand` to a size that differs from an existing size other than 1.
    ExpandMismatch {
        /// The requested sizes (`-1` keeps a size).
        target: Vec<isize>,
        /// The tensor's sizes.
        existing: Vec<usize>,
        /// The dimension of the target that clashes.
        dim: usize,
    },
    /// `expand` to fewer dimensions than the tensor has.
    ExpandRank {
        /// The tensor's element type.
        dtype: DType,
        /// The tensor's sizes.
        existing: Vec<usize>,
        /// The requested sizes.
        target: Vec<isize>,
    },
    /// `expand` with `-1` for a new leading dimension.
    ExpandLeadingMinusOne {
        /// The dimension.
        dim: usize,
    },
    /// Sizes whose element count does not fit in `usize`.
    StorageOverflow {
        /// The sizes.
        sizes: Vec<usize>,
    },
    /// A layout whose element count does not fit in `isize` (an `expand`,
    /// `unfold` or `as_strided` of stride-0 dimensions).
    NumelOverflow,
    /// A writable layout with two indices on one element.
    InternalOverlap,
    /// More pieces of a split than memory can list (PyTorch's failure to
    /// build the `std::vector` of them).
    PieceCount {
        /// Past the vector's `max_size()` (else its allocation failed).
        too_long: bool,
    },
    /// Row-major strides that do not fit in `usize`.
    StrideOverflow,
    /// The allocator could not provide a buffer.
    OutOfMemory {
        /// The bytes asked for.
        bytes: usize,
    },
    /// A number of elements does not fill a shape.
    ElementCount {
        /// The requested shape (`-1` where a size was to be inferred).
        shape: Vec<isize>,
        /// The number of elements given.
        numel: usize,
    },
    /// Runtime sizes of the wrong rank for a static-rank shape.
    RankMismatch {
        /// The shape's rank.
        expected: usize,
        /// The number of sizes given.
        actual: usize,
    },
    /// A runtime size contradicts a static one.
    StaticSizeMismatch {
        /// The dimension.
        dim: usize,
        /// The static size.
        expected: usize,
        /// The size given.
        actual: usize,
    },
    /// An index past the end of a dimension.
    IndexOutOfRange {
        /// The index (negative counts from the end).
        index: isize,
        /// The dimension.
        dim: usize,
        /// The dimension's size.
        size: usize,
    },
    /// A device string that does not parse.
    InvalidDevice(String),
    /// A dimension argument out of range for the tensor's rank.
    DimOutOfRange {
        /// The dimension given.
        dim: isize,
        /// The tensor's rank.
        rank: usize,
    },
    /// `permute` with as many dims as the rank.
    PermuteLength {
        /// The tensor's rank.
        rank: usize,
        /// The number of dims given.
        dims: usize,
    },
    /// `permute` with a repeated dim.
    PermuteDuplicate,
    /// `narrow` of a rank-0 tensor.
    NarrowRankZero,
    /// `narrow` with a negative length.
    NarrowNegativeLength,
    /// `narrow` with a start outside `[-size, size]`.
    NarrowStart {
        /// The start given.
        start: isize,
        /// The dimension's size.
        size: usize,
    },
    /// `narrow` past the end of the dimension.
    NarrowLength {
        /// The (wrapped) start.
        start: usize,
        /// The length.
        length: usize,
        /// The dimension's size.
        size: usize,
    },
    /// `select` of a rank-0 tensor.
    SelectRankZero,
    /// `select` with an index out of range.
    SelectIndex {
        /// The index given.
        index: isize,
        /// The tensor's sizes.
        sizes: Vec<usize>,
        /// The (wrapped) dimension.
        dim: usize,
    },
    /// `diagonal` of one dimension with itself.
    DiagonalSameDims {
        /// The first dimension, as given.
        dim1: isize,
        /// The second dimension, as given.
        dim2: isize,
    },
    /// A list of dims (`squeeze_dims`) naming one dimension twice.
    DimRepeated {
        /// The (wrapped) dimension.
        dim: usize,
    },
    /// `unfold` with windows larger than the dimension.
    UnfoldSize {
        /// The dimension.
        dim: usize,
        /// Its size.
        max: usize,
        /// The window size.
        size: usize,
    },
    /// `unfold` with a step that is not positive.
    UnfoldStep {
        /// The step given.
        step: isize,
    },
    /// `unfold` with a negative window size.
    UnfoldNegativeSize {
        /// The size given.
        size: isize,
    },
    /// `view` to sizes the strides do not allow.
    ViewStrides,
    /// Two `-1` sizes.
    InferTwice,
    /// A `-1` size next to a 0 for a tensor of no elements: it could be
    /// anything.
    InferAmbiguous {
        /// The sizes given.
        shape: Vec<isize>,
    },
    /// A size below -1.
    InvalidShapeDim {
        /// The size given.
        dim: isize,
        /// Its position.
        index: usize,
        /// The sizes given.
        shape: Vec<isize>,
    },
    /// `as_strided` with sizes and strides of different lengths.
    AsStridedRank {
        /// The number of sizes.
        sizes: usize,
        /// The number of strides.
        strides: usize,
    },
    /// `as_strided` reaching past the storage.
    AsStridedBounds {
        /// The sizes.
        sizes: Vec<usize>,
        /// The strides.
        strides: Vec<usize>,
        /// The storage offset.
        offset: usize,
        /// Bytes per element.
        itemsize: usize,
        /// Bytes the layout needs (`None` when that overflows).
        required: Option<usize>,
        /// Bytes the storage has.
        storage: usize,
    },
    /// `split` with a negative size.
    SplitNegative {
        /// The size given.
        split_size: isize,
    },
    /// `split` with size 0 of a non-empty dimension.
    SplitZero {
        /// The dimension's size.
        size: usize,
    },
    /// `split_with_sizes` with a negative size.
    SplitSizesNegative {
        /// The sizes given.
        split_sizes: Vec<isize>,
    },
    /// `split_with_sizes` whose sizes do not add up.
    SplitSizesSum {
        /// The dimension's size.
        size: usize,
        /// The dimension, as given.
        dim: isize,
        /// The sizes given.
        split_sizes: Vec<isize>,
    },
    /// `chunk` with no chunks.
    ChunkCount {
        /// The count given.
        chunks: isize,
    },
    /// `tensor_split` with no sections.
    TensorSplitSections {
        /// The count given.
        sections: isize,
    },
    /// `split`, `split_with_sizes` or `chunk` of a rank-0 tensor.
    SplitRankZero {
        /// `"split"` or `"chunk"`.
        op: &'static str,
    },
    /// `tensor_split` of a rank-0 tensor.
    TensorSplitRankZero,
    /// The size of a dimension of a rank-0 tensor (`unbind`, `unflatten`).
    NoDimensions {
        /// The (wrapped) dimension.
        dim: usize,
    },
    /// `hsplit`/`vsplit` of a tensor of too low a rank.
    SplitRank {
        /// `"hsplit"` or `"vsplit"`.
        op: &'static str,
        /// The rank required.
        min: usize,
        /// The tensor's rank.
        rank: usize,
    },
    /// `hsplit`/`vsplit` into sections that do not divide the dimension.
    SplitDivisible {
        /// `"hsplit"` or `"vsplit"`.
        op: &'static str,
        /// The dimension.
        dim: usize,
        /// Its size.
        size: usize,
        /// The number of sections.
        sections: isize,
    },
    /// `movedim` with source and destination of different lengths.
    MovedimLengths {
        /// The source dims.
        source: Vec<isize>,
        /// The destination dims.
        destination: Vec<isize>,
    },
    /// `movedim` with a repeated dim.
    MovedimRepeated {
        /// `"source"` or `"destination"`.
        which: &'static str,
        /// The dims, as given.
        dims: Vec<isize>,
    },
    /// `unflatten` into no sizes.
    UnflattenEmpty,
    /// `unflatten` re-raising an error of its size inference.
    UnflattenUnexpected {
        /// The error.
        inner: Box<Error>,
    },
    /// `unflatten` into sizes whose product is not the dimension's size.
    UnflattenSizes {
        /// The sizes given.
        sizes: Vec<isize>,
        /// The dimension.
        dim: usize,
        /// Its size.
        size: usize,
    },
    /// `flatten` with the start after the end.
    FlattenOrder,
    /// `t()` of a tensor of rank above 2.
    TRank {
        /// The tensor's rank.
        rank: usize,
    },
    /// `mT` of a rank-1 tensor (rank 0 is returned as it is).
    MtRank {
        /// The tensor's rank.
        rank: usize,
    },
    /// `mH` (`adjoint`) of a rank-1 tensor.
    MhRank {
        /// The tensor's rank.
        rank: usize,
    },
    /// `adjoint()` of a tensor below two dims (PyTorch names the method).
    AdjointRank {
        /// The tensor's rank.
        rank: usize,
    },
    /// A memory format that does not apply to the tensor's rank.
    MemoryFormatRank {
        /// The format.
        format: crate::layout::MemoryFormat,
        /// The tensor's rank.
        rank: usize,
    },
    /// A slice with step 0.
    SliceStepZero,
    /// A slice with a negative step.
    SliceStepNegative,
    /// More (or fewer) indices than dimensions.
    IndexRank {
        /// The tensor's rank.
        rank: usize,
        /// The number of indices.
        indices: usize,
    },
    /// A CUDA driver call failed (PyTorch's `CUDA error: ...`).
    Cuda {
        /// The driver's description of the error.
        message: String,
        /// What was being done.
        during: &'static str,
    },
    /// Operands on two devices (PyTorch's text).
    DeviceMismatch {
        /// One operand's device.
        a: crate::device::Device,
        /// The other's.
        b: crate::device::Device,
    },
    /// An element function has no device kernel.
    NoDeviceKernel {
        /// The function's type.
        function: &'static str,
    },
    /// An operation PyTorch refuses for this kind of operand, with
    /// PyTorch's fixed text (`clamp is not supported for complex types`).
    Unsupported {
        /// PyTorch's text.
        message: &'static str,
    },
    /// `isclose`/`allclose` of tensors of two dtypes (PyTorch compares
    /// like with like).
    CloseDTypes {
        /// The first tensor's dtype.
        a: DType,
        /// The second's.
        b: DType,
    },
    /// A negative `rtol` or `atol` of `isclose`/`allclose`.
    NegativeTolerance {
        /// `rtol` or `atol`.
        which: &'static str,
        /// The value given, as `f64::to_bits` (errors compare with `Eq`).
        bits: u64,
    },
    /// A `clamp` bound that leaves no value of an integer type.
    ClampRange {
        /// `min` or `max`.
        bound: &'static str,
        /// The bound.
        value: i64,
        /// The tensor's dtype.
        dtype: DType,
    },
    /// `where` with a condition that is not a bool tensor.
    WhereCondition {
        /// The condition's dtype.
        dtype: DType,
    },
    /// `cat` or `stack` of no tensors.
    EmptyTensorList {
        /// `cat` or `stack`.
        op: &'static str,
    },
    /// `cat` of tensors whose sizes differ outside the concatenation
    /// dimension.
    CatSizes {
        /// The concatenation dimension.
        dim: usize,
        /// The first tensor's size.
        expected: usize,
        /// The other tensor's size.
        actual: usize,
        /// The other tensor's position in the list.
        tensor: usize,
    },
    /// `cat` of tensors of different ranks.
    CatRank {
        /// The first tensor's rank.
        first: usize,
        /// The other tensor's rank.
        other: usize,
    },
    /// `cat` of a rank-0 tensor.
    CatZeroDim {
        /// Its position in the list.
        position: usize,
    },
    /// `stack` of tensors of different shapes.
    StackSizes {
        /// The first tensor's sizes.
        first: Vec<usize>,
        /// The position of the other tensor.
        index: usize,
        /// Its sizes.
        other: Vec<usize>,
    },
    /// A layout that keeps more dimensions than the device kernels take,
    /// after merging the dimensions that can be merged.
    KernelRank {
        /// The dimensions left.
        rank: usize,
        /// The most a kernel takes.
        max: usize,
    },
    /// A reduction that needs elements (`max`, `amin`, `argmax`, ...)
    /// along a dimension of size 0.
    ReduceEmptyDim {
        /// The operation (`max`).
        op: &'static str,
        /// The (wrapped) dimension.
        dim: usize,
    },
    /// A reduction that needs elements, over a whole tensor of none.
    ReduceEmptyTensor {
        /// The operation (`max`).
        op: &'static str,
    },
    /// `kthvalue` with `k` below 1 or above the size of the dim.
    KthOutOfRange {
        /// The dim (wrapped).
        dim: usize,
    },
    /// `quantile` with a number `q` outside [0, 1] (NaN included).
    QuantileOutOfRange {
        /// The `q` given, as PyTorch prints it (six significant digits).
        got: String,
    },
    /// `quantile` with an interpolation other than PyTorch's five.
    QuantileInterpolation {
        /// The name given.
        got: String,
    },
    /// `cummax`/`cummin` of a rank-0 tensor along a dim other than 0 or -1.
    ScanScalarDim {
        /// The operation (`cummax`).
        op: &'static str,
        /// The dim given.
        dim: isize,
    },
    /// `mean` of a tensor that is neither floating nor complex.
    MeanDType {
        /// The tensor's dtype.
        dtype: DType,
    },
    /// An index tensor whose dtype the operation does not take.
    IndexDType {
        /// The operation.
        op: IndexOp,
        /// The index's dtype.
        dtype: DType,
    },
    /// `index_select` with an index of more than one dimension.
    IndexSelectRank,
    /// `index_select` of a rank-0 tensor with other than one index.
    IndexToScalar {
        /// The number of indices.
        count: usize,
    },
    /// `index_select` of an empty tensor along a dimension of size 0, with
    /// indices.
    IndexSelectEmptyAxis,
    /// `index_select` along dimension 1 of a tensor of rank 2 or more (or
    /// any dimension of an empty one) with an index outside it: the text of
    /// PyTorch's fast path there.
    IndicesOutOfData {
        /// The first index outside, in the index's order.
        id: i64,
        /// The dimension's size.
        axis_dim: usize,
    },
    /// Advanced indexing with a bool mask whose shape differs from the
    /// dimensions it covers.
    MaskShape {
        /// The mask's sizes.
        mask: Vec<usize>,
        /// The sizes of the dimensions it covers.
        indexed: Vec<usize>,
        /// The first position (in the mask) where they differ.
        at: usize,
        /// That dimension of the indexed tensor.
        dim: usize,
    },
    /// Advanced indexing with index tensors that do not broadcast together.
    IndexBroadcast {
        /// Every index tensor's sizes.
        shapes: Vec<Vec<usize>>,
    },
    /// Advanced indexing of a dimension of size 0 with an index.
    IndexIntoEmpty,
    /// Advanced indexing with more indices than dimensions (`index_put_`,
    /// or two ellipses).
    IndexCount {
        /// The tensor's rank.
        rank: usize,
        /// The dimensions the indices cover.
        got: usize,
    },
    /// `index_put_` with values of another dtype.
    IndexPutDType {
        /// `self`'s dtype.
        destination: DType,
        /// The values'.
        source: DType,
    },
    /// An index tensor of a dtype that cannot index.
    IndexTensorDType,
    /// `item()` of a tensor with no elements.
    ItemOfEmpty,
    /// A norm of a dtype that is neither floating nor complex.
    NormDType {
        /// The input's dtype.
        dtype: DType,
    },
    /// A norm without an identity (`inf`, `-inf`, negative orders) over no
    /// elements.
    NormOfEmpty {
        /// The order, as PyTorch prints it.
        ord: String,
        /// The empty dim reduced, or none when every dim is.
        dim: Option<usize>,
    },
    /// `vector_norm`'s `dtype=` argument refused: `reason` says why.
    NormDTypeArgument {
        /// The input's dtype.
        input: DType,
        /// The dtype asked for.
        dtype: DType,
    },
    /// `nansum`/`nanmean` of a complex tensor.
    NanSumComplex {
        /// The device's name in PyTorch's text (`"CPU"`).
        device: &'static str,
    },
    /// `nanmean` of a dtype that is neither floating nor complex.
    NanMeanDType {
        /// The input's dtype.
        dtype: DType,
    },
    /// `aminmax` of a complex tensor.
    AminmaxComplex {
        /// The input's dtype.
        dtype: DType,
    },
    /// `aminmax` over every element of an empty tensor.
    AminmaxEmpty,
    /// `aminmax` along an empty dim.
    AminmaxEmptyDim {
        /// The dim.
        dim: usize,
    },
    /// `dist` of integer tensors.
    DistDType {
        /// The operands' dtype.
        dtype: DType,
    },
    /// `var`, `std`, `var_mean` or `std_mean` of a dtype that is neither
    /// floating nor complex.
    MomentsDType {
        /// PyTorch's name of the operation in its text (`"std and var"`).
        op: &'static str,
    },
    /// `index_put_` with values that do not broadcast to the indexed shape.
    IndexPutShape {
        /// The values' sizes.
        values: Vec<usize>,
        /// The shape the index reads.
        result: Vec<usize>,
    },
    /// `take` from an empty tensor with indices.
    TakeFromEmpty,
    /// `index_add` with an index of more than one dimension.
    IndexAddVector {
        /// The index's rank.
        rank: usize,
        /// Its dtype.
        dtype: DType,
        /// Its sizes.
        sizes: Vec<usize>,
    },
    /// `index_add` along a dimension the source does not have.
    IndexAddSourceDim {
        /// The dimension.
        dim: usize,
        /// The source's rank.
        rank: usize,
    },
    /// `index_add` with an index not as long as the source along the dim.
    IndexAddCount {
        /// The number of indices.
        count: usize,
        /// The source's size along the dim.
        size: usize,
        /// The dim.
        dim: usize,
    },
    /// `index_add` with a source of other sizes than `self` off the dim.
    IndexAddShape {
        /// `self`'s sizes.
        input: Vec<usize>,
        /// The source's.
        source: Vec<usize>,
    },
    /// `index_copy` with an index of more than one dimension.
    IndexCopyVector {
        /// The index's rank.
        rank: usize,
    },
    /// `index_copy` with a source of another rank (neither a scalar).
    IndexCopyRank {
        /// The source's rank.
        source: usize,
        /// `self`'s.
        input: usize,
    },
    /// `index_copy` with an index not as long as the source along the dim.
    IndexCopyCount {
        /// The number of indices.
        count: usize,
        /// The source's size along the dim.
        size: usize,
    },
    /// `index_copy` with slices (the sizes off the dim) that differ.
    IndexCopySlices {
        /// `self`'s slice sizes.
        input: Vec<usize>,
        /// The source's.
        source: Vec<usize>,
        /// The dim.
        dim: usize,
    },
    /// `index_copy` with an index outside the dimension.
    IndexCopyOutOfBounds {
        /// The index.
        index: i64,
        /// The dim.
        dim: usize,
        /// Its size.
        size: usize,
    },
    /// `index_fill` with an index of more than one dimension.
    IndexFillVector,
    /// `put` with a source of another element count than the index.
    PutCount {
        /// The source's element count.
        source: usize,
        /// The index's.
        index: usize,
    },
    /// `put` into an empty tensor with indices.
    PutIntoEmpty,
    /// `masked_scatter` with fewer source elements than the mask's trues.
    MaskedScatterSource,
    /// `masked_scatter` with a source of another dtype.
    MaskedScatterSourceDType {
        /// `self`'s dtype.
        input: DType,
        /// The source's.
        source: DType,
    },
    /// A mask of another dtype than bool.
    MaskDType {
        /// The operation (`masked_fill_`).
        op: &'static str,
        /// The mask's dtype.
        dtype: DType,
    },
    /// `masked_fill` with a value tensor of rank above 0.
    MaskedFillValueRank {
        /// The value tensor's rank.
        rank: usize,
    },
    /// `lerp` with `end` or `weight` of another dtype than `self`.
    LerpDType {
        /// `end` or `weight`.
        arg: &'static str,
        /// `self`'s dtype.
        expected: DType,
        /// The argument's dtype.
        got: DType,
    },
    /// `addcdiv` of two integer (or bool) tensors.
    AddcdivIntegers,
    /// A bound of `uniform_` that is NaN or beyond the dtype's range.
    RandomBound {
        /// `from` or `to`.
        which: &'static str,
        /// PyTorch's C++ name of the dtype (`float`, `c10::Half`).
        type_name: &'static str,
    },
    /// `uniform_` with `from > to` (the bounds' bits, `f64::to_bits`).
    UniformOrder {
        /// The lower bound's bits.
        from: u64,
        /// The upper bound's bits.
        to: u64,
    },
    /// `uniform_` with bounds farther apart than the dtype's largest value.
    UniformRange {
        /// The tensor's dtype.
        dtype: DType,
        /// The lower bound's bits.
        from: u64,
        /// The upper bound's bits.
        to: u64,
    },
    /// `normal_` with a negative standard deviation.
    NormalStd {
        /// The standard deviation's bits.
        std: u64,
    },
    /// `exponential_` with a rate not above 0 (or NaN).
    ExponentialLambda {
        /// The rate's bits.
        lambda: u64,
    },
    /// `cauchy_` with a scale not above 0 (or NaN).
    CauchySigma {
        /// The scale's bits.
        sigma: u64,
    },
    /// `geometric_` with a probability outside `(0, 1)` (or NaN).
    GeometricP {
        /// The probability's bits.
        p: u64,
    },
    /// A kernel that PyTorch runs in complex32 (`ComplexHalf`, not one of
    /// the twelve dtypes), which refuses it: `lerp` of float16 tensors by a
    /// rank-0 complex weight.
    NotImplementedForComplexHalf {
        /// PyTorch's kernel name.
        op: &'static str,
    },
    /// `arange` with a step that is NaN or infinite (its bits).
    ArangeStepNotFinite {
        /// The step's bits (`f64::to_bits`).
        step: u64,
    },
    /// `arange` with a step of zero.
    ArangeStepZero,
    /// `arange` with a bound that is NaN or infinite.
    ArangeRange {
        /// The start's bits.
        start: u64,
        /// The end's bits.
        end: u64,
    },
    /// `arange` whose step points away from its end.
    ArangeSign,
    /// `arange` with more elements than an `i64` counts.
    ArangeSize,
    /// `randint` (`random_`) with `from >= to`.
    RandomFromTo {
        /// The lower bound.
        from: i64,
        /// The upper bound (excluded).
        to: i64,
    },
    /// `randint` of a complex dtype.
    RandomBoundsDType,
    /// `random_(from, to)` on a floating dtype whose bounds, rounded to it,
    /// meet.
    RandomFromToCast {
        /// The lower bound, rounded up to the dtype.
        from: i64,
        /// The upper bound, rounded down to the dtype.
        to: i64,
    },
    /// `random_from_(from, None)` on a floating dtype with `from` not below
    /// the dtype's largest consecutive integer.
    RandomFromToInc {
        /// The lower bound, rounded up to the dtype.
        from: i64,
        /// The largest value (`2^digits`).
        to_inc: i64,
    },
    /// `bernoulli_(p)` with `p` outside `[0, 1]` (or NaN).
    BernoulliP {
        /// The probability's bits.
        p: u64,
    },
    /// `exponential_` or `cauchy_` of a tensor that is not floating.
    ContinuousOnly {
        /// `Exponential` or `Cauchy`.
        distribution: &'static str,
        /// The dtype as PyTorch names it there (`Long`, `long int`).
        type_name: &'static str,
    },
    /// `multinomial` of probabilities that are not floating.
    MultinomialDType {
        /// Their dtype.
        dtype: DType,
    },
    /// `log_normal_` with a standard deviation not above 0 (or NaN).
    LogNormalStd {
        /// The standard deviation's bits.
        std: u64,
    },
    /// `randperm` of more values than a float dtype counts exactly.
    RandpermPrecision {
        /// The largest `n` allowed, as PyTorch writes it (`2049`, `2^24+1`).
        limit: &'static str,
        /// PyTorch's name of the type (`Half`).
        name: &'static str,
    },
    /// A size below zero where a tensor is made.
    NegativeDimension {
        /// The size.
        size: i64,
    },
    /// `roll` without shifts.
    RollShiftsRequired,
    /// `roll` with as many shifts as dims.
    RollAlign {
        /// The number of shifts.
        shifts: usize,
        /// The number of dims.
        dims: usize,
    },
    /// `rot90` with other than two dims.
    Rot90Dims {
        /// The number of dims.
        got: usize,
    },
    /// `rot90` of a tensor of fewer than 2 dimensions.
    Rot90Rank {
        /// The tensor's rank.
        rank: usize,
    },
    /// `rot90` in the plane of one dimension named twice.
    Rot90SameDims {
        /// The first dim, as given.
        dim0: isize,
        /// The second dim, as given.
        dim1: isize,
    },
    /// `fliplr` or `flipud` of a tensor of too few dimensions.
    FlipRank {
        /// The rank needed.
        rank: usize,
    },
    /// `tril` or `triu` of a tensor of fewer than 2 dimensions.
    TriangleRank {
        /// `"tril"` or `"triu"`.
        op: &'static str,
    },
    /// `pad` with an odd number of amounts.
    PadOdd,
    /// `pad` with more pairs than dimensions.
    PadLength {
        /// The number of amounts.
        len: usize,
        /// The tensor's rank.
        rank: usize,
    },
    /// `pad` with a value in a mode that takes none.
    PadValue {
        /// The mode's name.
        mode: &'static str,
    },
    /// A non-constant `pad` of a rank and length it does not take.
    PadModeRank {
        /// The number of amounts.
        len: usize,
        /// The tensor's rank.
        rank: usize,
    },
    /// A constant `pad` cropping a dimension below 0.
    PadNegative {
        /// The dimension's size.
        size: usize,
        /// The amount before.
        before: isize,
        /// The amount after.
        after: isize,
        /// The dimension.
        dim: usize,
    },
    /// A non-constant `pad` of a tensor with an empty non-batch dimension.
    PadEmpty {
        /// The number of padded dimensions (1, 2 or 3).
        dims: usize,
        /// The tensor's sizes.
        sizes: Vec<usize>,
    },
    /// A reflection as long as the dimension it reflects.
    PadReflect {
        /// PyTorch's argument number.
        argument: usize,
        /// The amount before.
        before: isize,
        /// The amount after.
        after: isize,
        /// The dimension.
        dim: usize,
        /// The tensor's sizes.
        sizes: Vec<usize>,
    },
    /// A circular pad longer than its dimension.
    PadCircular,
    /// A reflect, replicate or circular pad whose output would be empty.
    PadTooSmall {
        /// The input size.
        size: usize,
        /// The output size.
        out: isize,
        /// `W`, `H` or `D`.
        axis: &'static str,
    },
    /// `repeat` with fewer counts than dimensions.
    RepeatRank,
    /// `repeat` with a negative count.
    RepeatNegative {
        /// The counts.
        reps: Vec<isize>,
        /// The tensor's sizes.
        sizes: Vec<usize>,
    },
    /// `repeat_interleave` with a negative count.
    RepeatsNegative,
    /// `repeat_interleave` with a tensor holding a negative count.
    RepeatsTensorNegative,
    /// `repeat_interleave` with counts of more than one dimension.
    RepeatsRank,
    /// `repeat_interleave` with as many counts as entries.
    RepeatsSize {
        /// The number of counts.
        repeats: usize,
        /// The dim, as given.
        dim: isize,
        /// The entries along it.
        size: usize,
    },
    /// `diag` of a tensor of other than 1 or 2 dimensions.
    DiagRank {
        /// The tensor's rank.
        rank: usize,
    },
    /// `block_diag` of a tensor of more than 2 dimensions.
    BlockDiagRank {
        /// Its position in the list.
        input: usize,
        /// Its rank.
        rank: usize,
    },
    /// `block_diag` of no tensors (on a device, where no empty result can
    /// be placed).
    BlockDiagEmpty,
    /// `cartesian_prod` of a tensor of other than 1 dimension.
    CartesianRank {
        /// Its sizes.
        sizes: Vec<usize>,
    },
    /// `meshgrid` of no tensors.
    MeshgridEmpty,
    /// `meshgrid` or `cartesian_prod` of tensors of several dtypes.
    MeshgridDTypes,
    /// `meshgrid` of a tensor of more than 1 dimension.
    MeshgridRank {
        /// Its sizes.
        sizes: Vec<usize>,
    },
    /// `tril_indices` or `triu_indices` with a negative size.
    IndicesNegative {
        /// `row` or `col`.
        which: &'static str,
        /// The size.
        size: i64,
    },
    /// `eye` with a negative size.
    EyeNegative {
        /// `n` or `m`.
        which: &'static str,
        /// The size.
        size: i64,
    },
    /// A number that the tensor's dtype cannot hold (PyTorch's checked
    /// cast).
    ScalarOverflow {
        /// PyTorch's C++ name of the element type (`float`, `c10::Half`).
        type_name: &'static str,
    },
    /// `index_add` with an index of another dtype than int64 or int32.
    IndexAddIndexDType {
        /// The index's dtype.
        dtype: DType,
    },
    /// `index_add` with a source of another dtype.
    IndexAddSourceDType {
        /// `self`'s dtype.
        input: DType,
        /// The source's.
        source: DType,
    },
    /// `index_copy` with an index of another dtype than int64.
    IndexCopyIndexDType {
        /// The index's dtype.
        dtype: DType,
    },
    /// `index_copy` with a source of another dtype.
    IndexCopySourceDType {
        /// `self`'s dtype.
        input: DType,
        /// The source's.
        source: DType,
    },
    /// `put` with a source of another dtype.
    PutSourceDType {
        /// `self`'s dtype.
        input: DType,
        /// The source's.
        source: DType,
    },
    /// A scatter's index of another rank than `self`'s or the source's.
    ScatterRank {
        /// `"self"` or `"src"`.
        what: &'static str,
    },
    /// A scatter's index larger than `self` off the scattered dimension,
    /// or than the source.
    ScatterSize {
        /// The index's sizes.
        index: Vec<usize>,
        /// `self`'s sizes.
        input: Vec<usize>,
        /// The source's sizes (as ranks 0 and 1 are one: `[1]` for rank 0),
        /// when a source tensor was given (else a number).
        src: Option<Vec<usize>>,
        /// The scattered dimension.
        dim: usize,
    },
    /// `take_along_dim` along a dimension of size 0 with indices (PyTorch
    /// takes the indices modulo the size).
    ZeroDivision,
    /// `gather` with an index of another rank than the input's.
    GatherRank,
    /// `gather` with an index larger than the input on a dimension it does
    /// not gather along.
    GatherSize {
        /// The first such dimension.
        dim: usize,
        /// The index's sizes.
        index: Vec<usize>,
        /// The input's sizes.
        input: Vec<usize>,
        /// The gathered dimension.
        gathered: usize,
    },
    /// `take_along_dim` with an index of another rank than the input's.
    TakeAlongRank {
        /// The input's rank.
        input: usize,
        /// The index's rank.
        index: usize,
    },
    /// An index outside the dimension read along, in the words of the
    /// operation that met it.
    IndexOutOfBounds {
        /// The operation.
        op: IndexOp,
        /// The index.
        index: i64,
        /// The dimension (for `take`: none, the tensor is flattened).
        dim: usize,
        /// The dimension's size (for `take`: the element count).
        size: usize,
    },
    /// An operation that does not take input of a kind of dtype:
    /// `max(dim)` of complex input, `argmax` of bool input.
    UnsupportedInput {
        /// The operation (`argmax`).
        op: &'static str,
        /// `"complex"` or `"bool"`.
        kind: &'static str,
    },
    /// A shape mistake of a matrix product (PyTorch's texts).
    Matmul(MatmulError),
    /// `searchsorted`: boundaries of rank 2 or more whose leading dims are
    /// not the values'.
    SearchsortedShape {
        /// The boundaries' sizes.
        boundaries: Vec<usize>,
        /// The values' sizes.
        values: Vec<usize>,
    },
    /// `searchsorted`: rank-0 values with boundaries that are not 1-D.
    SearchsortedScalar {
        /// The boundaries' rank.
        boundaries: usize,
        /// The values' rank.
        values: usize,
        /// The values' element count.
        numel: usize,
    },
    /// `searchsorted`: a `side` other than `"left"` and `"right"`.
    SearchsortedSide {
        /// The side given.
        side: String,
    },
    /// `searchsorted`: `side="left"` with `right=true`.
    SearchsortedOpposite,
    /// `searchsorted`: a sorter of other sizes than the boundaries'.
    SorterSize {
        /// The boundaries' sizes.
        boundaries: Vec<usize>,
        /// The sorter's sizes.
        sorter: Vec<usize>,
    },
    /// `searchsorted`: a sorter that is not int64.
    SorterDType {
        /// The sorter's dtype.
        dtype: DType,
    },
    /// `bucketize`: boundaries that are not 1-D.
    BoundariesRank {
        /// Their rank.
        rank: usize,
    },
    /// `histc`: a range with an infinity or a NaN, as PyTorch prints it
    /// (C++'s `operator<<` of a double).
    HistcRange {
        /// The lower end, printed.
        min: String,
        /// The upper end, printed.
        max: String,
    },
    /// A dim given for a rank-0 tensor where PyTorch wants a dimension
    /// (`unique(x, dim=)`), the dim as given.
    NoDimensionsGiven {
        /// The dim given.
        dim: isize,
    },
    /// `histc`: a count of bins below 1.
    HistcBins {
        /// The count given.
        bins: i64,
    },
}

/// The operations that read by index tensors, for the texts of their errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexOp {
    /// `gather`.
    Gather,
    /// `index_select`.
    IndexSelect,
    /// `take`.
    Take,
    /// `take_along_dim`.
    TakeAlongDim,
    /// `put`.
    Put,
}

/// `[3, 1, 7]`, as PyTorch prints sizes in messages.
struct Sizes<'a, N>(&'a [N]);

impl<N: fmt::Display> fmt::Display for Sizes<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, "]")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BroadcastMismatch {
                size_a,
                size_b,
                dim,
            } => write!(
                f,
                "The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at non-singleton dimension {dim}"
            ),
            Error::InPlaceShape { output, broadcast } => write!(
                f,
                "output with shape {} doesn't match the broadcast shape {}",
                Sizes(output),
                Sizes(broadcast)
            ),
            Error::ExpandMismatch {
                target,
                existing,
                dim,
            } => write!(
                f,
                "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {dim}.  Target sizes: {}.  Tensor sizes: {}",
                target[*dim],
                existing[*dim - (target.len() - existing.len())],
                Sizes(target),
                Sizes(existing)
            ),
            Error::ExpandLeadingMinusOne { dim } => write!(
                f,
                "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {dim}"
            ),
            Error::ExpandRank {
                dtype,
                existing,
                target,
            } => write!(
                f,
                "expand({}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                legacy_tensor_type(*dtype),
                Sizes(existing),
                Sizes(target),
                target.len(),
                existing.len()
            ),
            Error::StorageOverflow { sizes } => write!(
                f,
                "Storage size calculation overflowed with sizes={}",
                Sizes(sizes)
            ),
            Error::NumelOverflow => write!(f, "numel: integer multiplication overflow"),
            Error::PieceCount { too_long: true } => {
                write!(f, "cannot create std::vector larger than max_size()")
            }
            Error::PieceCount { too_long: false } => write!(f, "std::bad_alloc"),
            Error::InternalOverlap => write!(
                f,
                "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
            ),
            Error::StrideOverflow => write!(f, "Stride calculation overflowed"),
            Error::DTypeMismatch { expected, actual } => {
                write!(f, "expected a tensor of dtype {expected}, got {actual}")
            }
            Error::TypedMismatch {
                expected_dtype,
                expected_shape,
                actual_dtype,
                actual_shape,
                shape_differs,
            } => {
                let differs = match (expected_dtype != actual_dtype, *shape_differs) {
                    (true, true) => "dtype and shape differ",
                    (true, false) => "dtype differs",
                    _ => "shape differs",
                };
                let expected_shape = if expected_shape == "any shape" {
                    expected_shape.clone()
                } else {
                    format!("shape {expected_shape}")
                };
                write!(
                    f,
                    "expected {} tensor of {expected_shape}, got {} tensor of shape {actual_shape:?} ({differs})",
                    expected_dtype.with_article(),
                    actual_dtype.with_article()
                )
            }
            Error::File { path, problem } => write!(f, "{path}: {problem}"),
            Error::BoolSubtraction { both: true } => write!(
                f,
                "Subtraction, the `-` operator, with two bool tensors is not supported. \
                 Use the `^` or `logical_xor()` operator instead."
            ),
            Error::BoolSubtraction { both: false } => write!(
                f,
                "Subtraction, the `-` operator, with a bool tensor is not supported. \
                 If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
            ),
            Error::NotImplementedFor { op, dtype } => {
                write!(f, "\"{op}\" not implemented for '{}'", dtype.torch_name())
            }
            Error::CastForbidden { from, to } => write!(
                f,
                "result type {} can't be cast to the desired output type {}",
                from.torch_name(),
                to.torch_name()
            ),
            Error::RuntimeRankPromotion {
                lhs,
                rhs,
                pytorch,
                chosen,
            } => write!(
                f,
                "type promotion depends on a runtime rank: {} (rank {}) with {} (rank {}) gives {} in PyTorch, \
                 but the result's static type is {}; cast an operand first (`cast::<U>()`)",
                lhs.0, lhs.1, rhs.0, rhs.1, pytorch, chosen
            ),
            Error::Cuda { message, during } => {
                write!(f, "CUDA error: {message} (while {during})")
            }
            Error::DeviceMismatch { a, b } => write!(
                f,
                "Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!"
            ),
            Error::Unsupported { message } => write!(f, "{message}"),
            Error::CloseDTypes { a, b } => {
                write!(f, "{} did not match {}", a.torch_name(), b.torch_name())
            }
            Error::NegativeTolerance { which, bits } => write!(
                f,
                "{which} must be greater than or equal to zero, but got {}",
                SixDigits(f64::from_bits(*bits))
            ),
            Error::ClampRange {
                bound,
                value,
                dtype,
            } => write!(
                f,
                "Clamp {bound} value {value} is outside the representable range of {}",
                dtype.torch_name()
            ),
            Error::WhereCondition { dtype } => write!(
                f,
                "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                dtype.torch_name()
            ),
            Error::EmptyTensorList { op } => match *op {
                "stack" => write!(f, "stack expects a non-empty TensorList"),
                _ => write!(f, "torch.cat(): expected a non-empty list of Tensors"),
            },
            Error::CatSizes {
                dim,
                expected,
                actual,
                tensor,
            } => write!(
                f,
                "Sizes of tensors must match except in dimension {dim}. Expected size {expected} but got size {actual} for tensor number {tensor} in the list."
            ),
            Error::CatRank { first, other } => write!(
                f,
                "Tensors must have same number of dimensions: got {first} and {other}"
            ),
            Error::CatZeroDim { position } => write!(
                f,
                "zero-dimensional tensor (at position {position}) cannot be concatenated"
            ),
            Error::StackSizes {
                first,
                index,
                other,
            } => write!(
                f,
                "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {index}",
                Sizes(first),
                Sizes(other)
            ),
            Error::NoDeviceKernel { function } => {
                write!(f, "no CUDA kernel computes the element function {function}")
            }
            Error::ReduceEmptyDim { op, dim } => write!(
                f,
                "{op}(): Expected reduction dim {dim} to have non-zero size."
            ),
            Error::KthOutOfRange { dim } => write!(
                f,
                "kthvalue(): selected number k out of range for dimension {dim}"
            ),
            Error::QuantileOutOfRange { got } => {
                write!(f, "quantile() q must be in the range [0, 1] but got {got}")
            }
            Error::QuantileInterpolation { got } => write!(
                f,
                "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {got}"
            ),
            Error::ScanScalarDim { op, dim } => write!(
                f,
                "{op}(): Expected reduction dim -1 or 0 for scalar but got {dim}"
            ),
            Error::ReduceEmptyTensor { op } if op.starts_with("arg") => write!(
                f,
                "{op}(): Expected reduction dim to be specified for input.numel() == 0."
            ),
            Error::ReduceEmptyTensor { op } => write!(
                f,
                "{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            ),
            Error::MeanDType { dtype } => write!(
                f,
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                dtype.torch_name()
            ),
            Error::IndexDType { op, dtype } => match op {
                IndexOp::Gather => write!(f, "gather(): Expected dtype int32/int64 for index"),
                IndexOp::IndexSelect => {
                    write!(f, "index_select(): Expected dtype int32 or int64 for index")
                }
                IndexOp::Take => write!(
                    f,
                    "take(): Expected a long tensor for index, but got {}",
                    dtype.torch_name()
                ),
                IndexOp::TakeAlongDim => write!(
                    f,
                    "torch.take_along_dim(): dtype of indices should be Long but got {}",
                    dtype.torch_name()
                ),
                IndexOp::Put => write!(
                    f,
                    "put_(): Expected a long tensor for index, but got {}",
                    dtype.torch_name()
                ),
            },
            Error::IndexSelectRank => write!(f, "index_select(): Index is supposed to be a vector"),
            Error::IndexToScalar { count } => write!(
                f,
                "index_select(): Index to scalar can have only 1 value, got {count} value(s)"
            ),
            Error::IndexSelectEmptyAxis => {
                write!(
                    f,
                    "index_select(): self indexing axis dim should be positive"
                )
            }
            Error::MaskShape {
                mask,
                indexed,
                at,
                dim,
            } => write!(
                f,
                "The shape of the mask {} at index {at} does not match the shape of the indexed tensor {} at index {dim}",
                Sizes(mask),
                Sizes(indexed)
            ),
            Error::IndexBroadcast { shapes } => {
                write!(
                    f,
                    "shape mismatch: indexing tensors could not be broadcast together with shapes "
                )?;
                for (k, shape) in shapes.iter().enumerate() {
                    if k > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", Sizes(shape))?;
                }
                Ok(())
            }
            Error::IndexIntoEmpty => {
                write!(f, "index is out of bounds for dimension with size 0")
            }
            Error::IndexCount { rank, got } => write!(
                f,
                "too many indices for tensor of dimension {rank} (got {got})"
            ),
            Error::MomentsDType { op } => {
                write!(f, "{op} only support floating point and complex dtypes")
            }
            Error::NormDType { dtype } => write!(
                f,
                "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
                dtype.torch_name()
            ),
            Error::NormOfEmpty { ord, dim: None } => write!(
                f,
                "linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the operation does not have an identity"
            ),
            Error::NormOfEmpty { ord, dim: Some(dim) } => write!(
                f,
                "linalg.vector_norm cannot compute the {ord} norm on the dimension {dim}because this dimension is empty and the operation does not have an identity"
            ),
            Error::NormDTypeArgument { input, dtype } => {
                if !(dtype.is_floating_point() || dtype.is_complex()) {
                    write!(
                        f,
                        "linalg.vector_norm: dtype should be floating point or complex, but got {}",
                        dtype.torch_name()
                    )
                } else if !input.is_complex() && dtype.is_complex() {
                    write!(
                        f,
                        "linalg.vector_norm: dtype should be real for real inputs, but got {}",
                        dtype.torch_name()
                    )
                } else if input.is_complex() && !dtype.is_complex() {
                    write!(
                        f,
                        "linalg.vector_norm: dtype should be complex for complex inputs, but got {}",
                        dtype.torch_name()
                    )
                } else {
                    write!(
                        f,
                        "linalg.vector_norm: the dtype of the input ({}) should be convertible without narrowing to the specified dtype ({})",
                        input.torch_name(),
                        dtype.torch_name()
                    )
                }
            }
            Error::NanSumComplex { device } => {
                write!(f, "nansum on {device} does not support complex inputs")
            }
            Error::NanMeanDType { dtype } => write!(
                f,
                "nanmean(): expected input to have floating point or complex dtype but got {}",
                dtype.torch_name()
            ),
            Error::SearchsortedShape { boundaries, values } => write!(
                f,
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor {} and input value tensor {}",
                Sizes(boundaries),
                Sizes(values)
            ),
            Error::SearchsortedScalar {
                boundaries,
                values,
                numel,
            } => write!(
                f,
                "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim({boundaries}) and input value's dim({values}) numel({numel})"
            ),
            Error::SearchsortedSide { side } => write!(
                f,
                "torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
            ),
            Error::SearchsortedOpposite => f.write_str(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True",
            ),
            Error::SorterSize { boundaries, sorter } => write!(
                f,
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor {}and got sorter tensor {}",
                Sizes(boundaries),
                Sizes(sorter)
            ),
            Error::SorterDType { dtype } => write!(
                f,
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {}",
                dtype.torch_name()
            ),
            Error::BoundariesRank { rank } => write!(
                f,
                "boundaries tensor must be 1 dimension, but got dim({rank})"
            ),
            Error::HistcRange { min, max } => {
                write!(f, "torch.histc: range of [{min}, {max}] is not finite")
            }
            Error::NoDimensionsGiven { dim } => write!(
                f,
                "Dimension specified as {dim} but tensor has no dimensions"
            ),
            Error::HistcBins { bins } => write!(
                f,
                "torch.histogram(): bins must be > 0, but got {bins} for dimension 0"
            ),
            Error::AminmaxComplex { dtype } => {
                write!(f, "aminmax not implemented for {}", dtype.torch_name())
            }
            Error::AminmaxEmpty => f.write_str(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.",
            ),
            Error::AminmaxEmptyDim { dim } => {
                write!(f, "aminmax: Expected reduction dim {dim} to have non-zero size.")
            }
            Error::DistDType { dtype } => write!(
                f,
                "norm(): input dtype should be either floating point or complex. Got {} instead.",
                dtype.torch_name()
            ),
            Error::ItemOfEmpty => {
                f.write_str("a Tensor with 0 elements cannot be converted to Scalar")
            }
            Error::IndexPutDType {
                destination,
                source,
            } => write!(
                f,
                "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
                destination.torch_name(),
                source.torch_name()
            ),
            Error::IndexTensorDType => write!(
                f,
                "tensors used as indices must be long, int, byte or bool tensors"
            ),
            Error::IndexPutShape { values, result } => write!(
                f,
                "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                Sizes(values),
                Sizes(result)
            ),
            Error::IndicesOutOfData { id, axis_dim } => write!(
                f,
                "INDICES element is out of DATA bounds, id={id} axis_dim={axis_dim}"
            ),
            Error::TakeFromEmpty => write!(f, "take(): tried to take from an empty tensor"),
            Error::IndexAddVector { rank, dtype, sizes } => write!(
                f,
                "index_add_(): Index is supposed to be a vector, but got dim: {rank} with type: {} and size: {sizes:?}",
                dtype.torch_name()
            ),
            Error::IndexAddSourceDim { dim, rank } => write!(
                f,
                "index_add_(): Indexing dim {dim} is out of bounds of the source tensor with dim {rank}"
            ),
            Error::IndexAddCount { count, size, dim } => write!(
                f,
                "index_add_(): Number of indices ({count}) should be equal to source.size(dim): ({size}), for dim: {dim}"
            ),
            Error::IndexAddShape { input, source } => write!(
                f,
                "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = {input:?} source.shape = {source:?}"
            ),
            Error::IndexCopyVector { rank } => write!(
                f,
                "index_copy_(): Index should have dimension 1 or 0 (got {rank})"
            ),
            Error::IndexCopyRank { source, input } => write!(
                f,
                "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality ({source}), destination dimensionality ({input})"
            ),
            Error::IndexCopyCount { count, size } => write!(
                f,
                "index_copy_(): Number of indices ({count}) should be equal to source.size(dim) ({size})"
            ),
            Error::IndexCopySlices { input, source, dim } => {
                let list = |v: &[usize]| {
                    v.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                write!(
                    f,
                    "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: {} at dimension {dim} and source slice shape: {} at dimension 0.",
                    list(input),
                    list(source)
                )
            }
            Error::IndexCopyOutOfBounds { index, dim, size } => write!(
                f,
                "index_copy_(): index {index} is out of bounds for dimension {dim} with size {size}"
            ),
            Error::IndexFillVector => write!(f, "Index has to be a vector/scalar"),
            Error::PutCount { source, index } => write!(
                f,
                "put_(): Expected source and index to have the same number of elements, but got source.numel() = {source}, index.numel() = {index}"
            ),
            Error::PutIntoEmpty => write!(f, "put_(): Tried to put elements into an empty tensor"),
            Error::MaskedScatterSourceDType { input, source } => write!(
                f,
                "masked_scatter: expected self and source to have same dtypes but got{} and {}",
                input.torch_name(),
                source.torch_name()
            ),
            Error::MaskedScatterSource => {
                write!(f, "Number of elements of source < number of ones in mask")
            }
            Error::MaskDType { op, dtype } => match *op {
                "masked_select" => write!(f, "masked_select: expected BoolTensor for mask"),
                "masked_scatter_" => write!(
                    f,
                    "masked_scatter_ only supports boolean masks, but got mask with dtype {}",
                    dtype.torch_name()
                ),
                _ => write!(
                    f,
                    "{op} only supports boolean masks, but got mask with dtype {}",
                    type_id_name(*dtype)
                ),
            },
            Error::MaskedFillValueRank { rank } => write!(
                f,
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {rank} dimension(s)."
            ),
            Error::LerpDType { arg, expected, got } => write!(
                f,
                "expected dtype {} for `{arg}` but got dtype {}",
                type_id_name(*expected),
                type_id_name(*got)
            ),
            Error::NotImplementedForComplexHalf { op } => {
                write!(f, "\"{op}\" not implemented for 'ComplexHalf'")
            }
            Error::RandomBound { which, type_name } => {
                write!(f, "{which} is out of bounds for {type_name}")
            }
            Error::UniformOrder { from, to } => write!(
                f,
                "uniform_ expects to return a [from, to) range, but found from={} > to={}",
                SixDigits(f64::from_bits(*from)),
                SixDigits(f64::from_bits(*to))
            ),
            Error::UniformRange { dtype, from, to } => write!(
                f,
                "uniform_ expects to-from <= std::numeric_limits<{}>::max(), but found to={} and from={} which result in to-from to exceed the limit",
                dtype.torch_name(),
                SixDigits(f64::from_bits(*to)),
                SixDigits(f64::from_bits(*from))
            ),
            Error::NormalStd { std } => write!(
                f,
                "normal expects std >= 0.0, but found std {}",
                SixDigits(f64::from_bits(*std))
            ),
            Error::ExponentialLambda { lambda } => write!(
                f,
                "exponential_ expects lambda > 0.0, but found lambda={}",
                SixDigits(f64::from_bits(*lambda))
            ),
            Error::GeometricP { p } => write!(
                f,
                "geometric_ expects p to be in (0, 1), but got p={}",
                SixDigits(f64::from_bits(*p))
            ),
            Error::CauchySigma { sigma } => write!(
                f,
                "cauchy_ expects sigma > 0.0, but found sigma={}",
                SixDigits(f64::from_bits(*sigma))
            ),
            Error::AddcdivIntegers => write!(
                f,
                "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
            ),
            Error::ArangeStepNotFinite { step } => write!(
                f,
                "step must be finite but got {}",
                SixDigits(f64::from_bits(*step))
            ),
            Error::ArangeStepZero => f.write_str("step must be nonzero"),
            Error::ArangeRange { start, end } => write!(
                f,
                "unsupported range: {} -> {}",
                SixDigits(f64::from_bits(*start)),
                SixDigits(f64::from_bits(*end))
            ),
            Error::ArangeSign => {
                f.write_str("upper bound and lower bound inconsistent with step sign")
            }
            Error::ArangeSize => f.write_str("invalid size, possible overflow?"),
            Error::RandomFromTo { from, to } => write!(
                f,
                "random_ expects 'from' to be less than 'to', but got from={from} >= to={to}"
            ),
            Error::RandomFromToCast { from, to } => write!(
                f,
                "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from={from} >= to={to}"
            ),
            Error::RandomFromToInc { from, to_inc } => write!(
                f,
                "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from={from} > to_inc={to_inc}"
            ),
            Error::BernoulliP { p } => write!(
                f,
                "bernoulli_ expects p to be in [0, 1], but got p={}",
                SixDigits(f64::from_bits(*p))
            ),
            Error::ContinuousOnly { distribution, type_name } => write!(
                f,
                "{distribution} distribution is a continuous probability distribution. dtype must be a floating point but you specified {type_name}"
            ),
            Error::MultinomialDType { dtype } => write!(
                f,
                "multinomial only supports floating-point dtypes for input, got: {}",
                dtype.torch_name()
            ),
            Error::LogNormalStd { std } => write!(
                f,
                "log_normal_ expects std > 0.0, but found std={}",
                SixDigits(f64::from_bits(*std))
            ),
            Error::RandomBoundsDType => f.write_str(
                "check_random_bounds handles only integral, floating-point and boolean types",
            ),
            Error::RandpermPrecision { limit, name } => {
                write!(f, "n cannot be greater than {limit} for {name} type.")
            }
            Error::NegativeDimension { size } => write!(
                f,
                "Trying to create tensor with negative dimension {size}: [{size}]"
            ),
            Error::RollShiftsRequired => write!(f, "`shifts` required"),
            Error::RollAlign { shifts, dims } => write!(
                f,
                "shifts and dimensions must align. shifts: {shifts}, dims:{dims}"
            ),
            Error::Rot90Dims { got } => write!(
                f,
                "expected total rotation dims == 2, but got dims = {got}"
            ),
            Error::Rot90Rank { rank } => {
                write!(f, "expected total dims >= 2, but got total dims = {rank}")
            }
            Error::Rot90SameDims { dim0, dim1 } => write!(
                f,
                "expected rotation dims to be different, but got dim0 = {dim0} and dim1 = {dim1}"
            ),
            Error::FlipRank { rank } => write!(f, "Input must be >= {rank}-d."),
            Error::TriangleRank { op } => {
                write!(f, "{op}: input tensor must have at least 2 dimensions")
            }
            Error::PadOdd => write!(f, "Padding length must be divisible by 2"),
            Error::PadLength { len, rank } => write!(
                f,
                "Padding length should be less than or equal to two times the input dimension but got padding length {len} and input of dimension {rank}"
            ),
            Error::PadValue { mode } => {
                write!(f, "Padding mode \"{mode}\" doesn't take in value argument")
            }
            Error::PadModeRank { len, rank } => write!(
                f,
                "Padding size {len} is not supported for {rank}D input tensor.\nSupported combinations for non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
            ),
            Error::PadNegative { .. } => write!(
                f,
                "narrow(): length must be non-negative."
            ),
            Error::PadEmpty { dims, sizes } => write!(
                f,
                "Expected {}D or {}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: {sizes:?}",
                dims + 1,
                dims + 2
            ),
            Error::PadReflect {
                argument,
                before,
                after,
                dim,
                sizes,
            } => write!(
                f,
                "Argument #{argument}: Padding size should be less than the corresponding input dimension, but got: padding ({before}, {after}) at dimension {dim} of input {sizes:?}"
            ),
            Error::PadCircular => {
                write!(f, "Padding value causes wrapping around more than once.")
            }
            Error::PadTooSmall { size, out, axis } => write!(
                f,
                "input ({axis}: {size}) is too small. Calculated output {axis}: {out}"
            ),
            Error::RepeatRank => write!(
                f,
                "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
            ),
            Error::RepeatNegative { reps, sizes } => {
                let lead = reps.len() - sizes.len();
                let target: Vec<i128> = reps
                    .iter()
                    .enumerate()
                    .map(|(k, &r)| r as i128 * if k < lead { 1 } else { sizes[k - lead] as i128 })
                    .collect();
                let negative = target.iter().find(|&&t| t < 0).copied().unwrap_or(0);
                write!(
                    f,
                    "Trying to create tensor with negative dimension {negative}: {target:?}"
                )
            }
            Error::RepeatsNegative => write!(f, "Repeats must be non-negative"),
            Error::RepeatsTensorNegative => write!(f, "repeats can not be negative"),
            Error::RepeatsRank => write!(f, "repeats must be 0-dim or 1-dim tensor"),
            Error::RepeatsSize { repeats, dim, size } => write!(
                f,
                "repeats must have the same size as input along dim, but got repeats.size(0) = {repeats} and input.size({dim}) = {size}"
            ),
            Error::DiagRank { rank } => {
                write!(f, "diag(): Supports 1D or 2D tensors. Got {rank}D")
            }
            Error::BlockDiagRank { input, rank } => write!(
                f,
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {input} has {rank} dimensions"
            ),
            Error::BlockDiagEmpty => write!(f, "block_diag expects at least one tensor"),
            Error::CartesianRank { sizes } => {
                write!(f, "Expect a 1D vector, but got shape {sizes:?}")
            }
            Error::MeshgridEmpty => write!(f, "meshgrid expects a non-empty TensorList"),
            Error::MeshgridDTypes => {
                write!(f, "meshgrid expects all tensors to have the same dtype")
            }
            Error::MeshgridRank { sizes } => write!(
                f,
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of sizes {sizes:?}"
            ),
            Error::IndicesNegative { which, size } => {
                write!(f, "{which} must be non-negative, got{size}")
            }
            Error::EyeNegative { which, size } => {
                write!(f, "{which} must be greater or equal to 0, got {size}")
            }
            Error::ScalarOverflow { type_name } => write!(
                f,
                "value cannot be converted to type {type_name} without overflow"
            ),
            Error::IndexAddIndexDType { dtype } => write!(
                f,
                "index_add_(): Expected dtype int32/int64 for index but got: {}",
                dtype.torch_name()
            ),
            Error::IndexAddSourceDType { input, source } => write!(
                f,
                "index_add_(): self ({}) and source ({}) must have the same scalar type",
                input.torch_name(),
                source.torch_name()
            ),
            Error::IndexCopyIndexDType { dtype } => write!(
                f,
                "index_copy_(): Expected a long tensor for index, but got {}",
                dtype.torch_name()
            ),
            Error::IndexCopySourceDType { input, source } => write!(
                f,
                "index_copy_(): self and source expected to have the same dtype, but got (self) {} and (source) {}",
                input.torch_name(),
                source.torch_name()
            ),
            Error::PutSourceDType { input, source } => write!(
                f,
                "put_(): self and source expected to have the same dtype, but got self.dtype = {} and source.dtype = {}",
                input.torch_name(),
                source.torch_name()
            ),
            Error::ScatterRank { what } => write!(
                f,
                "Index tensor must have the same number of dimensions as {what} tensor"
            ),
            Error::ScatterSize {
                index,
                input,
                src,
                dim,
                ..
            } => {
                write!(
                    f,
                    "Expected index {index:?} to be no larger than self {input:?} apart from dimension {dim}"
                )?;
                match src {
                    Some(src) => write!(f, " and to be no larger size than src {src:?}"),
                    None => Ok(()),
                }
            }
            Error::ZeroDivision => write!(f, "ZeroDivisionError"),
            Error::GatherRank => write!(
                f,
                "Index tensor must have the same number of dimensions as input tensor"
            ),
            Error::GatherSize {
                dim,
                index,
                input,
                gathered,
            } => write!(
                f,
                "Size does not match at dimension {dim} expected index {index:?} to be no larger than self {input:?} apart from dimension {gathered}"
            ),
            Error::TakeAlongRank { input, index } => write!(
                f,
                "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {input} dimensions for input, and {index} dimensions for indices"
            ),
            Error::IndexOutOfBounds {
                op,
                index,
                dim,
                size,
            } => match op {
                IndexOp::Gather | IndexOp::TakeAlongDim => write!(
                    f,
                    "index {index} is out of bounds for dimension {dim} with size {size}"
                ),
                IndexOp::IndexSelect => write!(f, "index out of range in self"),
                IndexOp::Take | IndexOp::Put => write!(
                    f,
                    "out of range: tried to access index {index} on a tensor of {size} elements."
                ),
            },
            Error::UnsupportedInput { op, kind } => {
                write!(f, "{op}(): does not support {kind} input")
            }
            Error::KernelRank { rank, max } => write!(
                f,
                "a CUDA kernel takes at most {max} dimensions, and this layout keeps {rank} after merging"
            ),
            Error::OutOfMemory { bytes } => write!(
                f,
                "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {bytes} bytes. Error code 12 (Cannot allocate memory)"
            ),
            Error::ElementCount { shape, numel } => {
                write!(
                    f,
                    "shape '{}' is invalid for input of size {numel}",
                    Sizes(shape)
                )
            }
            Error::RankMismatch { expected, actual } => {
                write!(f, "a shape of rank {expected} cannot take {actual} sizes")
            }
            Error::StaticSizeMismatch {
                dim,
                expected,
                actual,
            } => write!(
                f,
                "size {actual} at dimension {dim} contradicts the static size {expected}"
            ),
            Error::IndexOutOfRange { index, dim, size } => write!(
                f,
                "index {index} is out of bounds for dimension {dim} with size {size}"
            ),
            Error::InvalidDevice(s) => write!(f, "Invalid device string: '{s}'"),
            Error::DimOutOfRange { dim, rank } => {
                let span = (*rank).max(1) as isize;
                write!(
                    f,
                    "Dimension out of range (expected to be in range of [{}, {}], but got {dim})",
                    -span,
                    span - 1
                )
            }
            Error::PermuteLength { rank, dims } => write!(
                f,
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = {dims}"
            ),
            Error::PermuteDuplicate => write!(f, "permute(): duplicate dims are not allowed."),
            Error::NarrowRankZero => write!(f, "narrow() cannot be applied to a 0-dim tensor."),
            Error::NarrowNegativeLength => write!(f, "narrow(): length must be non-negative."),
            Error::NarrowStart { start, size } => write!(
                f,
                "start out of range (expected to be in range of [{}, {size}], but got {start})",
                -(*size as isize)
            ),
            Error::NarrowLength {
                start,
                length,
                size,
            } => write!(
                f,
                "start ({start}) + length ({length}) exceeds dimension size ({size})."
            ),
            Error::SelectRankZero => write!(f, "select() cannot be applied to a 0-dim tensor."),
            Error::SelectIndex { index, sizes, dim } => write!(
                f,
                "select(): index {index} out of range for tensor of size {} at dimension {dim}",
                Sizes(sizes)
            ),
            Error::DiagonalSameDims { dim1, dim2 } => {
                write!(f, "diagonal dimensions cannot be identical {dim1}, {dim2}")
            }
            Error::DimRepeated { dim } => {
                write!(f, "dim {dim} appears multiple times in the list of dims")
            }
            Error::UnfoldSize { dim, max, size } => write!(
                f,
                "maximum size for tensor at dimension {dim} is {max} but size is {size}"
            ),
            Error::UnfoldStep { step } => write!(f, "step is {step} but must be > 0"),
            Error::UnfoldNegativeSize { size } => write!(f, "size is {size} but must be >= 0"),
            Error::ViewStrides => write!(
                f,
                "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            ),
            Error::InferTwice => write!(f, "only one dimension can be inferred"),
            Error::InferAmbiguous { shape } => write!(
                f,
                "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous",
                Sizes(shape)
            ),
            Error::InvalidShapeDim { dim, index, shape } => write!(
                f,
                "invalid shape dimension {dim} at index {index} of shape {}",
                Sizes(shape)
            ),
            Error::AsStridedRank { .. } => write!(f, "mismatch in length of strides and shape"),
            Error::AsStridedBounds {
                sizes,
                strides,
                offset,
                itemsize,
                required,
                storage,
            } => match required {
                Some(required) => write!(
                    f,
                    "setStorage: sizes {}, strides {}, storage offset {offset}, and itemsize {itemsize} requiring a storage size of {required} are out of bounds for storage of size {storage}",
                    Sizes(sizes),
                    Sizes(strides)
                ),
                None => write!(
                    f,
                    "Storage size calculation overflowed with sizes={} and strides={}",
                    Sizes(sizes),
                    Sizes(strides)
                ),
            },
            Error::SplitNegative { split_size } => write!(
                f,
                "split expects split_size be non-negative, but got split_size={split_size}"
            ),
            Error::SplitZero { size } => write!(
                f,
                "split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
            ),
            Error::SplitSizesNegative { split_sizes } => write!(
                f,
                "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={}",
                Sizes(split_sizes)
            ),
            Error::SplitSizesSum {
                size,
                dim,
                split_sizes,
            } => write!(
                f,
                "split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension {dim}), but got split_sizes={}",
                Sizes(split_sizes)
            ),
            Error::ChunkCount { chunks } => {
                write!(
                    f,
                    "chunk expects `chunks` to be greater than 0, got: {chunks}"
                )
            }
            Error::TensorSplitSections { sections } => {
                write!(
                    f,
                    "number of sections must be larger than 0, got {sections}"
                )
            }
            Error::SplitRankZero { op } => {
                write!(f, "{op} expects at least a 1-dimensional tensor")
            }
            Error::TensorSplitRankZero => write!(
                f,
                "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
            ),
            Error::NoDimensions { dim } => {
                write!(
                    f,
                    "Dimension specified as {dim} but tensor has no dimensions"
                )
            }
            Error::SplitRank { op, min, rank } => write!(
                f,
                "torch.{op} requires a tensor with at least {min} dimension, but got a tensor with {rank} dimensions!"
            ),
            Error::SplitDivisible {
                op,
                dim,
                size,
                sections,
            } => write!(
                f,
                "torch.{op} attempted to split along dimension {dim}, but the size of the dimension {size} is not divisible by the split_size {sections}!"
            ),
            Error::MovedimLengths {
                source,
                destination,
            } => write!(
                f,
                "movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims as destination ({} dims)",
                Sizes(source),
                Sizes(destination)
            ),
            Error::MovedimRepeated { which, dims } => {
                write!(f, "movedim: repeated dim in `{which}` ({})", Sizes(dims))
            }
            Error::UnflattenEmpty => write!(f, "unflatten: sizes must be non-empty"),
            Error::UnflattenUnexpected { inner } => {
                write!(f, "unflatten got an unexpected error:\n{inner}")
            }
            Error::UnflattenSizes { sizes, dim, size } => write!(
                f,
                "unflatten: Provided sizes {} don't multiply up to the size of dim {dim} ({size}) in the input tensor",
                Sizes(sizes)
            ),
            Error::FlattenOrder => {
                write!(
                    f,
                    "flatten() has invalid args: start_dim cannot come after end_dim"
                )
            }
            Error::TRank { rank } => write!(
                f,
                "t() expects a tensor with <= 2 dimensions, but self is {rank}D"
            ),
            Error::MtRank { rank } => write!(
                f,
                "tensor.mT is only supported on matrices or batches of matrices. Got {rank}-D tensor."
            ),
            Error::MhRank { rank } => write!(
                f,
                "tensor.mH is only supported on matrices or batches of matrices. Got {rank}-D tensor."
            ),
            Error::AdjointRank { rank } => write!(
                f,
                "tensor.adjoint() is only supported on matrices or batches of matrices. Got {rank}-D tensor."
            ),
            Error::MemoryFormatRank { format, .. } => match format {
                crate::layout::MemoryFormat::ChannelsLast3d => {
                    write!(f, "required rank 5 tensor to use channels_last_3d format")
                }
                _ => write!(f, "required rank 4 tensor to use channels_last format"),
            },
            Error::Matmul(e) => write!(f, "{e}"),
            Error::SliceStepZero => write!(f, "slice step cannot be zero"),
            Error::SliceStepNegative => write!(f, "step must be greater than zero"),
            Error::IndexRank { rank, indices } => {
                if indices > rank {
                    write!(f, "too many indices for tensor of dimension {rank}")
                } else {
                    write!(
                        f,
                        "expected {rank} indices for tensor of dimension {rank}, got {indices}"
                    )
                }
            }
        }
    }
}

impl std::error::Error for Error {}

/// The panicking forms of fallible operations (`a + b` beside
/// `a.try_add(&b)`): the value, or a panic with the error's text.
pub(crate) trait OrPanic<X> {
    /// The value, or a panic whose message is PyTorch's text.
    fn or_panic(self) -> X;
}

impl<X> OrPanic<X> for Result<X, Error> {
    #[inline]
    fn or_panic(self) -> X {
        match self {
            Ok(x) => x,
            Err(e) => panic_with(e),
        }
    }
}

/// [`OrPanic::or_panic`] as a function.
#[inline]
pub(crate) fn or_panic<X>(result: Result<X, Error>) -> X {
    result.or_panic()
}

/// The one panic behind [`OrPanic`], compiled once rather than once per
/// result type.
#[cold]
#[inline(never)]
fn panic_with(e: Error) -> ! {
    panic!("{e}")
}

/// The tensor type name PyTorch's `expand` message uses (legacy names for
/// the older dtypes).
fn legacy_tensor_type(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "torch.HalfTensor",
        DType::BF16 => "CPUBFloat16Type",
        DType::F32 => "torch.FloatTensor",
        DType::F64 => "torch.DoubleTensor",
        DType::C64 => "CPUComplexFloatType",
        DType::C128 => "CPUComplexDoubleType",
        DType::U8 => "torch.ByteTensor",
        DType::I8 => "torch.CharTensor",
        DType::I16 => "torch.ShortTensor",
        DType::I32 => "torch.IntTensor",
        DType::I64 => "torch.LongTensor",
        DType::Bool => "CPUBoolType",
    }
}

/// PyTorch's name for an operation's kernel on `device`, for its
/// "`kernel` not implemented for 'Type'" texts, which differ by device
/// (`"floor_vml_cpu"` on the CPU is `"floor_cuda"` on a GPU; recorded in
/// `tests/fixtures/cuda_errors.json`).
#[inline]
pub(crate) fn kernel_on(
    device: crate::device::Device,
    cpu: &'static str,
    cuda: &'static str,
) -> &'static str {
    match device {
        crate::device::Device::Cpu => cpu,
        crate::device::Device::Cuda(_) => cuda,
    }
}

/// A float as C++'s `ostream` writes it by default (`%g`, six significant
/// digits): `1.5`, `1` for `1.0000001`, `1e-07`, `nan`, `inf`.
pub(crate) struct SixDigits(pub(crate) f64);
impl fmt::Display for SixDigits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x.is_nan() {
            return write!(f, "nan");
        }
        if x.is_infinite() {
            return write!(f, "{}", if x > 0.0 { "inf" } else { "-inf" });
        }
        if x == 0.0 {
            return write!(f, "{}", if x.is_sign_negative() { "-0" } else { "0" });
        }
        // The decimal exponent after rounding to six digits.
        let scientific = format!("{x:.5e}");
        let (mantissa, exponent) = scientific
            .split_once('e')
            .expect("`{:e}` writes an exponent");
        let exponent: i32 = exponent.parse().expect("an integer exponent");
        let trim = |s: &str| -> String {
            match s.contains('.') {
                true => s.trim_end_matches('0').trim_end_matches('.').to_string(),
                false => s.to_string(),
            }
        };
        if !(-4..6).contains(&exponent) {
            let sign = if exponent < 0 { '-' } else { '+' };
            write!(f, "{}e{sign}{:02}", trim(mantissa), exponent.abs())
        } else {
            let decimals = (5 - exponent).max(0) as usize;
            write!(f, "{}", trim(&format!("{x:.decimals$}")))
        }
    }
}

/// A dtype's element type as C++'s `typeid` names it (`long int`,
/// `c10::Half`), which PyTorch prints in some dtype errors.
fn type_id_name(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "float",
        DType::F64 => "double",
        DType::I64 => "long int",
        DType::I32 => "int",
        DType::I16 => "short int",
        DType::I8 => "signed char",
        DType::U8 => "unsigned char",
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::C64 => "c10::complex<float>",
        DType::C128 => "c10::complex<double>",
        DType::Bool => "bool",
    }
}

#[cfg(test)]
mod six_digits_tests {
    use super::SixDigits;

    #[test]
    fn floats_print_as_cpp_streams_do() {
        let cases = [
            (1.5, "1.5"),
            (1.0000001, "1"),
            (-0.1, "-0.1"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (1e-7, "1e-07"),
            (123456789.0, "1.23457e+08"),
            (0.0001, "0.0001"),
            (2.0, "2"),
        ];
        for (x, want) in cases {
            assert_eq!(SixDigits(x).to_string(), want, "{x}");
        }
    }
}
