//! The complex views: `real()`, `imag()` and
//! `view_as_real()` share storage with the complex tensor (writes through
//! `real_mut()` and `imag_mut()` land in it); `conj()`, `adjoint()` and
//! `mh()` give the conjugate.
//!
//! `conj()` copies: PyTorch's is a lazy view that sets a conjugate bit on the
//! tensor, which every kernel then honours; `shaped` has no such bit, so its
//! `conj()` is PyTorch's `conj_physical()`. For real element types it is a
//! plain copy.
//!
//! ```
//! use shaped::prelude::*;
//! use num_complex::Complex;
//! let mut z = Tensor::<Complex<f32>, shape![2]>::from_vec(vec![
//!     Complex::new(1.0, 2.0),
//!     Complex::new(3.0, -4.0),
//! ])
//! .unwrap();
//! assert_eq!(z.real().to_vec(), vec![1.0, 3.0]);
//! assert_eq!(z.imag().strides(), [2]);
//! let parts: TensorView<'_, f32, shape![2, 2]> = z.view_as_real();
//! assert_eq!(parts.to_vec(), vec![1.0, 2.0, 3.0, -4.0]);
//! z.imag_mut().fill(0.0);
//! assert_eq!(z[[1]], Complex::new(3.0, 0.0));
//! ```

use crate::backend::Elementwise;
use crate::backend::{Backend, StridedRef};
use crate::dtype::{ComplexElement, Conjugate};
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::views::Strided;
use crate::ops::functions::UnaryFn;
use crate::ops::op_codes::{KernelOp, OpCode};
use crate::ops::unary;
use crate::shape::axes::{Append, LastTwoSwapped};
use crate::shape::{Dec, Shape};
use crate::storage::{Repr, Storage, Writable, borrow_mut};
use crate::tensor::{Tensor, TensorView, TensorViewMut, from_parts};

/// What `view_as_real` gives for a complex tensor of shape `S`: its parts,
/// with a last dimension of 2.
pub type RealParts<'a, C, S, D> =
    TensorView<'a, <C as ComplexElement>::Real, <S as Append<Dec<2>>>::Output, D>;

impl<C: ComplexElement, S: Shape, D: Backend, R: Repr> Tensor<C, S, D, R> {
    /// A view of the parts the layout `l` picks, over the same storage (seen
    /// as twice as many parts), checked as every view is
    /// ([`Strided::check`]).
    fn part_view<S2: Shape>(&self, l: Strided) -> Result<TensorView<'_, C::Real, S2, D>, Error> {
        let parts = crate::storage::borrow(&self.data).parts();
        l.check(Storage::len(&parts), size_of::<C::Real>(), false)?;
        Ok(Tensor {
            data: parts,
            layout: super::layout_of::<S2::Sizes>(&l),
        })
    }

    /// The real parts, as a view sharing storage (strides double).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = DynTensor::<Complex<f64>>::full(&[2], Complex::new(1.5, -1.0));
    /// assert_eq!(z.real().to_vec(), vec![1.5, 1.5]);
    /// assert!(z.real().shares_storage_with(&z));
    /// ```
    pub fn real(&self) -> TensorView<'_, C::Real, S, D> {
        // The same sizes over twice the parts: the check cannot fail.
        self.part_view(self.strided_layout().complex_part(false))
            .or_panic()
    }

    /// The imaginary parts, as a view sharing storage.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = DynTensor::<Complex<f32>>::full(&[3], Complex::new(0.0, 2.0));
    /// assert_eq!(z.imag().to_vec(), vec![2.0; 3]);
    /// assert_eq!(z.imag().storage_offset(), 1);
    /// ```
    pub fn imag(&self) -> TensorView<'_, C::Real, S, D> {
        self.part_view(self.strided_layout().complex_part(true))
            .or_panic()
    }

    /// The parts as a last dimension of 2 (PyTorch's `view_as_real`),
    /// sharing storage. Panics with PyTorch's text when twice the element
    /// count does not fit in `isize` (an expanded view of that many
    /// elements; [`try_view_as_real`](Self::try_view_as_real) returns it).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = DynTensor::<Complex<f32>>::zeros(&[3, 1]);
    /// let r = z.view_as_real();
    /// assert_eq!(r.shape(), [3, 1, 2]);
    /// assert_eq!(r.strides(), [2, 2, 1]);
    /// ```
    pub fn view_as_real(&self) -> RealParts<'_, C, S, D>
    where
        S: Append<Dec<2>>,
    {
        self.try_view_as_real().or_panic()
    }

    /// [`view_as_real`](Self::view_as_real), or PyTorch's error when the
    /// parts do not fit in a tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let one = DynTensor::<Complex<f32>>::ones(&[1]);
    /// let many = one.expand(&[isize::MAX]).unwrap();
    /// assert_eq!(
    ///     many.try_view_as_real().unwrap_err().to_string(),
    ///     "numel: integer multiplication overflow"
    /// );
    /// ```
    pub fn try_view_as_real(&self) -> Result<RealParts<'_, C, S, D>, Error>
    where
        S: Append<Dec<2>>,
    {
        self.part_view(self.strided_layout().view_as_real())
    }
}

