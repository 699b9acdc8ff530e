//! Views of an [`AnyTensor`] with runtime arguments: the view methods of
//! [`DynTensor`](crate::DynTensor) (`view`, `transpose`, `narrow`, the
//! splits, ...), with PyTorch's names, argument order and error texts. Each
//! borrows the tensor and shares its storage: no element moves, whatever the
//! dtype. A view of an owned tensor is an `AnyTensor<D, View<'_>>`, and a
//! view of a view borrows the same owner, so views chain; `reshape`,
//! `flatten` and `contiguous` copy only when the strides leave no choice.
//!
//! ```
//! use shaped::prelude::*;
//! let x = AnyTensor::from(DynTensor::<i32>::from_vec((0..6).collect(), &[2, 3]).unwrap());
//! let v = x.t().unwrap().narrow(0, 1, 2).unwrap(); // a view of a view
//! assert!(v.shares_storage_with(&x));
//! assert_eq!(v.to_string(), "tensor([[1, 4],\n        [2, 5]], dtype=torch.int32)");
//! assert_eq!(
//!     x.transpose(0, 2).unwrap_err().to_string(),
//!     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
//! );
//! ```

use super::any::{AnyTensor, any_tensor};
use crate::backend::cpu::try_collect;
use crate::backend::{Backend, Elementwise};
use crate::error::Error;
use crate::layout::views::SliceItem;
use crate::storage::{CowData, CowView, Repr, View, ViewMut, Writable};
use crate::tensor::Tensor;

/// A read-only view of an [`AnyTensor`] of storage kind `R`, borrowed for
/// `'s` (see [`ViewOf`](crate::view::ViewOf)).
type AnyView<'s, D, R> = AnyTensor<D, <R as Repr>::Viewed<'s>>;

/// Either a view or an owned copy, as `reshape` and `contiguous` give (see
/// [`CowOf`](crate::view::CowOf)).
type AnyCow<'s, D, R> = AnyTensor<D, <R as Repr>::CowViewed<'s>>;

/// Declares view methods that run the typed tensor's method of the same
/// name and arguments, each of one kind: `view` (one view), `pieces` (a
/// `Vec` of views) or `cow` (a view, or a copy where the strides need one).
macro_rules! any_views {
    ($($(#[$doc:meta])* $kind:ident $name:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<D: Backend, R: Repr> AnyTensor<D, R> {$(
            any_views!(@$kind $(#[$doc])* $name($($arg: $ty),*));
        )*}
    };
    (@view $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, $($arg: $ty),*) -> Result<AnyView<'_, D, R>, Error> {
            Ok(any_tensor!(@map self, x => x.$name($($arg),*)?))
        }
    };
    (@pieces $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, $($arg: $ty),*) -> Result<Vec<AnyView<'_, D, R>>, Error> {
            any_tensor!(@variant self, x, wrap => try_collect(x.$name($($arg),*)?.into_iter().map(wrap)))
        }
    };
    (@cow $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, $($arg: $ty),*) -> Result<AnyCow<'_, D, R>, Error>
        where
            D: Elementwise,
        {
            Ok(any_tensor!(@map self, x => x.$name($($arg),*)?))
        }
    };
}

/// Declares the writable views: `name_mut(args)` borrows the tensor
/// exclusively and gives a view that the in-place forms write through.
macro_rules! any_views_mut {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<D: Backend, R: Writable> AnyTensor<D, R> {$(
            $(#[$doc])*
            #[inline]
            pub fn $name(&mut self, $($arg: $ty),*) -> Result<AnyTensor<D, ViewMut<'_>>, Error> {
                Ok(any_tensor!(@map self, x => x.$name($($arg),*)?))
            }
        )*}
    };
}

