//! View operations with runtime arguments, on tensors of runtime rank
//! ([`DynTensor`](crate::DynTensor)): PyTorch's names and argument order,
//! dims as `isize` (negative counts from the end), each returning `Result`
//! with PyTorch's error text. They borrow the tensor and share its storage;
//! `reshape` and `flatten` copy only when the strides leave no choice.

use crate::backend::Backend;
use crate::dtype::Element;
use crate::dynamic::DynShape;
use crate::error::Error;
use crate::layout::views::{SliceItem, Strided, collect_pieces};
use crate::storage::{Repr, Writable};
use crate::tensor::{Tensor, TensorViewMut};
use crate::view::{CowOf, ViewOf};

/// A read-only view of runtime rank of a tensor of storage kind `R`.
type DynView<'a, T, D, R> = ViewOf<'a, T, DynShape, D, R>;

/// Declares runtime view methods that map the layout through one engine
/// function: `name(args) => |layout| expression giving Result<Strided>`.
macro_rules! dyn_views {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) => |$l:ident| $body:expr;)*) => {
        impl<T: Element, D: Backend, R: Repr> Tensor<T, DynShape, D, R> {$(
            $(#[$doc])*
            pub fn $name(&self, $($arg: $ty),*) -> Result<DynView<'_, T, D, R>, Error> {
                let $l = self.strided_layout();
                self.reinterpret($body?)
            }
        )*}
    };
}

dyn_views! {
    /// The same elements with new sizes (one may be `-1`), sharing storage;
    /// `Err` when the strides do not allow it (use `reshape`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(6);
    /// assert_eq!(x.view(&[2, -1]).unwrap().shape(), [2, 3]);
    /// ```
    view(sizes: &[isize]) => |l| l.view(sizes);
    /// Dimensions `dim0` and `dim1` swapped.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::zeros(&[2, 3, 4]);
    /// assert_eq!(x.transpose(0, 2).unwrap().shape(), [4, 3, 2]);
    /// ```
    transpose(dim0: isize, dim1: isize) => |l| l.transpose(dim0, dim1);
    /// The same as [`transpose`](Self::transpose).
    swapaxes(dim0: isize, dim1: isize) => |l| l.transpose(dim0, dim1);
    /// The same as [`transpose`](Self::transpose).
    swapdims(dim0: isize, dim1: isize) => |l| l.transpose(dim0, dim1);
    /// Dimensions reordered.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::zeros(&[2, 3, 4]);
    /// assert_eq!(x.permute(&[2, 0, 1]).unwrap().strides(), [1, 12, 4]);
    /// ```
    permute(dims: &[isize]) => |l| l.permute(dims);
    /// Dimension `source` moved to `destination`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::zeros(&[2, 3, 4]);
    /// assert_eq!(x.movedim(0, -1).unwrap().shape(), [3, 4, 2]);
    /// ```
    movedim(source: isize, destination: isize) => |l| l.movedim(&[source], &[destination]);
    /// Several dimensions moved at once.
    movedims(source: &[isize], destination: &[isize]) => |l| l.movedim(source, destination);
    /// `length` entries of `dim` from `start` (negative counts from the end).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(12).view(&[3, 4]).unwrap().to_owned();
    /// assert_eq!(x.narrow(1, -2, 2).unwrap().to_vec(), vec![2, 3, 6, 7, 10, 11]);
    /// ```
    narrow(dim: isize, start: isize, length: isize) => |l| l.narrow(dim, start, length);
    /// Entry `index` of `dim`, which disappears.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(6).view(&[2, 3]).unwrap().to_owned();
    /// assert_eq!(x.select(0, -1).unwrap().to_vec(), vec![3, 4, 5]);
    /// ```
    select(dim: isize, index: isize) => |l| l.select(dim, index);
    /// Every dimension of size 1 removed.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<f32>::zeros(&[1, 3, 1]).squeeze().unwrap().shape(), [3]);
    /// ```
    squeeze() => |l| Ok::<_, Error>(l.squeeze());
    /// Dimension `dim` removed if its size is 1 (else unchanged).
    squeeze_dim(dim: isize) => |l| l.squeeze_dims(&[dim]);
    /// The dimensions of `dims` whose size is 1 removed.
    squeeze_dims(dims: &[isize]) => |l| l.squeeze_dims(dims);
    /// A new dimension of size 1 at `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// assert_eq!(DynTensor::<f32>::zeros(&[3]).unsqueeze(-1).unwrap().shape(), [3, 1]);
    /// ```
    unsqueeze(dim: isize) => |l| l.unsqueeze(dim);
    /// The diagonal of `dim1` and `dim2`, `offset` above the main one.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(9).view(&[3, 3]).unwrap().to_owned();
    /// assert_eq!(x.diagonal(1, 0, 1).unwrap().to_vec(), vec![1, 5]);
    /// ```
    diagonal(offset: isize, dim1: isize, dim2: isize) => |l| l.diagonal(offset, dim1, dim2);
    /// Windows of `size` every `step` along `dimension` (read-only: windows
    /// may overlap). As PyTorch, `size` must be at most the dimension's size
    /// and not negative, `step` positive.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(5);
    /// assert_eq!(x.unfold(0, 2, 1).unwrap().to_vec(), vec![0, 1, 1, 2, 2, 3, 3, 4]);
    /// assert_eq!(x.unfold(0, 2, -1).unwrap_err().to_string(), "step is -1 but must be > 0");
    /// ```
    unfold(dimension: isize, size: isize, step: isize) => |l| l.unfold_checked(dimension, size, step);
    /// Dimension `dim` split into `sizes` (one may be `-1`).
    unflatten(dim: isize, sizes: &[isize]) => |l| l.unflatten(dim, sizes);
    /// PyTorch's basic indexing `x[..]` with an `s![..]` list: indices
    /// drop dimensions, ranges (with `;step`) narrow them, `NewAxis` adds
    /// size-1 dimensions, `Ellipsis` stands for the dimensions not named.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(24).view(&[2, 3, 4]).unwrap().to_owned();
    /// let v = x.slice(s![0, 1.., 1..4;2, NewAxis]).unwrap();
    /// assert_eq!(v.shape(), [2, 2, 1]);
    /// assert_eq!(v.to_vec(), vec![5, 7, 9, 11]);
    /// ```
    slice(items: impl AsRef<[SliceItem]>) => |l| l.slice(items.as_ref());
    /// The transpose of a tensor of rank 2 or less.
    t() => |l| l.t();
    /// The last two dimensions swapped (`mT`; a rank-0 tensor comes back
    /// unchanged, a rank-1 one is an error).
    mt() => |l| l.mt();
}

