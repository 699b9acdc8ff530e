//! Matrix products with PyTorch's semantics: `matmul` (1-d and 2-d
//! operands, and batches whose leading dimensions broadcast), `mm`, `bmm`,
//! `mv` and `dot`.
//!
//! On static shapes the compiler computes the product's shape and rejects
//! inner sizes that differ ([`MatmulShape`]); a `Dyn` size is checked at run
//! time, where the plain form panics with PyTorch's text and `try_matmul`
//! returns it. On a [`DynTensor`] every form returns
//! `Result` with PyTorch's text ([`MatmulError`]).
//!
//! ```
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![4, 3, 5]>::ones();
//! let c = a.matmul(&b); // Tensor<f32, shape![4, 2, 5]>
//! assert_eq!(c.shape(), [4, 2, 5]);
//! assert_eq!(c[[0, 0, 0]], 3.0);
//! ```
//!
//! A product of operands whose inner sizes differ does not compile:
//!
//! ```compile_fail
//! use shaped::prelude::*;
//! let a = Tensor::<f32, shape![2, 3]>::ones();
//! let b = Tensor::<f32, shape![4, 5]>::ones();
//! let _ = a.matmul(&b); // error: matmul: the inner dimensions differ: a's last
//!                       // dimension has size 3, b's contracted dimension has size 4
//! ```

pub mod plan;

pub use crate::backend::MatmulBackend;
#[doc(hidden)]
pub use crate::backend::cpu::matmul::Product;
pub use crate::backend::cpu::matmul::{BATCH_PARALLEL_MAX_MKN, MatmulElement, PARALLEL_MIN_MKN};
pub use crate::error::MatmulError;
#[cfg(feature = "cuda")]
pub(crate) use plan::Operand as MatmulOperand;
pub use plan::{MatmulPlan, MatrixStrides};

use crate::backend::StridedRef;
use crate::dtype::Element;
use crate::dynamic::{DynShape, DynTensor};
use crate::error::Error;
use crate::error::or_panic;
use crate::layout::StridedLayout;
use crate::shape::list::TupleShape;
use crate::shape::{Dim, InnerDim, MatmulShape, SameBatch, Shape, SizeArray};
use crate::storage::Repr;
use crate::tensor::{OwnedParts, Tensor, from_parts, owned_parts};
use plan::{Operand, ProductKind};

/// `kind`'s product of the tensors `$a` and `$b` (after its checks), as the
/// parts of a tensor of shape `$O`. A macro, so that each product method is
/// the only function a new shape compiles.
macro_rules! product_of {
    ($a:expr, $b:expr, $kind:ident, $O:ty) => {
        product(
            StridedRef::new(&$a.data, &$a.layout),
            StridedRef::new(&$b.data, &$b.layout),
            ProductKind::$kind,
            <$O as Shape>::check_sizes,
        )
    };
}

/// The product of two operands that pass `kind`'s checks, contiguous, over
/// the sizes that `out_sizes` (the output shape's `check_sizes`) accepts
/// first. Generic over the output's size array, not its shape: one copy per
/// rank and dtype.
fn product<T, D, A>(
    a: StridedRef<'_, T, D>,
    b: StridedRef<'_, T, D>,
    kind: ProductKind,
    out_sizes: fn(&[usize]) -> Result<A, Error>,
) -> Result<OwnedParts<T, D, A>, Error>
where
    T: MatmulElement,
    D: MatmulBackend,
    A: SizeArray,
{
    let (oa, ob) = (
        Operand {
            sizes: a.sizes,
            strides: a.strides,
        },
        Operand {
            sizes: b.sizes,
            strides: b.strides,
        },
    );
    kind.check(oa, ob)?;
    let plan = MatmulPlan::new(oa, ob)?;
    let sizes = out_sizes(plan.out_sizes())?;
    let buffer = D::matmul_buffer(&plan, a, b)?;
    Ok(owned_parts(buffer, StridedLayout::contiguous(sizes)))
}