any_views_mut! {
    /// [`view`](Self::view), writable: writes through it land in this
    /// tensor.
    view_mut_as(sizes: &[isize]);
    /// [`transpose`](Self::transpose), writable.
    transpose_mut(dim0: isize, dim1: isize);
    /// [`permute`](Self::permute), writable.
    permute_mut(dims: &[isize]);
    /// [`narrow`](Self::narrow), writable: the in-place forms write into
    /// the narrowed part.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut x = AnyTensor::from(DynTensor::<i32>::zeros(&[2, 3]));
    /// let ones = AnyTensor::from(DynTensor::<i64>::ones(&[2, 1]));
    /// x.narrow_mut(1, 1, 2).unwrap().try_add_assign(&ones).unwrap();
    /// x.narrow_mut(1, 0, 1).unwrap().fill_(Scalar::Int(9)).unwrap();
    /// assert_eq!(x.downcast::<i32>().unwrap().to_vec(), [9, 1, 1, 9, 1, 1]);
    /// ```
    narrow_mut(dim: isize, start: isize, length: isize);
    /// [`slice`](Self::slice), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = AnyTensor::from(DynTensor::<f32>::ones(&[2, 4]));
    /// x.slice_mut(s![.., ..;2]).unwrap().exp_().unwrap();
    /// assert_eq!(x.downcast::<f32>().unwrap().to_vec()[..2], [1f32.exp(), 1.0]);
    /// ```
    slice_mut(items: impl AsRef<[SliceItem]>);
    /// [`select`](Self::select), writable.
    select_mut(dim: isize, index: isize);
    /// [`squeeze`](Self::squeeze), writable.
    squeeze_mut();
    /// [`unsqueeze`](Self::unsqueeze), writable.
    unsqueeze_mut(dim: isize);
    /// [`diagonal`](Self::diagonal), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut eye = AnyTensor::from(DynTensor::<f64>::zeros(&[2, 2]));
    /// eye.diagonal_mut(0, 0, 1).unwrap().fill_(Scalar::Int(1)).unwrap();
    /// assert_eq!(eye.downcast::<f64>().unwrap().to_vec(), [1.0, 0.0, 0.0, 1.0]);
    /// ```
    diagonal_mut(offset: isize, dim1: isize, dim2: isize);
}