/// Declares runtime methods that cut a tensor into several views.
macro_rules! dyn_splits {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) => |$l:ident| $body:expr;)*) => {
        impl<T: Element, D: Backend, R: Repr> Tensor<T, DynShape, D, R> {$(
            $(#[$doc])*
            pub fn $name(&self, $($arg: $ty),*) -> Result<Vec<DynView<'_, T, D, R>>, Error> {
                let $l = self.strided_layout();
                let pieces: Vec<Strided> = $body?;
                collect_pieces(pieces.len(), pieces.into_iter().map(|s| self.reinterpret(s)))
            }
        )*}
    };
}

dyn_splits! {
    /// Views of every entry of `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let rows = DynTensor::<f32>::zeros(&[3, 2]);
    /// assert_eq!(rows.unbind(0).unwrap().len(), 3);
    /// ```
    unbind(dim: isize) => |l| l.unbind(dim);
    /// Pieces of `split_size` along `dim`, the last possibly shorter.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(5);
    /// let parts: Vec<_> = x.split(2, 0).unwrap().iter().map(|p| p.to_vec()).collect();
    /// assert_eq!(parts, vec![vec![0, 1], vec![2, 3], vec![4]]);
    /// ```
    split(split_size: isize, dim: isize) => |l| l.split(split_size, dim);
    /// Pieces of the given sizes along `dim`.
    split_with_sizes(split_sizes: &[isize], dim: isize) => |l| l.split_with_sizes(split_sizes, dim);
    /// `chunks` pieces of equal size (the last possibly shorter, maybe fewer).
    chunk(chunks: isize, dim: isize) => |l| l.chunk(chunks, dim);
    /// `sections` pieces whose sizes differ by at most one.
    tensor_split(sections: isize, dim: isize) => |l| l.tensor_split(sections, dim);
    /// Pieces between the given indices.
    tensor_split_indices(indices: &[isize], dim: isize) => |l| l.tensor_split_indices(indices, dim);
    /// `sections` equal pieces along dimension 1 (0 for a vector).
    hsplit(sections: isize) => |l| l.hsplit(sections);
    /// Pieces between the given indices along dimension 1 (0 for a vector).
    hsplit_indices(indices: &[isize]) => |l| l.hsplit_indices(indices);
    /// `sections` equal pieces along dimension 0 (rank 2 or more).
    vsplit(sections: isize) => |l| l.vsplit(sections);
    /// Pieces between the given indices along dimension 0 (rank 2 or more).
    vsplit_indices(indices: &[isize]) => |l| l.vsplit_indices(indices);
}

