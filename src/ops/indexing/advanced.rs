//! Advanced indexing: `x.index(&[..])` and `index_put_`; the rules are on
//! [`Index`].

use super::scatter::{Assign, Reduce, ScatterElement, WithReducer};
use crate::backend::{
    Backend, GatherFault, GatherSource, IndexWrap, Indexing, Masking, ScatterTarget, ScatterValues,
    Scattering, StridedMut, StridedRef,
};
use crate::dtype::Element;
use crate::error::Error;
use crate::layout::views::{Ellipsis, NewAxis, SliceItem, Strided};
use crate::layout::{StridedLayout, checked_numel, contiguous_strides, numel};
use crate::ops::broadcast_strides;
use crate::ops::functions::{Add, BinaryFn, Cast, Mul, WithRight};
use crate::shape::advanced::{AdvancedShape, IndexTensor, MaskTensor};
use crate::shape::broadcast_sizes_into;
use crate::shape::dynamic::{DynShape, DynSizes};
use crate::shape::list::{Cons, Nil};
use crate::shape::slice::SliceArg;
use crate::storage::{Repr, Writable};
use crate::tensor::{Tensor, from_parts, owned_parts};

/// A tensor that can index another on device `D`: int64 and int32 tensors
/// (positions), bool tensors (masks), of any shape, and an [`AnyTensor`]
/// of one of those dtypes.
///
/// [`AnyTensor`]: crate::dynamic::AnyTensor
#[diagnostic::on_unimplemented(
    message = "tensors used as indices must be long, int, byte or bool tensors: `{Self}` is not one",
    label = "an index tensor of another dtype",
    note = "index by an int64, int32, bool or uint8 tensor on the same device"
)]
pub trait AsIndex<D: Backend> {
    /// The tensor's elements, shape-erased; PyTorch's error for a dtype
    /// that cannot index.
    #[doc(hidden)]
    fn as_index(&self) -> Result<IndexOperand<'_, D>, Error>;
}

/// An index tensor, shape-erased (see [`AsIndex`]).
#[doc(hidden)]
#[derive(Debug)]
pub enum IndexOperand<'a, D: Backend> {
    /// Positions, int64.
    Long(StridedRef<'a, i64, D>),
    /// Positions, int32.
    Int(StridedRef<'a, i32, D>),
    /// A mask.
    Mask(StridedRef<'a, bool, D>),
    /// A mask of bytes (non-zero is true; PyTorch deprecates them).
    Bytes(StridedRef<'a, u8, D>),
}

impl<D: Backend> Clone for IndexOperand<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: Backend> Copy for IndexOperand<'_, D> {}

macro_rules! as_index {
    ($($t:ty => $variant:ident),*) => {$(
        impl<S: crate::shape::Shape, D: Backend, R: Repr> AsIndex<D> for Tensor<$t, S, D, R> {
            fn as_index(&self) -> Result<IndexOperand<'_, D>, Error> {
                Ok(IndexOperand::$variant(StridedRef::new(&self.data, &self.layout)))
            }
        }
    )*};
}
as_index!(i64 => Long, i32 => Int, bool => Mask, u8 => Bytes);

/// Advanced indexing: `x.index(&[..])` reads and `x.index_put_(&[..],
/// &values, accumulate)` writes, with PyTorch's rules.
///
/// An index is a list of items: integer-array tensors (int64 or int32),
/// bool masks, and the basic items of `s![..]` (an integer, a range with a
/// step, a new axis, an ellipsis). As in PyTorch:
///
/// - The basic items apply first, as a view (an integer removes its
///   dimension, a range narrows it, `NewAxis` inserts one of size 1).
/// - A bool mask of rank `r` covers `r` dimensions, whose sizes it must
///   have, and stands for the `r` integer tensors of its `nonzero()`
///   coordinates; a rank-0 mask inserts a dimension of size 1 (true) or 0
///   (false).
/// - The integer tensors broadcast together to a shape `B`. If the
///   dimensions they index are next to each other, `B` replaces them where
///   they are; if a basic item separates them, `B`'s dimensions come first
///   and the others follow in order.
/// - Negative indices count from the end; an index outside is PyTorch's
///   error, found before anything is read or written.
///
/// Reading returns a new contiguous tensor. `index_put_` writes `values`
/// (broadcast to the shape the same index reads) into `self`; with
/// `accumulate` repeated positions add up. Without it PyTorch leaves the
/// winner of a repeated position unspecified; here, on the CPU, the last
/// write in row-major order of the broadcast index wins, and on CUDA one of
/// them, unspecified (the writes race).
///
/// ```
/// use shaped::prelude::*;
/// let x = DynTensor::<i64>::arange(12).view(&[3, 4]).unwrap().to_owned();
/// let rows = DynTensor::<i64>::from_vec(vec![2, 0], &[2]).unwrap();
/// let cols = DynTensor::<i64>::from_vec(vec![-1, 1], &[2]).unwrap();
/// // x[rows, cols]: one element per pair.
/// let picked = x.index(&[Index::Tensor(&rows), Index::Tensor(&cols)]).unwrap();
/// assert_eq!(picked.to_vec(), [11, 1]);
/// // x[rows, ::2]: rows, every other column.
/// let block = x.index(&[Index::Tensor(&rows), Index::Slice((..).into_stepped(2))]).unwrap();
/// assert_eq!(block.shape(), [2, 2]);
/// assert_eq!(block.to_vec(), [8, 10, 0, 2]);
/// // x[x > 8] = 0
/// let mut y = x.clone();
/// let big = x.gt(8);
/// y.index_put_(&[&big], &DynTensor::<i64>::zeros(&[1]), false).unwrap();
/// assert_eq!(y.to_vec(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0]);
/// ```
///
/// One item is an index tensor or a basic item. The constructors are
/// spelled as PyTorch users read an index:
/// `Index::Tensor(&idx)`, `Index::Slice(1..)`, `Index::Slice(3)` (an
/// integer), `Index::NewAxis`, `Index::Ellipsis`; any item of `s![..]`
/// converts too (`Index::from(item)`).
pub struct Index<'a, D: Backend = crate::backend::Cpu>(Item<'a, D>);

enum Item<'a, D: Backend> {
    Tensor(&'a dyn AsIndex<D>),
    Basic(SliceItem),
}

impl<D: Backend> Clone for Index<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: Backend> Copy for Index<'_, D> {}
impl<D: Backend> Clone for Item<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: Backend> Copy for Item<'_, D> {}

#[allow(non_snake_case, non_upper_case_globals)]
impl<'a, D: Backend> Index<'a, D> {
    /// An index tensor: int64 or int32 positions, or a bool mask.
    pub fn Tensor(index: &'a dyn AsIndex<D>) -> Self {
        Index(Item::Tensor(index))
    }

    /// A basic item: an integer (`Index::Slice(-1)`) or a range
    /// (`Index::Slice(..)`, `Index::Slice((1..).into_stepped(2))`).
    pub fn Slice(item: impl Into<SliceItem>) -> Self {
        Index(Item::Basic(item.into()))
    }

    /// A new dimension of size 1 (PyTorch's `None`).
    pub const NewAxis: Self = Index(Item::Basic(SliceItem::NewAxis));

    /// The dimensions no other item names (PyTorch's `...`).
    pub const Ellipsis: Self = Index(Item::Basic(SliceItem::Ellipsis));
}

impl<D: Backend> From<SliceItem> for Index<'_, D> {
    fn from(item: SliceItem) -> Self {
        Index(Item::Basic(item))
    }
}