any_views! {
    /// The same elements with new sizes (one may be `-1`), sharing storage;
    /// `Err` when the strides do not allow it (use [`reshape`](Self::reshape)).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::arange(6));
    /// assert_eq!(x.view(&[2, -1]).unwrap().shape(), [2, 3]);
    /// assert_eq!(
    ///     x.view(&[4, -1]).unwrap_err().to_string(),
    ///     "shape '[4, -1]' is invalid for input of size 6"
    /// );
    /// ```
    view view(sizes: &[isize]);
    /// Dimensions `dim0` and `dim1` swapped.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[2, 3, 4]));
    /// assert_eq!(x.transpose(0, 2).unwrap().shape(), [4, 3, 2]);
    /// ```
    view transpose(dim0: isize, dim1: isize);
    /// The same as [`transpose`](Self::transpose).
    view swapaxes(dim0: isize, dim1: isize);
    /// The same as [`transpose`](Self::transpose).
    view swapdims(dim0: isize, dim1: isize);
    /// The transpose of a tensor of rank 2 or less.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<bool>::zeros(&[2, 3, 4]));
    /// assert_eq!(
    ///     x.t().unwrap_err().to_string(),
    ///     "t() expects a tensor with <= 2 dimensions, but self is 3D"
    /// );
    /// ```
    view t();
    /// The last two dimensions swapped (`mT`).
    view mt();
    /// Dimensions reordered.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i8>::zeros(&[2, 3, 4]));
    /// assert_eq!(x.permute(&[2, 0, 1]).unwrap().strides(), [1, 12, 4]);
    /// ```
    view permute(dims: &[isize]);
    /// Dimension `source` moved to `destination`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::zeros(&[2, 3, 4]));
    /// assert_eq!(x.movedim(0, -1).unwrap().shape(), [3, 4, 2]);
    /// ```
    view movedim(source: isize, destination: isize);
    /// Several dimensions moved at once.
    view movedims(source: &[isize], destination: &[isize]);
    /// The tensor repeated along new leading dimensions and size-1 ones
    /// (stride 0, read-only; `-1` keeps a size).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::zeros(&[3, 1]));
    /// let e = x.expand(&[2, -1, 4]).unwrap();
    /// assert_eq!((e.shape(), e.strides()), (vec![2, 3, 4], vec![0, 1, 0]));
    /// ```
    view expand(sizes: &[isize]);
    /// The same as [`expand`](Self::expand) (PyTorch's `broadcast_to`).
    view broadcast_to(sizes: &[isize]);
    /// `length` entries of `dim` from `start` (negative counts from the end).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::arange(5));
    /// let n = x.narrow(0, -2, 2).unwrap();
    /// assert_eq!(n.to_owned().downcast::<i64>().unwrap().to_vec(), vec![3, 4]);
    /// ```
    view narrow(dim: isize, start: isize, length: isize);
    /// Entry `index` of `dim`, which disappears.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2, 3]));
    /// assert_eq!(x.select(0, -1).unwrap().shape(), [3]);
    /// assert_eq!(
    ///     x.select(0, 2).unwrap_err().to_string(),
    ///     "select(): index 2 out of range for tensor of size [2, 3] at dimension 0"
    /// );
    /// ```
    view select(dim: isize, index: isize);
    /// Every dimension of size 1 removed.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[1, 3, 1]));
    /// assert_eq!(x.squeeze().unwrap().shape(), [3]);
    /// ```
    view squeeze();
    /// Dimension `dim` removed if its size is 1 (else unchanged).
    view squeeze_dim(dim: isize);
    /// The dimensions of `dims` whose size is 1 removed.
    view squeeze_dims(dims: &[isize]);
    /// A new dimension of size 1 at `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[3]));
    /// assert_eq!(x.unsqueeze(-1).unwrap().shape(), [3, 1]);
    /// ```
    view unsqueeze(dim: isize);
    /// The diagonal of `dim1` and `dim2`, `offset` above the main one.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i16>::from_vec((0..9).collect(), &[3, 3]).unwrap());
    /// let d = x.diagonal(1, 0, 1).unwrap();
    /// assert_eq!(d.to_scalars(), vec![Scalar::Int(1), Scalar::Int(5)]);
    /// ```
    view diagonal(offset: isize, dim1: isize, dim2: isize);
    /// Windows of `size` every `step` along `dimension` (read-only: windows
    /// may overlap).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::arange(5));
    /// assert_eq!(x.unfold(0, 2, 1).unwrap().shape(), [4, 2]);
    /// assert_eq!(x.unfold(0, 2, 0).unwrap_err().to_string(), "step is 0 but must be > 0");
    /// ```
    view unfold(dimension: isize, size: isize, step: isize);
    /// Dimension `dim` split into `sizes` (one may be `-1`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[6, 2]));
    /// assert_eq!(x.unflatten(0, &[2, -1]).unwrap().shape(), [2, 3, 2]);
    /// ```
    view unflatten(dim: isize, sizes: &[isize]);
    /// PyTorch's basic indexing `x[..]` with an `s![..]` list (indices,
    /// ranges with `;step`, `NewAxis`, `Ellipsis`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2, 3, 4]));
    /// assert_eq!(x.slice(s![0, 1.., 1..4;2, NewAxis]).unwrap().shape(), [2, 2, 1]);
    /// ```
    view slice(items: impl AsRef<[SliceItem]>);
    /// A view with any sizes, strides and offset over the same storage,
    /// checked to stay inside it (read-only: elements may overlap).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::arange(4));
    /// assert_eq!(x.as_strided(&[2, 2], &[1, 2], 0).unwrap().strides(), [1, 2]);
    /// assert_eq!(
    ///     x.as_strided(&[2, 2], &[2, 1], 2).unwrap_err().to_string(),
    ///     "setStorage: sizes [2, 2], strides [2, 1], storage offset 2, and itemsize 8 requiring a storage size of 48 are out of bounds for storage of size 32"
    /// );
    /// ```
    view as_strided(size: &[usize], stride: &[usize], storage_offset: usize);

    /// Views of every entry of `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let rows = AnyTensor::from(DynTensor::<f32>::zeros(&[3, 2]));
    /// assert_eq!(rows.unbind(0).unwrap().len(), 3);
    /// ```
    pieces unbind(dim: isize);
    /// Pieces of `split_size` along `dim`, the last possibly shorter.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::arange(5));
    /// let sizes: Vec<_> = x.split(2, 0).unwrap().iter().map(|p| p.numel()).collect();
    /// assert_eq!(sizes, [2, 2, 1]);
    /// ```
    pieces split(split_size: isize, dim: isize);
    /// Pieces of the given sizes along `dim`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<u8>::zeros(&[3]));
    /// assert_eq!(
    ///     x.split_with_sizes(&[1, 1], 0).unwrap_err().to_string(),
    ///     "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at dimension 0), but got split_sizes=[1, 1]"
    /// );
    /// ```
    pieces split_with_sizes(split_sizes: &[isize], dim: isize);
    /// `chunks` pieces of equal size (the last possibly shorter, maybe fewer).
    pieces chunk(chunks: isize, dim: isize);
    /// `sections` pieces whose sizes differ by at most one.
    pieces tensor_split(sections: isize, dim: isize);
    /// Pieces between the given indices.
    pieces tensor_split_indices(indices: &[isize], dim: isize);
    /// `sections` equal pieces along dimension 1 (0 for a vector).
    pieces hsplit(sections: isize);
    /// Pieces between the given indices along dimension 1 (0 for a vector).
    pieces hsplit_indices(indices: &[isize]);
    /// `sections` equal pieces along dimension 0 (rank 2 or more).
    pieces vsplit(sections: isize);
    /// Pieces between the given indices along dimension 0 (rank 2 or more).
    pieces vsplit_indices(indices: &[isize]);

    /// The same elements with new sizes (one may be `-1`): a view when the
    /// strides allow, else a copy (callers must not rely on which).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2, 3]));
    /// assert!(x.reshape(&[6]).unwrap().is_borrowed());
    /// assert!(!x.t().unwrap().reshape(&[6]).unwrap().is_borrowed()); // not contiguous
    /// ```
    cow reshape(sizes: &[isize]);
    /// Dimensions `start_dim..=end_dim` merged into one (a view when the
    /// strides allow, else a copy).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[2, 3, 4]));
    /// assert_eq!(x.flatten(1, 2).unwrap().shape(), [2, 12]);
    /// ```
    cow flatten(start_dim: isize, end_dim: isize);
}