impl<T: Element, D: Backend, R: Repr> Tensor<T, DynShape, D, R> {
    /// The same elements with new sizes (one may be `-1`): a view when the
    /// strides allow, else a copy (callers must not rely on which).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(6).view(&[2, 3]).unwrap().to_owned();
    /// let r = x.t().unwrap().reshape(&[6]).unwrap(); // a copy: the transpose is not contiguous
    /// assert_eq!(r.to_vec(), vec![0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn reshape(&self, sizes: &[isize]) -> Result<CowOf<'_, T, DynShape, D, R>, Error>
    where
        D: crate::backend::Elementwise,
    {
        let layout = self.strided_layout();
        let sizes = crate::layout::views::infer_size(sizes, layout.numel())?;
        match layout.view_strides(&sizes) {
            Some(strides) => self.cow_view(Strided::new(&sizes, &strides, layout.offset())),
            None => {
                let copy = self.contiguous_copy()?;
                let signed: Vec<isize> = sizes.iter().map(|&s| s as isize).collect();
                let viewed = copy.strided_layout().view(&signed)?;
                Ok(Tensor {
                    data: R::cow_owned(copy.data),
                    layout: super::layout_of(&viewed),
                })
            }
        }
    }

    /// Dimensions `start_dim..=end_dim` merged into one (a view when the
    /// strides allow, else a copy).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<f32>::zeros(&[2, 3, 4]);
    /// assert_eq!(x.flatten(0, -1).unwrap().shape(), [24]);
    /// assert_eq!(x.flatten(1, 2).unwrap().shape(), [2, 12]);
    /// ```
    pub fn flatten(
        &self,
        start_dim: isize,
        end_dim: isize,
    ) -> Result<CowOf<'_, T, DynShape, D, R>, Error>
    where
        D: crate::backend::Elementwise,
    {
        let rank = self.rank();
        let (a, b) = (
            crate::layout::views::wrap_dim(start_dim, rank)?,
            crate::layout::views::wrap_dim(end_dim, rank)?,
        );
        if a > b {
            return Err(Error::FlattenOrder);
        }
        let sizes = self.layout.sizes();
        if rank == 0 {
            return self.reshape(&[1]);
        }
        if a == b {
            // PyTorch returns the tensor itself (strides of size-1 dims kept).
            return self.cow_view(self.strided_layout());
        }
        let mut new: Vec<isize> = sizes[..a].iter().map(|&s| s as isize).collect();
        new.push(crate::layout::wrapping_numel(&sizes[a..=b]) as isize);
        new.extend(sizes[b + 1..].iter().map(|&s| s as isize));
        self.reshape(&new)
    }

    /// A view with any sizes, strides and offset over the same storage,
    /// checked to stay inside it (read-only: elements may overlap). As in
    /// PyTorch, `storage_offset` counts from the start of the whole storage,
    /// not from this tensor's own offset, and a layout with no elements is
    /// not bounds-checked (it addresses nothing). Strides and offset are
    /// `usize`: PyTorch's errors for negative ones are type errors here.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = DynTensor::<i64>::arange(4);
    /// assert_eq!(x.as_strided(&[2, 2], &[1, 2], 0).unwrap().to_vec(), vec![0, 2, 1, 3]);
    /// assert!(x.as_strided(&[2, 2], &[2, 1], 2).is_err());
    /// ```
    pub fn as_strided(
        &self,
        size: &[usize],
        stride: &[usize],
        storage_offset: usize,
    ) -> Result<DynView<'_, T, D, R>, Error> {
        let layout = Strided::as_strided(
            size,
            stride,
            storage_offset,
            crate::storage::Storage::len(&self.data),
            size_of::<T>(),
        )?;
        self.reinterpret(layout)
    }
}

impl Strided {
    /// `t()`: rank 0 and 1 unchanged, rank 2 transposed, else an error.
    pub fn t(&self) -> Result<Strided, Error> {
        match self.rank() {
            0 | 1 => Ok(self.clone()),
            2 => self.transpose(0, 1),
            rank => Err(Error::TRank { rank }),
        }
    }

    /// `mT`: the last two dimensions swapped (rank 2 or more; a rank-0
    /// tensor is returned as it is, as PyTorch still does with a deprecation
    /// warning).
    pub fn mt(&self) -> Result<Strided, Error> {
        match self.rank() {
            0 => Ok(self.clone()),
            1 => Err(Error::MtRank { rank: 1 }),
            _ => self.transpose(-2, -1),
        }
    }

    /// `hsplit` into sections: dimension 1, or 0 for a vector.
    pub fn hsplit(&self, sections: isize) -> Result<Vec<Strided>, Error> {
        let dim = self.hsplit_dim()?;
        self.divisible("hsplit", dim, sections)?;
        self.tensor_split(sections, dim as isize)
    }

    /// `hsplit` at indices.
    pub fn hsplit_indices(&self, indices: &[isize]) -> Result<Vec<Strided>, Error> {
        let dim = self.hsplit_dim()?;
        self.tensor_split_indices(indices, dim as isize)
    }