/// A range with a step, for [`Index::Slice`]: `(1..).into_stepped(2)` is
/// PyTorch's `1::2`.
pub trait IntoStepped {
    /// This range every `step` elements.
    fn into_stepped(self, step: isize) -> SliceItem;
}
impl<R: Into<SliceItem>> IntoStepped for R {
    fn into_stepped(self, step: isize) -> SliceItem {
        self.into().stepped(step)
    }
}

/// One integer index tensor of a plan, on dimension `dim` of the view.
struct Positions<D: Backend> {
    dim: usize,
    /// For a rank-0 tensor of positions, its item: PyTorch reads it as an
    /// integer (it takes no part in placing the broadcast dimensions, and
    /// its error names the item).
    scalar_item: Option<usize>,
    long: Result<D::Ptr<i64>, D::Ptr<i32>>,
    sizes: Vec<usize>,
    strides: Vec<usize>,
    offset: usize,
}

/// `$body` with `$i` the positions' elements as a `StridedRef` of their
/// dtype (int64 or int32).
macro_rules! with_positions {
    ($p:expr, |$i:ident| $body:expr) => {{
        let p = &$p;
        match p.long {
            Ok(ptr) => {
                let $i = StridedRef {
                    ptr,
                    sizes: &p.sizes[..],
                    strides: &p.strides[..],
                    offset: p.offset,
                };
                $body
            }
            Err(ptr) => {
                let $i = StridedRef {
                    ptr,
                    sizes: &p.sizes[..],
                    strides: &p.strides[..],
                    offset: p.offset,
                };
                $body
            }
        }
    }};
}

/// What an index reads or writes: the view the basic items leave, the
/// integer tensors on its dimensions (masks already turned into their
/// coordinates, whose buffers `_owned` keeps), and the result's shape.
struct Plan<D: Backend> {
    view: Strided,
    positions: Vec<Positions<D>>,
    _owned: Vec<D::Buffer<i64>>,
    /// The broadcast shape of the index tensors.
    broadcast: Vec<usize>,
    /// Where `broadcast`'s dimensions go in the result: in place of the
    /// indexed ones (adjacent) or first.
    at: usize,
    /// The result's sizes.
    sizes: Vec<usize>,
    /// The view's strides over the result's sizes (0 over `broadcast`).
    strides: Vec<usize>,
}