impl<D: Backend, R: Repr> AnyTensor<D, R> {
    /// A view of this tensor expanded to `other`'s shape (any dtype), as
    /// [`expand`](Self::expand) with `other.shape()`.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2, 3, 4]));
    /// let other = AnyTensor::from(DynTensor::<f32>::zeros(&[3, 4]));
    /// assert_eq!(other.expand_as(&x).unwrap().shape(), [2, 3, 4]);
    /// assert_eq!(
    ///     x.expand_as(&other).unwrap_err().to_string(),
    ///     "expand(torch.LongTensor{[2, 3, 4]}, size=[3, 4]): the number of sizes provided (2) must be greater or equal to the number of dimensions in the tensor (3)"
    /// );
    /// ```
    #[inline]
    pub fn expand_as<R2: Repr>(
        &self,
        other: &AnyTensor<D, R2>,
    ) -> Result<AnyView<'_, D, R>, Error> {
        let sizes: Vec<isize> = other.shape().into_iter().map(crate::view::signed).collect();
        self.expand(&sizes)
    }
}

/// PyTorch's text for `imag` of a tensor that is not complex.
const IMAG_OF_REAL: &str = "imag is not implemented for tensors with non-complex dtypes.";
/// PyTorch's text for `view_as_real` of a tensor that is not complex.
const VIEW_AS_REAL_OF_REAL: &str = "view_as_real is only supported for complex tensors";

impl<D: Backend, R: Repr> AnyTensor<D, R> {
    /// The real parts of a complex tensor, as a float32 or float64 view
    /// sharing its storage (strides double); any other tensor is its own
    /// real part: a view of all of it (PyTorch's `torch.real`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = AnyTensor::from(DynTensor::<Complex<f64>>::full(&[2], Complex::new(1.5, -1.0)));
    /// let re = z.real();
    /// assert_eq!((re.dtype(), re.strides()), (DType::F64, vec![2]));
    /// assert!(re.shares_storage_with(&z));
    /// let x = AnyTensor::from(DynTensor::<i32>::ones(&[3]));
    /// assert_eq!(x.real().dtype(), DType::I32);
    /// ```
    pub fn real(&self) -> AnyTensor<D, View<'_>> {
        match self {
            AnyTensor::C64(z) => AnyTensor::F32(z.real()),
            AnyTensor::C128(z) => AnyTensor::F64(z.real()),
            other => other.reborrow(),
        }
    }

    /// The complex conjugate (PyTorch's `conj()`, as a copy); any other
    /// dtype is its own conjugate.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = AnyTensor::from(DynTensor::<Complex<f32>>::full(&[1], Complex::new(1.0, 2.0)));
    /// assert_eq!(z.conj().unwrap().downcast::<Complex<f32>>().unwrap().to_vec(), [Complex::new(1.0, -2.0)]);
    /// ```
    pub fn conj(&self) -> Result<AnyTensor<D>, Error>
    where
        D: Elementwise,
    {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.try_conj()?)))
    }

    /// The conjugate transpose of the last two dims (PyTorch's `mH`);
    /// `Err` with PyTorch's text below two dims.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = AnyTensor::from(DynTensor::<Complex<f64>>::full(&[2, 3], Complex::new(0.0, 1.0)));
    /// assert_eq!(z.mh().unwrap().shape(), [3, 2]);
    /// assert_eq!(
    ///     z.select(0, 0).unwrap().mh().unwrap_err().to_string(),
    ///     "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor."
    /// );
    /// ```
    pub fn mh(&self) -> Result<AnyTensor<D>, Error>
    where
        D: Elementwise,
    {
        Ok(any_tensor!(@each self, x => AnyTensor::from(x.try_mh()?)))
    }

    /// [`mh`](Self::mh) by PyTorch's other name, `adjoint()` (whose
    /// error names it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[3]));
    /// assert_eq!(
    ///     x.adjoint().unwrap_err().to_string(),
    ///     "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor."
    /// );
    /// ```
    pub fn adjoint(&self) -> Result<AnyTensor<D>, Error>
    where
        D: Elementwise,
    {
        self.mh().map_err(|e| match e {
            Error::MhRank { rank } => Error::AdjointRank { rank },
            e => e,
        })
    }

    /// The imaginary parts of a complex tensor, as a view sharing its
    /// storage; `Err` (PyTorch's text) for any other dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = AnyTensor::from(DynTensor::<Complex<f32>>::full(&[3], Complex::new(0.0, 2.0)));
    /// assert_eq!(z.imag().unwrap().downcast::<f32>().unwrap().to_vec(), vec![2.0; 3]);
    /// let x = AnyTensor::from(DynTensor::<f32>::ones(&[3]));
    /// assert_eq!(
    ///     x.imag().unwrap_err().to_string(),
    ///     "imag is not implemented for tensors with non-complex dtypes."
    /// );
    /// ```
    pub fn imag(&self) -> Result<AnyTensor<D, View<'_>>, Error> {
        match self {
            AnyTensor::C64(z) => Ok(AnyTensor::F32(z.imag())),
            AnyTensor::C128(z) => Ok(AnyTensor::F64(z.imag())),
            _ => Err(Error::Unsupported {
                message: IMAG_OF_REAL,
            }),
        }
    }

    /// The parts of a complex tensor as a last dimension of 2, a view
    /// sharing its storage (PyTorch's `view_as_real`); `Err` (PyTorch's
    /// text) for any other dtype, or when twice the element count does
    /// not fit in a tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = AnyTensor::from(DynTensor::<Complex<f32>>::zeros(&[3, 1]));
    /// let r = z.view_as_real().unwrap();
    /// assert_eq!((r.dtype(), r.shape(), r.strides()), (DType::F32, vec![3, 1, 2], vec![2, 2, 1]));
    /// let x = AnyTensor::from(DynTensor::<bool>::zeros(&[3]));
    /// assert_eq!(
    ///     x.view_as_real().unwrap_err().to_string(),
    ///     "view_as_real is only supported for complex tensors"
    /// );
    /// ```
    pub fn view_as_real(&self) -> Result<AnyTensor<D, View<'_>>, Error> {
        match self {
            AnyTensor::C64(z) => Ok(AnyTensor::F32(z.try_view_as_real()?)),
            AnyTensor::C128(z) => Ok(AnyTensor::F64(z.try_view_as_real()?)),
            _ => Err(Error::Unsupported {
                message: VIEW_AS_REAL_OF_REAL,
            }),
        }
    }
}