    /// `vsplit` into sections: dimension 0, rank 2 or more.
    pub fn vsplit(&self, sections: isize) -> Result<Vec<Strided>, Error> {
        self.vsplit_rank()?;
        self.divisible("vsplit", 0, sections)?;
        self.tensor_split(sections, 0)
    }

    /// `vsplit` at indices.
    pub fn vsplit_indices(&self, indices: &[isize]) -> Result<Vec<Strided>, Error> {
        self.vsplit_rank()?;
        self.tensor_split_indices(indices, 0)
    }

    fn hsplit_dim(&self) -> Result<usize, Error> {
        match self.rank() {
            0 => Err(Error::SplitRank {
                op: "hsplit",
                min: 1,
                rank: 0,
            }),
            1 => Ok(0),
            _ => Ok(1),
        }
    }

    fn vsplit_rank(&self) -> Result<(), Error> {
        match self.rank() {
            rank @ (0 | 1) => Err(Error::SplitRank {
                op: "vsplit",
                min: 2,
                rank,
            }),
            _ => Ok(()),
        }
    }

    fn divisible(&self, op: &'static str, dim: usize, sections: isize) -> Result<(), Error> {
        // PyTorch: `split_size != 0 && size % split_size == 0` (C++'s `%`,
        // so a negative count that divides passes on to `tensor_split`,
        // which rejects it).
        let size = self.sizes()[dim];
        if sections == 0 || (size as isize) % sections != 0 {
            return Err(Error::SplitDivisible {
                op,
                dim,
                size,
                sections,
            });
        }
        Ok(())
    }
}

/// Declares writable counterparts of views that never put two indices on
/// one element: `name_mut(args)` borrows the tensor exclusively.
macro_rules! dyn_views_mut {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) => |$l:ident| $body:expr;)*) => {
        impl<T: Element, D: Backend, R: Writable> Tensor<T, DynShape, D, R> {$(
            $(#[$doc])*
            pub fn $name(&mut self, $($arg: $ty),*) -> Result<TensorViewMut<'_, T, DynShape, D>, Error> {
                let $l = self.strided_layout();
                let layout = $body?;
                self.reinterpret_mut(layout)
            }
        )*}
    };
}

dyn_views_mut! {
    /// [`view`](Tensor::view), writable: writes land in this tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = DynTensor::<f32>::zeros(&[4, 4]);
    /// t.view_mut_as(&[2, 8]).unwrap()[[0, 0]] = 3.14;
    /// assert_eq!(t[[0, 0]], 3.14);
    /// ```
    view_mut_as(sizes: &[isize]) => |l| l.view(sizes);
    /// [`transpose`](Tensor::transpose), writable.
    transpose_mut(dim0: isize, dim1: isize) => |l| l.transpose(dim0, dim1);
    /// [`permute`](Tensor::permute), writable.
    permute_mut(dims: &[isize]) => |l| l.permute(dims);
    /// [`narrow`](Tensor::narrow), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = DynTensor::<i32>::zeros(&[2, 3]);
    /// let mut right = t.narrow_mut(1, 1, 2).unwrap();
    /// right += 7;
    /// assert_eq!(t.to_vec(), vec![0, 7, 7, 0, 7, 7]);
    /// ```
    narrow_mut(dim: isize, start: isize, length: isize) => |l| l.narrow(dim, start, length);
    /// [`slice`](Tensor::slice), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = DynTensor::<i32>::zeros(&[2, 4]);
    /// x.slice_mut(s![.., ..;2]).unwrap().fill(1);
    /// assert_eq!(x.to_vec(), vec![1, 0, 1, 0, 1, 0, 1, 0]);
    /// ```
    slice_mut(items: impl AsRef<[SliceItem]>) => |l| l.slice(items.as_ref());
    /// [`select`](Tensor::select), writable.
    select_mut(dim: isize, index: isize) => |l| l.select(dim, index);
    /// [`squeeze`](Tensor::squeeze), writable.
    squeeze_mut() => |l| Ok::<_, Error>(l.squeeze());
    /// [`unsqueeze`](Tensor::unsqueeze), writable.
    unsqueeze_mut(dim: isize) => |l| l.unsqueeze(dim);
    /// [`diagonal`](Tensor::diagonal), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut eye = DynTensor::<f64>::zeros(&[3, 3]);
    /// eye.diagonal_mut(0, 0, 1).unwrap().fill(1.0);
    /// assert_eq!(eye.to_vec(), vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    /// ```
    diagonal_mut(offset: isize, dim1: isize, dim2: isize) => |l| l.diagonal(offset, dim1, dim2);
}