impl<T, S, D, R> Tensor<T, S, D, R>
where
    T: Element,
    S: Shape + TupleShape,
    D: MatmulBackend,
    R: Repr,
{
    /// The matrix product (PyTorch's `torch.matmul`): vector · vector is a
    /// rank-0 dot product, a matrix with a vector drops the vector's
    /// dimension, and leading (batch) dimensions broadcast. The compiler
    /// computes the shape and checks the inner sizes; a `Dyn` size is
    /// checked at run time and panics with PyTorch's text (see
    /// [`try_matmul`](Self::try_matmul)).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
    /// let v = tensor![1.0, 1.0];
    /// assert_eq!(a.matmul(&v).to_vec(), vec![3.0, 7.0]); // shape![2]
    /// assert_eq!(v.matmul(&v).to_vec(), vec![2.0]);      // shape![]
    /// let batch = Tensor::<f64, shape![5, 2, 2]>::ones();
    /// assert_eq!(batch.matmul(&a).shape(), [5, 2, 2]);
    /// ```
    // `O` names the result so that a rule's failure is reported with the
    // rule's own message.
    pub fn matmul<O: Shape, SB: Shape, RB: Repr>(
        &self,
        rhs: &Tensor<T, SB, D, RB>,
    ) -> Tensor<T, O, D>
    where
        T: MatmulElement,
        S: MatmulShape<SB, Output = O>,
    {
        from_parts!(or_panic(product_of!(self, rhs, Matmul, O)))
    }

    /// [`matmul`](Self::matmul), returning PyTorch's error for a `Dyn`
    /// size that does not fit.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<f32, shape![2, Dyn]>::zeros_with(&[2, 4]);
    /// let b = Tensor::<f32, shape![3, 5]>::zeros();
    /// assert_eq!(
    ///     a.try_matmul(&b).unwrap_err().to_string(),
    ///     "mm: mat1 and mat2 shapes cannot be multiplied (2x4 and 3x5)"
    /// );
    /// ```
    pub fn try_matmul<O: Shape, SB: Shape, RB: Repr>(
        &self,
        rhs: &Tensor<T, SB, D, RB>,
    ) -> Result<Tensor<T, O, D>, Error>
    where
        T: MatmulElement,
        S: MatmulShape<SB, Output = O>,
    {
        Ok(from_parts!(product_of!(self, rhs, Matmul, O)?))
    }
}

impl<T, K1, D, R> Tensor<T, (K1,), D, R>
where
    T: MatmulElement,
    K1: Dim,
    D: MatmulBackend,
    R: Repr,
{
    /// The dot product of two vectors (PyTorch's `torch.dot`), rank 0; the
    /// lengths must be equal (a `Dyn` length is checked at run time and
    /// panics with PyTorch's text).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = tensor![1, 2, 3];
    /// assert_eq!(v.dot(&v)[[]], 14);
    /// ```
    pub fn dot<K2: Dim, RB: Repr>(&self, rhs: &Tensor<T, (K2,), D, RB>) -> Tensor<T, (), D>
    where
        K1: InnerDim<K2>,
    {
        from_parts!(or_panic(product_of!(self, rhs, Dot, ())))
    }
}

impl<T, M, K1, D, R> Tensor<T, (M, K1), D, R>
where
    T: MatmulElement,
    M: Dim,
    K1: Dim,
    D: MatmulBackend,
    R: Repr,
{
    /// The product of two matrices (PyTorch's `torch.mm`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<f32, shape![2, 3]>::ones();
    /// let b = Tensor::<f32, shape![3, 4]>::ones();
    /// assert_eq!(a.mm(&b).shape(), [2, 4]);
    /// ```
    pub fn mm<K2: Dim, N: Dim, RB: Repr>(
        &self,
        rhs: &Tensor<T, (K2, N), D, RB>,
    ) -> Tensor<T, (M, N), D>
    where
        K1: InnerDim<K2>,
    {
        from_parts!(or_panic(product_of!(self, rhs, Mm, (M, N))))
    }

    /// A matrix times a vector (PyTorch's `torch.mv`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = tensor![[1, 2], [3, 4]];
    /// assert_eq!(a.mv(&tensor![1, 1]).to_vec(), vec![3, 7]);
    /// ```
    pub fn mv<K2: Dim, RB: Repr>(&self, rhs: &Tensor<T, (K2,), D, RB>) -> Tensor<T, (M,), D>
    where
        K1: InnerDim<K2>,
    {
        from_parts!(or_panic(product_of!(self, rhs, Mv, (M,))))
    }
}

impl<T, B1, M, K1, D, R> Tensor<T, (B1, M, K1), D, R>
where
    T: MatmulElement,
    B1: Dim,
    M: Dim,
    K1: Dim,
    D: MatmulBackend,
    R: Repr,
{
    /// A batch of matrix products (PyTorch's `torch.bmm`): both batches
    /// have the same size (no broadcasting: that is
    /// [`matmul`](Self::matmul)'s).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = Tensor::<f32, shape![8, 2, 3]>::ones();
    /// let b = Tensor::<f32, shape![8, 3, 4]>::ones();
    /// assert_eq!(a.bmm(&b).shape(), [8, 2, 4]);
    /// ```
    pub fn bmm<B2: Dim, K2: Dim, N: Dim, RB: Repr>(
        &self,
        rhs: &Tensor<T, (B2, K2, N), D, RB>,
    ) -> Tensor<T, (B1, M, N), D>
    where
        B1: SameBatch<B2>,
        K1: InnerDim<K2>,
    {
        from_parts!(or_panic(product_of!(self, rhs, Bmm, (B1, M, N))))
    }
}