impl<D: Elementwise, R: Repr> AnyTensor<D, R> {
    /// The tensor itself when it is contiguous, else a contiguous copy
    /// (PyTorch's `contiguous()`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f32>::zeros(&[2, 3]));
    /// assert!(x.contiguous().shares_storage_with(&x));
    /// let c = x.t().unwrap().contiguous();
    /// assert!(c.is_contiguous() && !c.shares_storage_with(&x));
    /// ```
    #[inline]
    pub fn contiguous(&self) -> AnyCow<'_, D, R> {
        any_tensor!(@map self, x => x.contiguous())
    }

    /// A new owned, contiguous copy of the elements (of a view, say).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2, 3, 4], &[2, 2]).unwrap());
    /// let t: AnyTensor = x.t().unwrap().to_owned();
    /// assert!(t.is_contiguous() && !t.shares_storage_with(&x));
    /// assert_eq!(t.downcast::<i32>().unwrap().to_vec(), vec![1, 3, 2, 4]);
    /// ```
    #[inline]
    pub fn to_owned(&self) -> AnyTensor<D> {
        any_tensor!(@map self, x => x.to_owned())
    }
}

impl<D: Elementwise> AnyTensor<D, CowView<'_>> {
    /// True when this shares the storage of the tensor it came from.
    #[inline]
    pub fn is_borrowed(&self) -> bool {
        any_tensor!(@each self, x => x.is_borrowed())
    }

    /// An owned tensor: the copy this holds, or a copy of the elements it
    /// borrows.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<i64>::zeros(&[2, 3]));
    /// let copied = x.t().unwrap().reshape(&[6]).unwrap();
    /// assert!(!copied.is_borrowed());
    /// let owned: AnyTensor = copied.into_owned(); // no further copy
    /// assert_eq!(owned.shape(), [6]);
    /// ```
    #[inline]
    pub fn into_owned(self) -> AnyTensor<D> {
        any_tensor!(@map self, x => match x.data {
            CowData::Owned(data) => Tensor { data, layout: x.layout },
            CowData::Borrowed(_) => x.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::Scalar;
    use crate::layout::views::SliceItem;
    use crate::prelude::*;

    /// The functions of one tensor (element functions, sorts, scans,
    /// rearrangements, moments, softmax) take views (a transposed, narrowed
    /// one, and a view of complex parts) and give what they give for the
    /// view's owned copy: values, dtype, shape, and the same refusals.
    #[test]
    fn element_functions_take_views() {
        use num_complex::Complex;
        let values: Vec<f32> = (0..12).map(|i| i as f32 - 5.5).collect();
        let x = AnyTensor::from(DynTensor::from_vec(values, &[3, 4]).unwrap());
        let ints = AnyTensor::from(DynTensor::<i32>::from_vec((-6..6).collect(), &[3, 4]).unwrap());
        let z = AnyTensor::from(DynTensor::<Complex<f64>>::full(
            &[2, 2],
            Complex::new(-1.0, 2.0),
        ));
        let zt = z.t().unwrap();
        let views = [
            x.t().unwrap().narrow(0, 1, 2).unwrap(),
            ints.t().unwrap().narrow(1, 1, 2).unwrap(),
        ];
        for v in views.iter().chain([&zt.real(), &zt]) {
            let owned = v.to_owned();
            let pairs: [(Result<AnyTensor, Error>, Result<AnyTensor, Error>); 15] = [
                (
                    v.sort(0, true, true).map(|p| p.0),
                    owned.sort(0, true, true).map(|p| p.0),
                ),
                (v.argsort(-1, false, true), owned.argsort(-1, false, true)),
                (v.cumsum(1), owned.cumsum(1)),
                (v.flip(&[0, 1]), owned.flip(&[0, 1])),
                (v.tril(0), owned.tril(0)),
                (v.var(&[0], 1.0, false), owned.var(&[0], 1.0, false)),
                (v.softmax(-1, None), owned.softmax(-1, None)),
                (v.exp(), owned.exp()),
                (v.abs(), owned.abs()),
                (v.sign(), owned.sign()),
                (v.isnan(), owned.isnan()),
                (v.relu(), owned.relu()),
                (v.gelu("tanh"), owned.gelu("tanh")),
                (v.erf(), owned.erf()),
                (
                    v.nan_to_num(0.0, None, None),
                    owned.nan_to_num(0.0, None, None),
                ),
            ];
            for (i, (a, b)) in pairs.into_iter().enumerate() {
                match (a, b) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!((a.dtype(), a.shape()), (b.dtype(), b.shape()), "{i}");
                        assert_eq!(a.to_scalars(), b.to_scalars(), "{i}");
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{i}"),
                    (a, b) => panic!(
                        "{i}: {:?} vs {:?}",
                        a.map(|t| t.dtype()),
                        b.map(|t| t.dtype())
                    ),
                }
            }
        }
    }

    /// The parts of complex tensors and of views of them (a transposed
    /// one): values, strides, offsets and storage as the typed views';
    /// every dtype that is not complex refused or viewed as PyTorch does.
    #[test]
    fn complex_parts_of_tensors_and_views() {
        use num_complex::Complex;
        let values: Vec<Complex<f64>> = (0..6)
            .map(|i| Complex::new(i as f64, -(i as f64) / 2.0))
            .collect();
        let z = AnyTensor::from(DynTensor::from_vec(values.clone(), &[2, 3]).unwrap());
        let zt = z.t().unwrap();
        let re = zt.real();
        assert_eq!(
            (re.dtype(), re.shape(), re.strides()),
            (DType::F64, vec![3, 2], vec![2, 6])
        );
        assert_eq!(
            re.to_owned().downcast::<f64>().unwrap().to_vec(),
            [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
        );
        let im = zt.imag().unwrap();
        assert_eq!(im.storage_offset(), 1);
        assert_eq!(
            im.to_owned().downcast::<f64>().unwrap().to_vec(),
            [-0.0, -1.5, -0.5, -2.0, -1.0, -2.5]
        );
        let parts = zt.view_as_real().unwrap();
        assert_eq!(
            (parts.shape(), parts.strides()),
            (vec![3, 2, 2], vec![2, 6, 1])
        );
        assert!(parts.shares_storage_with(&z) && im.shares_storage_with(&z));
        let c64 = AnyTensor::from(DynTensor::<Complex<f32>>::ones(&[4]));
        assert_eq!(c64.real().dtype(), DType::F32);
        assert_eq!(c64.view_as_real().unwrap().shape(), [4, 2]);
        for x in [
            AnyTensor::from(DynTensor::<i64>::ones(&[2])),
            AnyTensor::from(DynTensor::<half::bf16>::ones(&[2])),
            AnyTensor::from(DynTensor::<bool>::ones(&[2])),
        ] {
            let re = x.real();
            assert_eq!((re.dtype(), re.shape()), (x.dtype(), x.shape()));
            assert!(re.shares_storage_with(&x));
            assert!(x.imag().is_err() && x.view_as_real().is_err());
        }
    }

    fn matrix() -> AnyTensor {
        AnyTensor::from(DynTensor::<i64>::from_vec((0..24).collect(), &[2, 3, 4]).unwrap())
    }

    /// The view's layout and elements equal the typed tensor's view.
    fn same<R1: crate::storage::Repr, R2: crate::storage::Repr>(
        any: &AnyTensor<Cpu, R1>,
        typed: &Tensor<i64, DynShape, Cpu, R2>,
    ) {
        assert_eq!(any.dtype(), DType::I64);
        assert_eq!(any.shape(), typed.shape().to_vec());
        assert_eq!(any.strides(), typed.strides().to_vec());
        assert_eq!(any.storage_offset(), typed.storage_offset());
        let elements: Vec<Scalar> = typed.to_vec().into_iter().map(Scalar::Int).collect();
        assert_eq!(any.to_scalars(), elements);
    }

    #[test]
    fn views_equal_the_typed_views_and_share_storage() {
        let x = matrix();
        let typed = x.downcast_ref::<i64>().unwrap();
        macro_rules! check {
            ($($name:ident($($arg:expr),*)),*) => {$(
                let v = x.$name($($arg),*).unwrap();
                assert!(v.shares_storage_with(&x), stringify!($name));
                same(&v, &typed.$name($($arg),*).unwrap());
            )*};
        }
        check!(
            view(&[4, -1]),
            transpose(0, 2),
            swapaxes(1, -1),
            swapdims(0, 1),
            mt(),
            permute(&[2, 0, 1]),
            movedim(0, -1),
            movedims(&[0, 1], &[2, 0]),
            expand(&[5, -1, -1, -1]),
            broadcast_to(&[1, 2, 3, 4]),
            narrow(2, -3, 2),
            select(1, -1),
            squeeze(),
            squeeze_dim(0),
            squeeze_dims(&[0, 1]),
            unsqueeze(1),
            diagonal(-1, 1, 2),
            unfold(2, 2, 1),
            unflatten(2, &[2, -1]),
            slice(crate::s![.., 1..;2, NewAxis, -1]),
            as_strided(&[3, 2], &[1, 5], 2),
            reshape(&[6, 4]),
            flatten(0, 1)
        );
        let y = x.select(0, 0).unwrap().to_owned();
        same(
            &y.t().unwrap(),
            &y.downcast_ref::<i64>().unwrap().t().unwrap(),
        );
    }

    #[test]
    fn splits_equal_the_typed_splits() {
        let x = matrix();
        let typed = x.downcast_ref::<i64>().unwrap();
        macro_rules! check {
            ($($name:ident($($arg:expr),*)),*) => {$(
                let pieces = x.$name($($arg),*).unwrap();
                let expected = typed.$name($($arg),*).unwrap();
                assert_eq!(pieces.len(), expected.len(), stringify!($name));
                for (p, e) in pieces.iter().zip(&expected) {
                    assert!(p.shares_storage_with(&x));
                    same(p, e);
                }
            )*};
        }
        check!(
            unbind(1),
            split(3, -1),
            split_with_sizes(&[1, 2], 1),
            chunk(3, 2),
            tensor_split(3, 1),
            tensor_split_indices(&[1, 3], 2),
            hsplit(3),
            hsplit_indices(&[2]),
            vsplit(2),
            vsplit_indices(&[1])
        );
    }

    #[test]
    fn views_of_views_chain_and_print() {
        let x = matrix();
        let v = x.select(0, 1).unwrap();
        let w = v.t().unwrap().narrow(0, 1, 2).unwrap().as_view();
        drop(v); // `w` borrows `x`, not `v`
        assert!(w.shares_storage_with(&x));
        assert_eq!(w.shape(), [2, 3]);
        assert_eq!(
            w.to_string(),
            "tensor([[13, 17, 21],\n        [14, 18, 22]])"
        );
        let owned = w.to_owned();
        assert!(owned.is_contiguous() && !owned.shares_storage_with(&x));
        assert_eq!(owned.to_string(), w.to_string());
        // A view's element type converts, into a new tensor.
        assert_eq!(w.to_dtype(DType::F16).dtype(), DType::F16);
    }

    #[test]
    fn copy_on_write_forms() {
        let x = matrix();
        let r = x.reshape(&[4, 6]).unwrap();
        assert!(r.is_borrowed() && r.shares_storage_with(&x));
        let t = x.transpose(0, 2).unwrap();
        let r = t.reshape(&[-1]).unwrap();
        assert!(!r.is_borrowed() && !r.shares_storage_with(&x));
        assert_eq!(r.to_scalars()[1], Scalar::Int(12));
        let owned = r.into_owned();
        assert_eq!(owned.shape(), [24]);
        let c = t.contiguous();
        assert!(c.is_contiguous() && !c.is_borrowed());
        assert!(x.contiguous().is_borrowed());
        let borrowed = x.flatten(0, -1).unwrap().into_owned();
        assert!(!borrowed.shares_storage_with(&x));
        assert_eq!(borrowed.to_scalars(), x.to_scalars());
    }

    #[test]
    fn a_mutable_view_writes_into_its_owner() {
        let mut x = AnyTensor::from(DynTensor::<f32>::zeros(&[2, 2]));
        if let AnyTensor::F32(mut t) = x.view_mut() {
            t.transpose_mut(0, 1).unwrap()[[0, 1]] = 2.5;
        }
        assert_eq!(
            x.downcast::<f32>().unwrap().to_vec(),
            vec![0.0, 0.0, 2.5, 0.0]
        );
    }

    /// PyTorch 2.15's texts (`torch.arange(24).view(2, 3, 4)`).
    #[test]
    fn errors_carry_pytorchs_texts() {
        let x = matrix();
        let cases: [(Error, &str); 22] = [
            (
                x.transpose(0, 2).unwrap().view(&[-1]).unwrap_err(),
                "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
            ),
            (
                x.view(&[5, -1]).unwrap_err(),
                "shape '[5, -1]' is invalid for input of size 24",
            ),
            (
                x.transpose(0, 3).unwrap_err(),
                "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
            ),
            (
                x.t().unwrap_err(),
                "t() expects a tensor with <= 2 dimensions, but self is 3D",
            ),
            (
                x.select(0, 0)
                    .unwrap()
                    .select(0, 0)
                    .unwrap()
                    .mt()
                    .unwrap_err(),
                "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
            ),
            (
                x.permute(&[0, 1, 1]).unwrap_err(),
                "permute(): duplicate dims are not allowed.",
            ),
            (
                x.narrow(1, 4, 1).unwrap_err(),
                "start out of range (expected to be in range of [-3, 3], but got 4)",
            ),
            (
                x.narrow(1, 2, 2).unwrap_err(),
                "start (2) + length (2) exceeds dimension size (3).",
            ),
            (
                x.select(0, 2).unwrap_err(),
                "select(): index 2 out of range for tensor of size [2, 3, 4] at dimension 0",
            ),
            (
                x.unsqueeze(4).unwrap_err(),
                "Dimension out of range (expected to be in range of [-4, 3], but got 4)",
            ),
            (
                x.diagonal(0, 1, 1).unwrap_err(),
                "diagonal dimensions cannot be identical 1, 1",
            ),
            (
                x.unfold(0, 3, 1).unwrap_err(),
                "maximum size for tensor at dimension 0 is 2 but size is 3",
            ),
            (
                x.unflatten(1, &[2, 2]).unwrap_err(),
                "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor",
            ),
            (
                x.flatten(2, 0).unwrap_err(),
                "flatten() has invalid args: start_dim cannot come after end_dim",
            ),
            (
                x.expand(&[3, 3, 4]).unwrap_err(),
                "The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [3, 3, 4].  Tensor sizes: [2, 3, 4]",
            ),
            (
                x.split(0, 1).unwrap_err(),
                "split_size can only be 0 if dimension size is 0, but got dimension size of 3",
            ),
            (
                x.chunk(0, 1).unwrap_err(),
                "chunk expects `chunks` to be greater than 0, got: 0",
            ),
            (
                x.tensor_split(0, 1).unwrap_err(),
                "number of sections must be larger than 0, got 0",
            ),
            (
                x.hsplit(2).unwrap_err(),
                "torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not divisible by the split_size 2!",
            ),
            (
                x.select(0, 0)
                    .unwrap()
                    .select(0, 0)
                    .unwrap()
                    .vsplit(2)
                    .unwrap_err(),
                "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!",
            ),
            (
                x.slice([SliceItem::Range {
                    start: 0,
                    end: None,
                    step: 0,
                }])
                .unwrap_err(),
                "slice step cannot be zero",
            ),
            (
                x.reshape(&[5, 5]).unwrap_err(),
                "shape '[5, 5]' is invalid for input of size 24",
            ),
        ];
        for (err, text) in cases {
            assert_eq!(err.to_string(), text);
        }
    }
}