impl<C: ComplexElement, S: Shape, D: Backend, R: Writable> Tensor<C, S, D, R> {
    /// A writable view of the parts the layout `l` picks, checked as
    /// [`part_view`](Self::part_view)'s and for distinct elements.
    fn part_view_mut(&mut self, l: Strided) -> TensorViewMut<'_, C::Real, S, D> {
        let parts = borrow_mut::<C, D, R>(&mut self.data).parts();
        l.check(Storage::len(&parts), size_of::<C::Real>(), true)
            .or_panic();
        Tensor {
            data: parts,
            layout: super::layout_of::<S::Sizes>(&l),
        }
    }

    /// The real parts, writable: writes land in this tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let mut z = DynTensor::<Complex<f32>>::zeros(&[2]);
    /// z.real_mut().fill(1.0);
    /// assert_eq!(z.to_vec(), vec![Complex::new(1.0, 0.0); 2]);
    /// ```
    pub fn real_mut(&mut self) -> TensorViewMut<'_, C::Real, S, D> {
        let l = self.strided_layout().complex_part(false);
        self.part_view_mut(l)
    }

    /// The imaginary parts, writable: writes land in this tensor.
    pub fn imag_mut(&mut self) -> TensorViewMut<'_, C::Real, S, D> {
        let l = self.strided_layout().complex_part(true);
        self.part_view_mut(l)
    }
}

/// The conjugate of one element.
#[derive(Copy, Clone, Debug, Default)]
pub struct Conj;
impl<T: Conjugate> UnaryFn<T, T> for Conj {
    #[inline(always)]
    fn call(&self, a: T) -> T {
        a.conj()
    }
    fn kernel_op(&self) -> Option<KernelOp> {
        Some(KernelOp::new(OpCode::Conj))
    }
}

impl<T: Conjugate, S: Shape, D: Elementwise, R: Repr> Tensor<T, S, D, R> {
    /// The complex conjugate, as a new contiguous tensor (PyTorch's
    /// `conj_physical()`; its lazy `conj()` view has no counterpart here).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = tensor![Complex::new(1.0f32, 2.0)];
    /// assert_eq!(z.conj().to_vec(), vec![Complex::new(1.0, -2.0)]);
    /// ```
    pub fn conj(&self) -> Tensor<T, S, D> {
        self.try_conj().or_panic()
    }

    /// [`conj`](Self::conj), or `Err` when the copy cannot be allocated.
    pub fn try_conj(&self) -> Result<Tensor<T, S, D>, Error> {
        Ok(from_parts!(unary(
            StridedRef::new(&self.data, &self.layout),
            Conj
        )?))
    }

    /// The conjugate transpose of the last two dimensions (PyTorch's `mH`
    /// and `adjoint()`), as a new tensor. Fewer than two dimensions do not
    /// compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = Tensor::<Complex<f64>, shape![1, 2]>::from_vec(vec![
    ///     Complex::new(1.0, 1.0),
    ///     Complex::new(2.0, -3.0),
    /// ])
    /// .unwrap();
    /// let h: Tensor<Complex<f64>, shape![2, 1]> = z.mh();
    /// assert_eq!(h.to_vec(), vec![Complex::new(1.0, -1.0), Complex::new(2.0, 3.0)]);
    /// ```
    pub fn mh<O: Shape>(&self) -> Tensor<T, O, D>
    where
        S: LastTwoSwapped<Output = O> + crate::shape::list::TupleShape,
    {
        self.mt().conj()
    }

    /// The same as [`mh`](Self::mh).
    pub fn adjoint<O: Shape>(&self) -> Tensor<T, O, D>
    where
        S: LastTwoSwapped<Output = O> + crate::shape::list::TupleShape,
    {
        self.mh()
    }
}

impl<T: Conjugate, D: Elementwise, R: Repr> Tensor<T, crate::dynamic::DynShape, D, R> {
    /// The conjugate transpose of the last two dimensions of a runtime-rank
    /// tensor; `Err` with PyTorch's text for a vector.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use num_complex::Complex;
    /// let z = DynTensor::<Complex<f32>>::full(&[2, 3], Complex::new(0.0, 1.0));
    /// assert_eq!(z.try_mh().unwrap().shape(), [3, 2]);
    /// assert!(DynTensor::<f32>::zeros(&[3]).try_mh().is_err());
    /// ```
    pub fn try_mh(&self) -> Result<Tensor<T, crate::dynamic::DynShape, D>, Error> {
        match self.mt() {
            Ok(t) => t.try_conj(),
            Err(Error::MtRank { rank }) => Err(Error::MhRank { rank }),
            Err(e) => Err(e),
        }
    }
}