/// The dynamic forms of `mm`, `bmm`, `mv` and `dot`: each runs its check
/// (PyTorch's texts), then the product.
macro_rules! dyn_products {
    ($($(#[$doc:meta])* $name:ident => $check:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name<SB: Shape, RB: Repr>(
            &self,
            rhs: &Tensor<T, SB, D, RB>,
        ) -> Result<DynTensor<T, D>, Error> {
            Ok(from_parts!(product_of!(self, rhs, $check, DynShape)?))
        }
    )*};
}

impl<T, D, R> Tensor<T, DynShape, D, R>
where
    T: MatmulElement,
    D: MatmulBackend,
    R: Repr,
{
    /// The matrix product (PyTorch's `torch.matmul`), or PyTorch's error.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<f32>::ones(&[5, 1, 2, 3]);
    /// let b = DynTensor::<f32>::ones(&[4, 3, 6]);
    /// assert_eq!(a.matmul(&b)?.shape(), [5, 4, 2, 6]);
    /// let err = a.matmul(&DynTensor::<f32>::ones(&[2])).unwrap_err();
    /// assert_eq!(err.to_string(), "size mismatch, got input (10), mat (10x3), vec (2)");
    /// # Ok::<(), shaped::Error>(())
    /// ```
    pub fn matmul<SB: Shape, RB: Repr>(
        &self,
        rhs: &Tensor<T, SB, D, RB>,
    ) -> Result<DynTensor<T, D>, Error> {
        Ok(from_parts!(product_of!(self, rhs, Matmul, DynShape)?))
    }

    dyn_products! {
        /// The product of two matrices (PyTorch's `torch.mm`), or PyTorch's error.
        ///
        /// ```
        /// use shaped::prelude::*;
        /// let a = DynTensor::<f32>::ones(&[2, 3]);
        /// assert_eq!(a.mm(&DynTensor::ones(&[3, 4]))?.shape(), [2, 4]);
        /// assert_eq!(
        ///     a.mm(&DynTensor::ones(&[3])).unwrap_err().to_string(),
        ///     "mm: mat2 must be a matrix, got 1-D tensor"
        /// );
        /// # Ok::<(), shaped::Error>(())
        /// ```
        mm => Mm;
        /// A batch of matrix products of equal batch sizes (PyTorch's
        /// `torch.bmm`), or PyTorch's error.
        ///
        /// ```
        /// use shaped::prelude::*;
        /// let a = DynTensor::<f32>::ones(&[8, 2, 3]);
        /// assert_eq!(a.bmm(&DynTensor::ones(&[8, 3, 4]))?.shape(), [8, 2, 4]);
        /// assert_eq!(
        ///     a.bmm(&DynTensor::ones(&[1, 3, 4])).unwrap_err().to_string(),
        ///     "Expected size for first two dimensions of batch2 tensor to be: [8, 3] but got: [1, 3]."
        /// );
        /// # Ok::<(), shaped::Error>(())
        /// ```
        bmm => Bmm;
        /// A matrix times a vector (PyTorch's `torch.mv`), or PyTorch's error.
        ///
        /// ```
        /// use shaped::prelude::*;
        /// let a = DynTensor::<i64>::from_vec(vec![1, 2, 3, 4], &[2, 2])?;
        /// let v = DynTensor::<i64>::ones(&[2]);
        /// assert_eq!(a.mv(&v)?.to_vec(), vec![3, 7]);
        /// # Ok::<(), shaped::Error>(())
        /// ```
        mv => Mv;
        /// The dot product of two vectors (PyTorch's `torch.dot`), or
        /// PyTorch's error.
        ///
        /// ```
        /// use shaped::prelude::*;
        /// let v = DynTensor::<f64>::ones(&[3]);
        /// assert_eq!(v.dot(&v)?.to_vec(), vec![3.0]);
        /// assert_eq!(
        ///     v.dot(&DynTensor::ones(&[4])).unwrap_err().to_string(),
        ///     "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively"
        /// );
        /// # Ok::<(), shaped::Error>(())
        /// ```
        dot => Dot;
    }
}