/// The plan of `items` over a tensor of layout `layout`.
fn plan<D: Masking>(layout: &Strided, items: &[Index<'_, D>]) -> Result<Plan<D>, Error> {
    // The basic items, with full ranges where tensors stand (a mask of
    // rank r stands for r dimensions; a rank-0 mask for a new one).
    let mut basic = Vec::with_capacity(items.len());
    // The item each basic item comes from (a mask of rank r gives r).
    let mut from_item = Vec::with_capacity(items.len());
    let mut tensors = Vec::new(); // (first basic item, operand)
    for (position, item) in items.iter().enumerate() {
        match item.0 {
            Item::Basic(b) => {
                basic.push(b);
                from_item.push(position);
            }
            Item::Tensor(t) => {
                let operand = t.as_index()?;
                tensors.push((basic.len(), operand));
                let covers = match operand {
                    IndexOperand::Mask(StridedRef { sizes, .. })
                    | IndexOperand::Bytes(StridedRef { sizes, .. })
                        if sizes.is_empty() =>
                    {
                        basic.push(SliceItem::NewAxis);
                        from_item.push(position);
                        continue;
                    }
                    IndexOperand::Mask(m) => m.sizes.len(),
                    IndexOperand::Bytes(m) => m.sizes.len(),
                    _ => 1,
                };
                basic.extend(core::iter::repeat_n(SliceItem::from(..), covers));
                from_item.extend(core::iter::repeat_n(position, covers));
            }
        }
    }
    let ellipses = basic.iter().filter(|b| **b == SliceItem::Ellipsis).count();
    if ellipses > 1 {
        let named = basic
            .iter()
            .filter(|b| matches!(b, SliceItem::Index(_) | SliceItem::Range { .. }))
            .count();
        let got = named + ellipses * layout.rank().saturating_sub(named);
        if got > layout.rank() {
            return Err(Error::IndexCount {
                rank: layout.rank(),
                got,
            });
        }
    }
    // (PyTorch numbers an integer's dimension by its item.)
    let view = layout.slice(&basic).map_err(|e| match e {
        Error::IndexOutOfRange { index, dim, size } => Error::IndexOutOfRange {
            index,
            dim: from_item.get(dim).copied().unwrap_or(dim),
            size,
        },
        e => e,
    })?;
    // The view's dimension of each basic item.
    let named = basic
        .iter()
        .filter(|b| matches!(b, SliceItem::Index(_) | SliceItem::Range { .. }))
        .count();
    let mut first_dim = Vec::with_capacity(basic.len());
    let mut dim = 0;
    for b in &basic {
        first_dim.push(dim);
        dim += match b {
            SliceItem::Index(_) => 0,
            SliceItem::Range { .. } | SliceItem::NewAxis => 1,
            SliceItem::Ellipsis => layout.rank().saturating_sub(named),
        };
    }
    let mut positions = Vec::new();
    let mut owned = Vec::new();
    for (item, operand) in tensors {
        let dim = first_dim[item];
        match operand {
            IndexOperand::Long(x) => {
                positions.push(positions_of(dim, Ok(x.ptr), &x, from_item[item]))
            }
            IndexOperand::Int(x) => {
                positions.push(positions_of(dim, Err(x.ptr), &x, from_item[item]))
            }
            IndexOperand::Mask(m) => {
                mask_positions(m, dim, &view, &mut positions, &mut owned)?;
            }
            IndexOperand::Bytes(b) => {
                let mask = D::map1(b, WithRight(crate::ops::functions::Ne, 0u8))?;
                let strides = contiguous_strides::<DynSizes>(b.sizes);
                let m = StridedRef {
                    ptr: D::ptr(&mask),
                    sizes: b.sizes,
                    strides: &strides,
                    offset: 0,
                };
                mask_positions(m, dim, &view, &mut positions, &mut owned)?;
            }
        }
    }
    // The index tensors' broadcast shape, and where it goes.
    let mut broadcast: Vec<usize> = Vec::new();
    for p in &positions {
        let rank = broadcast.len().max(p.sizes.len());
        let mut joined = vec![0; rank];
        broadcast_sizes_into(&broadcast, &p.sizes, &mut joined).map_err(|_| {
            Error::IndexBroadcast {
                shapes: positions.iter().map(|p| p.sizes.clone()).collect(),
            }
        })?;
        broadcast = joined;
    }
    let dims: Vec<usize> = positions.iter().map(|p| p.dim).collect();
    let rest: Vec<usize> = (0..view.rank()).filter(|d| !dims.contains(d)).collect();
    // Adjacency among the tensors that are not read as integers, once
    // those integers' dimensions are gone.
    let placed: Vec<usize> = positions
        .iter()
        .filter(|p| p.scalar_item.is_none())
        .map(|p| rest.iter().filter(|&&r| r < p.dim).count())
        .collect();
    let adjacent = placed.windows(2).all(|w| w[1] == w[0]);
    let at = match adjacent {
        true => placed.first().copied().unwrap_or(0),
        false => 0,
    };
    let mut sizes = Vec::with_capacity(broadcast.len() + rest.len());
    let mut strides = Vec::with_capacity(sizes.capacity());
    for (k, &d) in rest.iter().enumerate() {
        if k == at {
            sizes.extend_from_slice(&broadcast);
            strides.extend(core::iter::repeat_n(0, broadcast.len()));
        }
        sizes.push(view.sizes()[d]);
        strides.push(view.strides()[d]);
    }
    if rest.len() <= at {
        sizes.extend_from_slice(&broadcast);
        strides.extend(core::iter::repeat_n(0, broadcast.len()));
    }
    Ok(Plan {
        view,
        positions,
        _owned: owned,
        broadcast,
        at,
        sizes,
        strides,
    })
}

/// The coordinates of `m`'s true elements as integer index tensors on
/// the dimensions from `dim` on (a rank-0 mask: on the new one there), their
/// buffer kept in `owned`; PyTorch's error when the mask's shape is not
/// that of the dimensions it covers.
fn mask_positions<D: Masking>(
    m: StridedRef<'_, bool, D>,
    dim: usize,
    view: &Strided,
    positions: &mut Vec<Positions<D>>,
    owned: &mut Vec<D::Buffer<i64>>,
) -> Result<(), Error> {
    let covered = m.sizes.len().max(1);
    let as_vector = [1];
    let mask = match m.sizes.is_empty() {
        true => StridedRef {
            sizes: &as_vector,
            strides: &[0],
            ..m
        },
        false => {
            let indexed = &view.sizes()[dim..dim + covered];
            if let Some(j) = (0..covered).find(|&j| m.sizes[j] != indexed[j]) {
                return Err(Error::MaskShape {
                    mask: m.sizes.to_vec(),
                    indexed: view.sizes().to_vec(),
                    at: j,
                    dim: dim + j,
                });
            }
            m
        }
    };
    let (buffer, count) = D::nonzero(mask)?;
    let ptr = D::ptr(&buffer);
    owned.push(buffer);
    for j in 0..covered {
        positions.push(Positions {
            dim: dim + j,
            scalar_item: None,
            long: Ok(ptr),
            sizes: vec![count],
            strides: vec![1],
            offset: j * count,
        });
    }
    Ok(())
}

fn positions_of<D: Backend, I: Element>(
    dim: usize,
    long: Result<D::Ptr<i64>, D::Ptr<i32>>,
    x: &StridedRef<'_, I, D>,
    item: usize,
) -> Positions<D> {
    Positions {
        dim,
        scalar_item: x.sizes.is_empty().then_some(item),
        long,
        sizes: x.sizes.to_vec(),
        strides: x.strides.to_vec(),
        offset: x.offset,
    }
}

impl<D: Backend> Plan<D> {
    /// An index tensor's strides over the result's sizes.
    fn over_result(&self, sizes: &[usize], strides: &[usize]) -> Vec<usize> {
        let mut over = vec![0; self.sizes.len()];
        let b = self.broadcast.len();
        broadcast_strides(
            sizes,
            strides,
            &self.broadcast,
            &mut over[self.at..self.at + b],
        );
        over
    }
}

/// The shape `x.index(indices)` would have, with the errors the index
/// itself gives (ranks, masks, broadcasting), reading no element of `x`.
pub(crate) fn indexed_shape<T: Element, D: Masking>(
    x: StridedRef<'_, T, D>,
    indices: &[&dyn AsIndex<D>],
) -> Result<Vec<usize>, Error> {
    let layout = Strided::new(x.sizes, x.strides, x.offset);
    let items: Vec<Index<'_, D>> = indices.iter().map(|&t| Index::Tensor(t)).collect();
    Ok(plan(&layout, &items)?.sizes)
}

/// Checks every index tensor of `plan` against its dimension (negative
/// ones from the end): PyTorch's error for the first outside.
fn check_all<D: Indexing>(plan: &Plan<D>) -> Result<(), Error> {
    // (PyTorch reads nothing from an empty result, and checks nothing.)
    if plan.sizes.contains(&0) {
        return Ok(());
    }
    // Integers (rank-0 tensors) first, named by their item; then the
    // others, numbered among themselves (a mask counts as one per
    // dimension it covers): the dimension PyTorch's text names.
    let scalars = plan
        .positions
        .iter()
        .filter_map(|p| Some((p.scalar_item?, p)));
    let tensors = plan
        .positions
        .iter()
        .filter(|p| p.scalar_item.is_none())
        .enumerate();
    for (named, p) in scalars.chain(tensors) {
        let len = plan.view.sizes()[p.dim];
        let fault = with_positions!(p, |x| D::check_indices(x, len, IndexWrap::FromEnd));
        match fault {
            Ok(()) => {}
            Err(GatherFault::Index(_)) if len == 0 => return Err(Error::IndexIntoEmpty),
            Err(GatherFault::Index(i)) => {
                return Err(Error::IndexOutOfRange {
                    index: i as isize,
                    dim: named,
                    size: len,
                });
            }
            Err(GatherFault::Failed(e)) => return Err(e),
        }
    }
    Ok(())
}

/// Where an index reads and writes: one index over the result's sizes,
/// and the step and length of what it indexes. One tensor indexes its
/// dimension; several are folded into one storage offset per position
/// (`sum of index * stride`, after the check), indexing the storage with
/// stride 1.
struct Addressing<D: Backend> {
    index: Positions<D>,
    dim_stride: usize,
    dim_len: usize,
    wrap: IndexWrap,
    _offsets: Option<D::Buffer<i64>>,
}

fn addressing<D: Indexing>(plan: &Plan<D>) -> Result<Addressing<D>, Error> {
    if let [p] = &plan.positions[..] {
        return Ok(Addressing {
            index: Positions {
                dim: p.dim,
                scalar_item: None,
                long: p.long,
                sizes: plan.sizes.clone(),
                strides: plan.over_result(&p.sizes, &p.strides),
                offset: p.offset,
            },
            dim_stride: plan.view.strides()[p.dim],
            dim_len: plan.view.sizes()[p.dim],
            wrap: IndexWrap::FromEnd,
            _offsets: None,
        });
    }
    let b = &plan.broadcast;
    let contiguous: Vec<usize> = contiguous_strides::<DynSizes>(b).to_vec();
    let mut total: Option<D::Buffer<i64>> = None;
    let mut span = 1usize;
    for p in &plan.positions {
        let len = plan.view.sizes()[p.dim];
        let stride = plan.view.strides()[p.dim];
        span = span.saturating_add(len.saturating_sub(1).saturating_mul(stride));
        // This tensor's offsets: (index, from the end when negative) * stride.
        let long = with_positions!(p, |x| D::map1(x, Cast::<i64>::new()))?;
        let as_long = StridedRef {
            ptr: D::ptr(&long),
            sizes: &p.sizes,
            strides: &contiguous_strides::<DynSizes>(&p.sizes),
            offset: 0,
        };
        let negative = D::map1(as_long, WithRight(crate::ops::functions::Lt, 0i64))?;
        let wrapped = D::map1(as_long, WithRight(Add, len as i64))?;
        let at = |buffer: &D::Buffer<i64>| StridedRef {
            ptr: D::ptr(buffer),
            ..as_long
        };
        let normal: D::Buffer<i64> = D::select(
            &p.sizes,
            StridedRef {
                ptr: D::ptr(&negative),
                sizes: as_long.sizes,
                strides: as_long.strides,
                offset: 0,
            },
            at(&wrapped),
            as_long,
        )?;
        let offsets = D::map1(at(&normal), WithRight(Mul, stride as i64))?;
        // Summed into the broadcast shape.
        let mut mine = vec![0; b.len()];
        broadcast_strides(&p.sizes, as_long.strides, b, &mut mine);
        let this = StridedRef {
            ptr: D::ptr(&offsets),
            sizes: &b[..],
            strides: &mine,
            offset: 0,
        };
        total = Some(match total {
            None => D::map1(this, crate::ops::functions::Identity)?,
            Some(sum) => {
                let sum = StridedRef {
                    ptr: D::ptr(&sum),
                    sizes: &b[..],
                    strides: &contiguous,
                    offset: 0,
                };
                D::map2(b, sum, this, Add)?
            }
        });
    }
    let total = total.expect("several index tensors");
    Ok(Addressing {
        index: Positions {
            dim: 0,
            scalar_item: None,
            long: Ok(D::ptr(&total)),
            sizes: plan.sizes.clone(),
            strides: plan.over_result(b, &contiguous),
            offset: 0,
        },
        dim_stride: 1,
        dim_len: span,
        wrap: IndexWrap::Never,
        _offsets: Some(total),
    })
}

/// `x[items]` on shape-erased operands: a new contiguous tensor.
fn read<T: Element, D: Masking + Indexing>(
    x: StridedRef<'_, T, D>,
    items: &[Index<'_, D>],
) -> Result<Tensor<T, DynShape, D>, Error> {
    let layout = Strided::new(x.sizes, x.strides, x.offset);
    let plan = plan(&layout, items)?;
    if plan.positions.is_empty() {
        // Basic items alone: a copy of the view.
        let view = StridedRef {
            ptr: x.ptr,
            sizes: plan.view.sizes(),
            strides: plan.view.strides(),
            offset: plan.view.offset(),
        };
        let buffer = D::map1(view, crate::ops::functions::Identity)?;
        let layout = StridedLayout::contiguous(DynSizes::from_slice(plan.view.sizes()));
        return Ok(from_parts!(owned_parts(buffer, layout)));
    }
    check_all(&plan)?;
    checked_numel(&plan.sizes)?;
    let address = addressing(&plan)?;
    let source = GatherSource {
        elements: StridedRef {
            ptr: x.ptr,
            sizes: &plan.sizes,
            strides: &plan.strides,
            offset: plan.view.offset(),
        },
        dim_stride: address.dim_stride,
        dim_len: address.dim_len,
    };
    let gathered = with_positions!(address.index, |i| D::gather(
        &plan.sizes,
        source,
        i,
        address.wrap
    ));
    let buffer = match gathered {
        Ok(buffer) => buffer,
        Err(GatherFault::Failed(e)) => return Err(e),
        // (Every index was checked.)
        Err(GatherFault::Index(i)) => {
            return Err(Error::IndexOutOfRange {
                index: i as isize,
                dim: address.index.dim,
                size: address.dim_len,
            });
        }
    };
    let layout = StridedLayout::contiguous(DynSizes::from_slice(&plan.sizes));
    Ok(from_parts!(owned_parts(buffer, layout)))
}

/// `x[indices] = values` (or `+=` with `accumulate`) on shape-erased
/// operands; nothing is written when an index is bad.
fn write<T: Element, D: Masking + Scattering, F: BinaryFn<T, T, T>>(
    x: StridedMut<'_, T, D>,
    indices: &[&dyn AsIndex<D>],
    values: StridedRef<'_, T, D>,
    accumulate: bool,
    combine: F,
) -> Result<(), Error> {
    let layout = Strided::new(x.sizes, x.strides, x.offset);
    let rank = layout.rank();
    if indices.len() > rank {
        return Err(Error::IndexCount {
            rank,
            got: indices.len(),
        });
    }
    let operands = indices
        .iter()
        .map(|t| t.as_index())
        .collect::<Result<Vec<_>, _>>()?;
    let covered: usize = operands
        .iter()
        .map(|o| match o {
            IndexOperand::Mask(m) => m.sizes.len(),
            IndexOperand::Bytes(m) => m.sizes.len(),
            _ => 1,
        })
        .sum();
    if covered > rank {
        return Err(Error::DimOutOfRange {
            dim: rank as isize,
            rank,
        });
    }
    // One mask and one value: PyTorch fills (`masked_fill_`), whatever the
    // value's shape.
    let fill = !accumulate
        && numel(values.sizes) == 1
        && matches!(
            operands[..],
            [IndexOperand::Mask(_) | IndexOperand::Bytes(_)]
        );
    if fill && matches!(operands[..], [IndexOperand::Bytes(_)]) {
        return Err(Error::MaskDType {
            op: "masked_fill_",
            dtype: crate::dtype::DType::U8,
        });
    }
    let values = match fill {
        true => StridedRef {
            sizes: &[],
            strides: &[],
            ..values
        },
        false => values,
    };
    let items: Vec<Index<'_, D>> = indices.iter().map(|&t| Index::Tensor(t)).collect();
    let plan = plan(&layout, &items)?;
    let mut over = vec![0; plan.sizes.len()];
    if values.sizes.len() > plan.sizes.len() || broadcast_check(values.sizes, &plan.sizes).is_err()
    {
        return Err(Error::IndexPutShape {
            values: values.sizes.to_vec(),
            result: plan.sizes.clone(),
        });
    }
    broadcast_strides(values.sizes, values.strides, &plan.sizes, &mut over);
    let values = StridedRef {
        sizes: &plan.sizes,
        strides: &over,
        ..values
    };
    if plan.positions.is_empty() {
        // (No index tensor: `values` into the whole view.)
        let target = StridedMut {
            ptr: x.ptr,
            sizes: plan.view.sizes(),
            strides: plan.view.strides(),
            offset: plan.view.offset(),
        };
        return D::update2(target, values, combine);
    }
    check_all(&plan)?;
    let address = addressing(&plan)?;
    let target = ScatterTarget {
        elements: StridedMut {
            ptr: x.ptr,
            sizes: &plan.sizes,
            strides: &plan.strides,
            offset: plan.view.offset(),
        },
        dim: None,
        dim_stride: address.dim_stride,
        dim_len: address.dim_len,
    };
    let values = ScatterValues::Tensor(values);
    with_positions!(address.index, |i| D::scatter(
        &plan.sizes,
        target,
        values,
        i,
        address.wrap,
        combine
    ))
}

/// Whether `sizes` broadcast to `to` (PyTorch's `expand`).
fn broadcast_check(sizes: &[usize], to: &[usize]) -> Result<(), ()> {
    let skip = to.len() - sizes.len();
    match sizes
        .iter()
        .zip(&to[skip..])
        .all(|(&s, &t)| s == t || s == 1)
    {
        true => Ok(()),
        false => Err(()),
    }
}

impl<T: Element, S: crate::shape::Shape, D: Masking + Indexing, R: Repr> Tensor<T, S, D, R> {
    /// `x[items]`: advanced indexing (see [`Index`] for the rules), a new
    /// tensor. A list of [`Index`] items gives a runtime shape; a tuple of
    /// typed items, or one index tensor, gives the shape the compiler
    /// computes (see [`Indices`]). Index values are checked at run time:
    /// `Err` with PyTorch's text.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<i64, shape![3, 4]>::from_vec((0..12).collect()).unwrap();
    /// let rows = Tensor::<i64, shape![2]>::from_vec(vec![2, 0]).unwrap();
    /// let picked: Tensor<i64, shape![2, 4]> = x.index(&rows).unwrap();
    /// assert_eq!(picked.to_vec(), [8, 9, 10, 11, 0, 1, 2, 3]);
    /// let far = Tensor::<i64, shape![1]>::from_vec(vec![3]).unwrap();
    /// assert_eq!(
    ///     x.index(&far).unwrap_err().to_string(),
    ///     "index 3 is out of bounds for dimension 0 with size 3"
    /// );
    /// ```
    pub fn index<I: Indices<D, S>>(&self, items: I) -> Result<Tensor<T, I::Output, D>, Error> {
        items
            .with_items(|items| read(StridedRef::new(&self.data, &self.layout), items))?
            .into_static()
    }
}

/// What [`index`](Tensor::index) takes, and the shape it gives on a tensor
/// of shape `S`:
///
/// - a list of [`Index`] items (`&[Index::Tensor(&i), Index::Slice(..)]`,
///   a slice or a `Vec`): any index, a runtime result shape;
/// - one index tensor (`x.index(&idx)`, PyTorch's `x[idx]`) or a tuple of
///   typed items (`x.index((.., &rows, 0))`): the compiler computes the
///   result shape ([`AdvancedShape`]), refuses index tensors whose static
///   shapes do not broadcast, a mask whose sizes are not those of the
///   dimensions it covers, and more items than dimensions.
///
/// The typed items ([`IndexItem`]) are index tensors by reference (int64,
/// int32, bool, uint8), integers (`i64`, `i32`, `isize`, `usize`), ranges
/// of them, `..`, `NewAxis` and `Ellipsis`. A range with a step has no
/// typed item: slice first, as PyTorch does (`x.slice(s![..;2])?.index((..,
/// &i))`).
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f32, shape![4, 5, 6]>::zeros();
/// let i = Tensor::<i64, shape![2, 3]>::zeros();
/// let j = Tensor::<i32, shape![3]>::zeros();
/// // Adjacent index tensors: their broadcast shape stays in place.
/// let y: Tensor<f32, shape![4, 2, 3]> = x.index((.., &i, &j)).unwrap();
/// // Separated by a kept dimension: it goes first.
/// let z: Tensor<f32, shape![2, 3, 5]> = x.index((&i, .., &j)).unwrap();
/// // A mask covers its dimensions; how many are true is known at run time.
/// let mask = Tensor::<bool, shape![5, 6]>::ones();
/// let w: Tensor<f32, (Dec<4>, Dyn)> = x.index((.., &mask)).unwrap();
/// assert_eq!(w.shape(), [4, 30]);
/// # let _ = (y, z);
/// ```
pub trait Indices<D: Backend, S: crate::shape::Shape> {
    /// The result's shape.
    type Output: crate::shape::Shape;
    /// Calls `f` with the items as a list.
    #[doc(hidden)]
    fn with_items<O, F: FnOnce(&[Index<'_, D>]) -> O>(&self, f: F) -> O;
}

impl<D: Backend, S: crate::shape::Shape> Indices<D, S> for &[Index<'_, D>] {
    type Output = DynShape;
    fn with_items<O, F: FnOnce(&[Index<'_, D>]) -> O>(&self, f: F) -> O {
        f(self)
    }
}
impl<D: Backend, S: crate::shape::Shape, const N: usize> Indices<D, S> for &[Index<'_, D>; N] {
    type Output = DynShape;
    fn with_items<O, F: FnOnce(&[Index<'_, D>]) -> O>(&self, f: F) -> O {
        f(&self[..])
    }
}
impl<D: Backend, S: crate::shape::Shape> Indices<D, S> for &Vec<Index<'_, D>> {
    type Output = DynShape;
    fn with_items<O, F: FnOnce(&[Index<'_, D>]) -> O>(&self, f: F) -> O {
        f(self)
    }
}

/// One index tensor: `x.index(&idx)` is `x.index((&idx,))`.
impl<I: IndexDType, SI: crate::shape::Shape, D: Backend, RI: Repr, S: crate::shape::Shape>
    Indices<D, S> for &Tensor<I, SI, D, RI>
where
    Tensor<I, SI, D, RI>: AsIndex<D>,
    S: AdvancedShape<Cons<I::Kind<SI>, Nil>>,
{
    type Output = <S as AdvancedShape<Cons<I::Kind<SI>, Nil>>>::Output;
    fn with_items<O, F: FnOnce(&[Index<'_, D>]) -> O>(&self, f: F) -> O {
        f(&[Index::Tensor(*self)])
    }
}

/// `(A, B, ..)` as a list of kinds.
macro_rules! kinds {
    () => { Nil };
    ($h:ident $($t:ident)*) => { Cons<<$h as IndexItem<D>>::Kind, kinds!($($t)*)> };
}
macro_rules! typed_indices {
    ($($a:ident)+) => {
        impl<D: Backend, S: crate::shape::Shape, $($a: IndexItem<D>),+> Indices<D, S> for ($($a,)+)
        where
            S: AdvancedShape<kinds!($($a)+)>,
        {
            type Output = <S as AdvancedShape<kinds!($($a)+)>>::Output;
            #[allow(non_snake_case)]
            fn with_items<O, Z: FnOnce(&[Index<'_, D>]) -> O>(&self, f: Z) -> O {
                let ($($a,)+) = self;
                f(&[$($a.item()),+])
            }
        }
    };
}
typed_indices!(A);
typed_indices!(A B);
typed_indices!(A B C);
typed_indices!(A B C E);
typed_indices!(A B C E F);
typed_indices!(A B C E F G);

/// An item of a typed index (see [`Indices`]), and its kind for the shape
/// rules.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an item of a typed index on this device",
    label = "not an index tensor, integer, range, `NewAxis` or `Ellipsis`",
    note = "a typed index holds index tensors by reference (`&i`, on the tensor's device), integers, ranges, `..`, `NewAxis` and `Ellipsis`; other items go in a list: `x.index(&[Index::from(item), ..])`"
)]
pub trait IndexItem<D: Backend> {
    /// The item's kind ([`AdvancedShape`]'s rules).
    type Kind;
    /// The item.
    fn item(&self) -> Index<'_, D>;
}

impl<I: IndexDType, SI: crate::shape::Shape, D: Backend, RI: Repr> IndexItem<D>
    for &Tensor<I, SI, D, RI>
where
    Tensor<I, SI, D, RI>: AsIndex<D>,
{
    type Kind = I::Kind<SI>;
    fn item(&self) -> Index<'_, D> {
        Index::Tensor(*self)
    }
}

macro_rules! basic_items {
    ($($t:ty),*) => {$(
        impl<D: Backend> IndexItem<D> for $t {
            type Kind = <$t as SliceArg>::Kind;
            fn item(&self) -> Index<'_, D> {
                Index::Slice(self.clone())
            }
        }
    )*};
    (@integers $($i:ty),*) => {$(
        basic_items!($i, core::ops::Range<$i>, core::ops::RangeFrom<$i>, core::ops::RangeTo<$i>,
            core::ops::RangeInclusive<$i>, core::ops::RangeToInclusive<$i>);
    )*};
}
basic_items!(@integers i32, i64, isize, usize);
basic_items!(core::ops::RangeFull, NewAxis, Ellipsis);

/// The dtypes that index: int64 and int32 tensors hold positions, bool and
/// uint8 tensors are masks.
#[diagnostic::on_unimplemented(
    message = "tensors used as indices must be long, int, byte or bool tensors: `{Self}` is not one",
    label = "an index tensor of another dtype",
    note = "index by an int64, int32, bool or uint8 tensor on the same device"
)]
pub trait IndexDType: Element {
    /// The kind of an index tensor of this dtype and shape `S`.
    type Kind<S>;
}
impl IndexDType for i64 {
    type Kind<S> = IndexTensor<S>;
}
impl IndexDType for i32 {
    type Kind<S> = IndexTensor<S>;
}
impl IndexDType for bool {
    type Kind<S> = MaskTensor<S>;
}
impl IndexDType for u8 {
    type Kind<S> = MaskTensor<S>;
}

/// `index_put_` with accumulation, waiting for the dtype's sum.
struct PutWith<'a, 'b, T: Element, D: Backend> {
    x: StridedMut<'a, T, D>,
    indices: &'a [&'b dyn AsIndex<D>],
    values: StridedRef<'a, T, D>,
}

impl<T: Element, D: Masking + Scattering> WithReducer<T> for PutWith<'_, '_, T, D> {
    type Output = Result<(), Error>;
    fn run<F: BinaryFn<T, T, T>>(self, f: F) -> Result<(), Error> {
        write(self.x, self.indices, self.values, true, f)
    }
}

impl<T: ScatterElement, S: crate::shape::Shape, D: Masking + Scattering, R: Writable>
    Tensor<T, S, D, R>
{
    /// `x[indices] = values`, or `x[indices] += values` with
    /// `accumulate` (repeated positions add up): PyTorch's `index_put_`.
    /// `values` broadcasts to the shape `x.index(indices)` would have.
    pub fn index_put_<SV: crate::shape::Shape, RV: Repr>(
        &mut self,
        indices: &[&dyn AsIndex<D>],
        values: &Tensor<T, SV, D, RV>,
        accumulate: bool,
    ) -> Result<(), Error> {
        let target = StridedMut {
            ptr: R::ptr_mut(&mut self.data),
            sizes: self.layout.sizes(),
            strides: self.layout.strides(),
            offset: self.layout.offset(),
        };
        let values = StridedRef::new(&values.data, &values.layout);
        match accumulate {
            false => write(target, indices, values, false, Assign),
            true => {
                let work = PutWith {
                    x: target,
                    indices,
                    values,
                };
                T::dispatch(Reduce::Sum, work).ok_or(Error::NoDeviceKernel {
                    function: "index_put_ with accumulate",
                })?
            }
        }
    }
}

impl<T: ScatterElement, S: crate::shape::Shape, D: Masking + Scattering, R: Repr>
    Tensor<T, S, D, R>
{
    /// [`index_put_`](Self::index_put_) on a copy.
    pub fn index_put<SV: crate::shape::Shape, RV: Repr>(
        &self,
        indices: &[&dyn AsIndex<D>],
        values: &Tensor<T, SV, D, RV>,
        accumulate: bool,
    ) -> Result<Tensor<T, S, D>, Error> {
        let buffer = D::map1(self.strided(), crate::ops::functions::Identity)?;
        let layout = StridedLayout::contiguous(self.layout.size_array().clone());
        let mut out: Tensor<T, S, D> = from_parts!(owned_parts(buffer, layout));
        out.index_put_(indices, values, accumulate)?;
        Ok(out)
    }
}

/// A runtime-dtype tensor indexes when it holds int64, int32, bool or
/// uint8; any other dtype is PyTorch's error.
impl<D: Backend, R: Repr> AsIndex<D> for crate::dynamic::AnyTensor<D, R> {
    fn as_index(&self) -> Result<IndexOperand<'_, D>, Error> {
        use crate::dynamic::AnyTensor;
        match self {
            AnyTensor::I64(x) => x.as_index(),
            AnyTensor::I32(x) => x.as_index(),
            AnyTensor::Bool(x) => x.as_index(),
            AnyTensor::U8(x) => x.as_index(),
            _ => Err(Error::IndexTensorDType),
        }
    }
}
