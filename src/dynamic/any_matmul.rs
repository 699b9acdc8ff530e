//! The matrix products of [`AnyTensor`]s (owned or views): `matmul`, `mm`,
//! `bmm`, `mv` and `dot`. Operands of one dtype multiply as their
//! [`DynTensor`](crate::DynTensor)s do. PyTorch does not promote in
//! products: operands of two dtypes are refused, after the shape checks,
//! in the words of the function the product runs as (`matmul` runs as
//! `dot`, `mv`, `mm` or `bmm` by ranks and strides, and `bmm` words its
//! refusal by the size of each product), and bool, which PyTorch's CPU
//! kernels do not multiply, is refused with its kernel's name. As in
//! PyTorch, a product with nothing to add up is no refusal: one with no
//! elements, or an inner size of 0, gives its zeros (of the right operand's
//! dtype, as PyTorch's `bmm` allocates its output).
//!
//! ```
//! use shaped::prelude::*;
//! let a = AnyTensor::from(DynTensor::<f32>::ones(&[2, 2]));
//! let b = AnyTensor::from(DynTensor::<f64>::ones(&[2, 2]));
//! assert_eq!(a.matmul(&a).unwrap().dtype(), DType::F32);
//! assert_eq!(
//!     a.mm(&b).unwrap_err().to_string(),
//!     "expected m1 and m2 to have the same dtype, but got: float != double"
//! );
//! let m = AnyTensor::from(DynTensor::<bool>::ones(&[2, 2]));
//! assert_eq!(m.mm(&m).unwrap_err().to_string(), "\"addmm_impl_cpu_\" not implemented for 'Bool'");
//! ```

use super::any::AnyTensor;
use crate::backend::{Elementwise, MatmulBackend};
use crate::dtype::DType;
use crate::error::{Error, MatmulError, kernel_on};
use crate::ops::matmul::plan::{MatmulPlan, Operand, ProductKind, folds};
use crate::storage::Repr;

/// Products of at most this many multiply-adds (`m * k * n`) run in
/// PyTorch's small `bmm` kernel, whose dtype refusals differ from the large
/// path's.
const BMM_SMALL_PRODUCT: usize = 400;

/// The function PyTorch runs a product as: its checks' words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Route {
    Dot,
    /// `mv`; `swapped` when the matrix is the right operand (a vector
    /// times a batch that folds into a matrix).
    Mv {
        swapped: bool,
    },
    Mm,
    Bmm,
}

impl Route {
    /// The route of `kind` for operands `a` and `b`, as `torch.matmul`
    /// dispatches (see [`check_matmul`](crate::ops::matmul::plan::check_matmul)).
    fn of(kind: ProductKind, a: Operand<'_>, b: Operand<'_>) -> Route {
        match kind {
            ProductKind::Dot => Route::Dot,
            ProductKind::Mv => Route::Mv { swapped: false },
            ProductKind::Mm => Route::Mm,
            ProductKind::Bmm => Route::Bmm,
            ProductKind::Matmul => match (a.sizes.len(), b.sizes.len()) {
                (1, 1) => Route::Dot,
                (2, 1) => Route::Mv { swapped: false },
                (1, 2) | (2, 2) => Route::Mm,
                // A batch folds with a matrix or a vector; the right operand
                // folds only with a vector.
                (da, db) if da > 0 && db > 0 && folds(a, b) => match (da >= db, db) {
                    (true, 1) => Route::Mv { swapped: false },
                    (true, _) => Route::Mm,
                    (false, _) => Route::Mv { swapped: true },
                },
                _ => Route::Bmm,
            },
        }
    }
}

/// Runs the typed product `$body` when both operands hold one of the dtypes
/// listed: `Some` of its result, else `None`.
macro_rules! same_dtype {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr; $($variant:ident),*) => {
        match ($a, $b) {
            $((AnyTensor::$variant($x), AnyTensor::$variant($y)) => Some($body.map(AnyTensor::from)),)*
            _ => None,
        }
    };
}

/// Declares the products: the typed product of operands of one dtype that
/// multiplies, PyTorch's refusal (or zeros) for the rest.
macro_rules! any_products {
    ($($(#[$doc:meta])* $name:ident => $kind:ident;)*) => {
        impl<D: MatmulBackend + Elementwise, R: Repr> AnyTensor<D, R> {$(
            $(#[$doc])*
            #[inline]
            pub fn $name<R2: Repr>(&self, other: &AnyTensor<D, R2>) -> Result<AnyTensor<D>, Error> {
                same_dtype!(self, other, |x, y| x.$name(y);
                    F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64)
                .unwrap_or_else(|| self.unmultiplied(other, ProductKind::$kind))
            }
        )*}
    };
}

any_products! {
    /// The matrix product (PyTorch's `torch.matmul`): vector · vector is a
    /// rank-0 dot product, a matrix with a vector drops the vector's
    /// dimension, and batch dimensions broadcast. Both operands must have
    /// one dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<i64>::ones(&[5, 2, 3]));
    /// let v = AnyTensor::from(DynTensor::<i64>::ones(&[3]));
    /// assert_eq!(a.matmul(&v).unwrap().shape(), [5, 2]);
    /// let w = AnyTensor::from(DynTensor::<i32>::ones(&[3]));
    /// assert_eq!(
    ///     a.matmul(&w).unwrap_err().to_string(),
    ///     "addmv input tensors must have the same dtype, but got Int, Long, and Int"
    /// );
    /// ```
    matmul => Matmul;
    /// The product of two matrices (PyTorch's `torch.mm`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<f32>::ones(&[2, 3]));
    /// let b = AnyTensor::from(DynTensor::<half::f16>::ones(&[2, 2]));
    /// // The shapes are checked first.
    /// assert_eq!(a.mm(&b).unwrap_err().to_string(), "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)");
    /// ```
    mm => Mm;
    /// A batch of matrix products of equal batch sizes (PyTorch's
    /// `torch.bmm`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<f32>::ones(&[3, 2, 2]));
    /// let b = AnyTensor::from(DynTensor::<f64>::ones(&[3, 2, 2]));
    /// assert_eq!(a.bmm(&b).unwrap_err().to_string(), "expected scalar type Float but found Double");
    /// ```
    bmm => Bmm;
    /// A matrix times a vector (PyTorch's `torch.mv`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = AnyTensor::from(DynTensor::<f64>::ones(&[2, 2]));
    /// let v = AnyTensor::from(DynTensor::<f32>::ones(&[2]));
    /// assert_eq!(
    ///     a.mv(&v).unwrap_err().to_string(),
    ///     "addmv input tensors must have the same dtype, but got Float, Double, and Float"
    /// );
    /// ```
    mv => Mv;
    /// The dot product of two vectors (PyTorch's `torch.dot`), a rank-0
    /// tensor.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let v = AnyTensor::from(DynTensor::<f32>::ones(&[3]));
    /// let w = AnyTensor::from(DynTensor::<f64>::ones(&[4]));
    /// // `dot` compares dtypes before lengths.
    /// assert_eq!(
    ///     v.dot(&w).unwrap_err().to_string(),
    ///     "dot : expected both vectors to have same dtype, but found Float and Double"
    /// );
    /// ```
    dot => Dot;
}

impl<D: MatmulBackend + Elementwise, R: Repr> AnyTensor<D, R> {
    /// The product `kind` of operands that do not multiply as typed
    /// tensors (two dtypes, or bool): PyTorch's shape checks, then its
    /// refusal, or the zeros of a product with nothing to add up.
    fn unmultiplied<R2: Repr>(
        &self,
        other: &AnyTensor<D, R2>,
        kind: ProductKind,
    ) -> Result<AnyTensor<D>, Error> {
        let (sa, sb) = (self.shape(), other.shape());
        let (ta, tb) = (self.strides(), other.strides());
        let a = Operand {
            sizes: &sa,
            strides: &ta,
        };
        let b = Operand {
            sizes: &sb,
            strides: &tb,
        };
        let (da, db) = (self.dtype(), other.dtype());
        let route = Route::of(kind, a, b);
        // `dot` compares dtypes between its rank and length checks.
        if route == Route::Dot && sa.len() == 1 && sb.len() == 1 && da != db {
            return Err(MatmulError::DotDTypes { a: da, b: db }.into());
        }
        kind.check(a, b)?;
        let plan = MatmulPlan::new(a, b)?;
        let out = plan.out_sizes();
        let k = sa[sa.len() - 1];
        // Nothing to add up: PyTorch's `mm`, `mv` and `bmm` return zeros
        // before their kernels (and `bmm` before its dtype checks).
        let zeros = crate::layout::numel(out) == 0 || k == 0;
        let not_for = |cpu, cuda| Error::NotImplementedFor {
            op: kernel_on(self.device(), cpu, cuda),
            dtype: da,
        };
        let refusal: Error = match route {
            // Both are bool: two dtypes were refused above.
            Route::Dot => not_for("dot", "dot"),
            Route::Mv { swapped } if da != db => {
                let (mat, vec) = if swapped { (db, da) } else { (da, db) };
                MatmulError::MvDTypes { mat, vec }.into()
            }
            Route::Mm if da != db => MatmulError::MmDTypes { a: da, b: db }.into(),
            _ if zeros => return self.zeros_of(other, kind, out, db),
            Route::Mv { .. } => not_for("addmv_impl_cpu", "addmv_impl_cuda"),
            Route::Mm => not_for("addmm_impl_cpu_", "addmm_cuda"),
            Route::Bmm => {
                let m = if sa.len() == 1 { 1 } else { sa[sa.len() - 2] };
                let n = if sb.len() == 1 { 1 } else { sb[sb.len() - 1] };
                if m.saturating_mul(k).saturating_mul(n) < BMM_SMALL_PRODUCT {
                    // The small kernel, dispatched on the left dtype,
                    // reads the right operand as that.
                    if da == DType::Bool {
                        not_for("bmm", "bmm_cuda")
                    } else {
                        MatmulError::BmmDTypes {
                            expected: da,
                            found: db,
                        }
                        .into()
                    }
                } else if matches!(db, DType::F32 | DType::F64 | DType::C64 | DType::C128) {
                    // BLAS's batched product, in the output's (the right
                    // operand's) dtype.
                    MatmulError::BmmDTypes {
                        expected: db,
                        found: da,
                    }
                    .into()
                } else if da != db {
                    // One `mm` per matrix of the batch.
                    MatmulError::MmDTypes { a: da, b: db }.into()
                } else {
                    not_for("addmm_impl_cpu_", "addmm_cuda")
                }
            }
        };
        Err(refusal)
    }

    /// Zeros of sizes `out` and `dtype` on this tensor's device: the
    /// product `kind` of this and `other` when it has no elements or its
    /// inner size is 0. Either way an operand has no elements, so nothing
    /// is copied but the result.
    fn zeros_of<R2: Repr>(
        &self,
        other: &AnyTensor<D, R2>,
        kind: ProductKind,
        out: &[usize],
        dtype: DType,
    ) -> Result<AnyTensor<D>, Error> {
        if crate::layout::numel(out) == 0 {
            // An empty operand seen with the output's sizes: a layout with
            // no elements addresses none of its storage.
            let still = vec![0; out.len()];
            return if self.numel() == 0 {
                self.as_strided(out, &still, 0)?.try_to_dtype(dtype)
            } else {
                other.as_strided(out, &still, 0)?.try_to_dtype(dtype)
            };
        }
        // An inner size of 0: both operands are empty, and their uint8
        // product is the zeros.
        let (a, b) = (
            self.try_to_dtype(DType::U8)?,
            other.try_to_dtype(DType::U8)?,
        );
        let product = match kind {
            ProductKind::Matmul => a.matmul(&b),
            ProductKind::Mm => a.mm(&b),
            ProductKind::Bmm => a.bmm(&b),
            ProductKind::Mv => a.mv(&b),
            ProductKind::Dot => a.dot(&b),
        };
        product?.try_to_dtype(dtype)
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::{DType, Scalar};
    use crate::prelude::*;

    fn ones(dtype: DType, sizes: &[usize]) -> AnyTensor {
        AnyTensor::ones(sizes, dtype).unwrap()
    }

    fn text(r: Result<AnyTensor, Error>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn one_dtype_multiplies_as_the_typed_tensors() {
        let a = DynTensor::<i32>::from_vec((0..6).collect(), &[2, 3]).unwrap();
        let b = DynTensor::<i32>::from_vec((0..12).collect(), &[3, 4]).unwrap();
        let (x, y) = (AnyTensor::from(a.clone()), AnyTensor::from(b.clone()));
        let c = x.matmul(&y).unwrap();
        assert_eq!(
            c.downcast::<i32>().unwrap().to_vec(),
            a.matmul(&b).unwrap().to_vec()
        );
        // Views multiply in place; half types widen as their typed products.
        let t = y.t().unwrap().to_dtype(DType::F16);
        let p = t.mm(&x.t().unwrap().to_dtype(DType::F16)).unwrap();
        assert_eq!(p.dtype(), DType::F16);
        assert_eq!(p.shape(), [4, 2]);
        let v = x.select(0, 1).unwrap();
        assert_eq!(v.dot(&v).unwrap().to_scalars(), vec![Scalar::Int(50)]);
        assert_eq!(
            x.mv(&v).unwrap().to_scalars(),
            vec![Scalar::Int(14), Scalar::Int(50)]
        );
        let batch = x.unsqueeze(0).unwrap().expand(&[2, -1, -1]).unwrap();
        let yb = y.unsqueeze(0).unwrap().expand(&[2, -1, -1]).unwrap();
        assert_eq!(batch.bmm(&yb).unwrap().shape(), [2, 2, 4]);
        let z = ones(DType::C128, &[2, 2]);
        assert_eq!(z.matmul(&z).unwrap().dtype(), DType::C128);
    }

    /// PyTorch 2.15's texts for operands of two dtypes, by the function
    /// each product runs as.
    #[test]
    fn two_dtypes_are_refused_in_pytorchs_words() {
        use DType::*;
        let mm = "expected m1 and m2 to have the same dtype, but got:";
        let cases: Vec<(String, String)> = vec![
            (text(ones(F32, &[2, 2]).mm(&ones(F64, &[2, 2]))), format!("{mm} float != double")),
            (text(ones(I32, &[2, 2]).mm(&ones(I64, &[2, 2]))), format!("{mm} int != long int")),
            (text(ones(F32, &[2, 2]).mm(&ones(C64, &[2, 2]))), format!("{mm} float != c10::complex<float>")),
            (text(ones(Bool, &[2, 2]).mm(&ones(F32, &[2, 2]))), format!("{mm} bool != float")),
            (text(ones(F32, &[2, 2]).matmul(&ones(F64, &[2, 2]))), format!("{mm} float != double")),
            (text(ones(F32, &[2]).matmul(&ones(F64, &[2, 2]))), format!("{mm} float != double")),
            (text(ones(F32, &[3, 2, 2]).matmul(&ones(F64, &[2, 2]))), format!("{mm} float != double")),
            (text(ones(F64, &[2, 2, 0]).matmul(&ones(F32, &[0, 2]))), format!("{mm} double != float")),
            (
                text(ones(F32, &[2]).matmul(&ones(F64, &[2]))),
                "dot : expected both vectors to have same dtype, but found Float and Double".into(),
            ),
            (
                text(ones(Bool, &[3]).dot(&ones(F32, &[2]))),
                "dot : expected both vectors to have same dtype, but found Bool and Float".into(),
            ),
            (
                text(ones(F32, &[2, 2]).matmul(&ones(F64, &[2]))),
                "addmv input tensors must have the same dtype, but got Double, Float, and Double".into(),
            ),
            (
                text(ones(F32, &[3, 2, 2]).matmul(&ones(F64, &[2]))),
                "addmv input tensors must have the same dtype, but got Double, Float, and Double".into(),
            ),
            (
                // A vector times an empty batch, which folds.
                text(ones(F64, &[0]).matmul(&ones(F32, &[2, 0, 2]))),
                "addmv input tensors must have the same dtype, but got Double, Float, and Double".into(),
            ),
            (
                text(ones(Bool, &[3, 3]).mv(&ones(F32, &[3]))),
                "addmv input tensors must have the same dtype, but got Float, Bool, and Float".into(),
            ),
            (
                text(ones(F32, &[3, 2, 2]).matmul(&ones(F64, &[3, 2, 2]))),
                "expected scalar type Float but found Double".into(),
            ),
            (
                text(ones(F32, &[2, 2]).matmul(&ones(F64, &[3, 2, 2]))),
                "expected scalar type Float but found Double".into(),
            ),
            (
                text(ones(F32, &[2]).matmul(&ones(F64, &[3, 2, 2]))),
                "expected scalar type Float but found Double".into(),
            ),
            (
                text(ones(F32, &[3, 2, 2]).bmm(&ones(Bool, &[3, 2, 2]))),
                "expected scalar type Float but found Bool".into(),
            ),
            (
                text(ones(Bool, &[3, 2, 2]).bmm(&ones(F32, &[3, 2, 2]))),
                "\"bmm\" not implemented for 'Bool'".into(),
            ),
            // Large products (m * k * n >= 400) take other paths.
            (
                text(ones(I32, &[1, 1, 400]).bmm(&ones(F32, &[1, 400, 1]))),
                "expected scalar type Float but found Int".into(),
            ),
            (
                text(ones(I32, &[1, 1, 399]).bmm(&ones(F32, &[1, 399, 1]))),
                "expected scalar type Int but found Float".into(),
            ),
            (text(ones(I32, &[1, 1, 400]).bmm(&ones(I64, &[1, 400, 1]))), format!("{mm} int != long int")),
            (text(ones(Bool, &[2, 10, 10]).bmm(&ones(I8, &[2, 10, 10]))), format!("{mm} bool != signed char")),
            (
                text(ones(F16, &[2, 2, 10, 10]).matmul(&ones(F32, &[2, 2, 10, 10]))),
                "expected scalar type Float but found Half".into(),
            ),
            (
                text(ones(I32, &[20]).matmul(&ones(I64, &[2, 20, 20]))),
                format!("{mm} int != long int"),
            ),
            // Shapes are checked first (dot: its ranks only).
            (
                text(ones(F32, &[2, 3]).mm(&ones(F64, &[2, 2]))),
                "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)".into(),
            ),
            (
                text(ones(F32, &[2, 3]).mv(&ones(F64, &[2]))),
                "size mismatch, got input (2), mat (2x3), vec (2)".into(),
            ),
            (
                text(ones(F32, &[3, 3]).dot(&ones(F64, &[2]))),
                "1D tensors expected, but got 2D and 1D tensors".into(),
            ),
            (
                text(ones(F32, &[3, 2, 3]).bmm(&ones(F64, &[3, 2, 2]))),
                "Expected size for first two dimensions of batch2 tensor to be: [3, 3] but got: [3, 2].".into(),
            ),
            (
                text(ones(F32, &[3, 2, 2]).matmul(&ones(F64, &[4, 2, 2]))),
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0".into(),
            ),
            (
                text(ones(F32, &[]).matmul(&ones(F64, &[2]))),
                "both arguments to matmul need to be at least 1D, but they are 0D and 1D".into(),
            ),
        ];
        for (got, expected) in cases {
            assert_eq!(got, expected);
        }
    }

    /// A batch whose strides do not fold runs as `bmm`, as in PyTorch
    /// (`torch.ones(4, 3, 2).transpose(0, 1) @ torch.ones(2)`).
    #[test]
    fn strides_choose_the_route() {
        let x = AnyTensor::ones(&[4, 3, 2], DType::I32).unwrap();
        let v = AnyTensor::ones(&[2], DType::I64).unwrap();
        assert_eq!(
            x.transpose(0, 1)
                .unwrap()
                .matmul(&v)
                .unwrap_err()
                .to_string(),
            "expected scalar type Int but found Long"
        );
        assert_eq!(
            x.matmul(&v).unwrap_err().to_string(),
            "addmv input tensors must have the same dtype, but got Long, Int, and Long"
        );
    }

    #[test]
    fn bool_products_are_refused_unless_there_is_nothing_to_add() {
        use DType::Bool;
        let b = |sizes: &[usize]| ones(Bool, sizes);
        let refused = [
            (b(&[2, 2]).mm(&b(&[2, 2])), "addmm_impl_cpu_"),
            (b(&[2, 2]).matmul(&b(&[2, 2])), "addmm_impl_cpu_"),
            (b(&[2]).matmul(&b(&[2])), "dot"),
            (b(&[0]).dot(&b(&[0])), "dot"),
            (b(&[2, 2]).mv(&b(&[2])), "addmv_impl_cpu"),
            (b(&[3, 2, 2]).matmul(&b(&[2])), "addmv_impl_cpu"),
            (b(&[3, 2, 2]).bmm(&b(&[3, 2, 2])), "bmm"),
            (b(&[2, 2]).matmul(&b(&[3, 2, 2])), "bmm"),
            (b(&[2, 10, 10]).bmm(&b(&[2, 10, 10])), "addmm_impl_cpu_"),
        ];
        for (result, kernel) in refused {
            assert_eq!(
                result.unwrap_err().to_string(),
                format!("\"{kernel}\" not implemented for 'Bool'")
            );
        }
        // Shapes first.
        assert_eq!(
            text(b(&[2, 3]).mm(&b(&[2, 2]))),
            "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)"
        );
        // Nothing to add up: zeros (false), as PyTorch.
        let cases: [(Result<AnyTensor, Error>, &[usize]); 8] = [
            (b(&[0, 2]).mm(&b(&[2, 3])), &[0, 3]),
            (b(&[2, 0]).mm(&b(&[0, 3])), &[2, 3]),
            (b(&[2, 0]).mv(&b(&[0])), &[2]),
            (b(&[2, 2, 0]).bmm(&b(&[2, 0, 2])), &[2, 2, 2]),
            (b(&[3, 2, 2]).bmm(&b(&[3, 2, 0])), &[3, 2, 0]),
            (b(&[0]).matmul(&b(&[0, 2])), &[2]),
            (b(&[3, 2, 0]).matmul(&b(&[0])), &[3, 2]),
            (b(&[0, 3, 2, 2]).matmul(&b(&[3, 2, 2])), &[0, 3, 2, 2]),
        ];
        for (result, sizes) in cases {
            let z = result.unwrap();
            assert_eq!((z.dtype(), z.shape()), (Bool, sizes.to_vec()));
            assert!(z.to_scalars().iter().all(|&s| s == Scalar::Bool(false)));
        }
    }

    /// PyTorch's `bmm` allocates its output in the right operand's dtype
    /// and returns it before comparing dtypes when there is nothing to add.
    #[test]
    fn empty_batches_of_two_dtypes_are_zeros_of_the_right_dtype() {
        use DType::*;
        let z = ones(F32, &[2, 2, 0]).bmm(&ones(F64, &[2, 0, 2])).unwrap();
        assert_eq!((z.dtype(), z.shape()), (F64, vec![2, 2, 2]));
        assert_eq!(z.to_scalars(), vec![Scalar::Float(0.0); 8]);
        let z = ones(F32, &[2, 2, 0]).bmm(&ones(I32, &[2, 0, 2])).unwrap();
        assert_eq!((z.dtype(), z.shape()), (I32, vec![2, 2, 2]));
        let z = ones(F32, &[0, 2, 2]).bmm(&ones(Bool, &[0, 2, 2])).unwrap();
        assert_eq!((z.dtype(), z.shape()), (Bool, vec![0, 2, 2]));
        let z = ones(F64, &[0, 3, 2, 2])
            .matmul(&ones(F32, &[3, 2, 2]))
            .unwrap();
        assert_eq!((z.dtype(), z.shape()), (F32, vec![0, 3, 2, 2]));
        // A non-empty left operand: the output is still empty.
        let z = ones(F64, &[2, 2, 2]).bmm(&ones(F32, &[2, 2, 0])).unwrap();
        assert_eq!((z.dtype(), z.shape()), (F32, vec![2, 2, 0]));
        // `mm` and `mv` compare dtypes first.
        assert!(ones(F32, &[0, 2]).mm(&ones(F64, &[2, 3])).is_err());
        assert!(ones(F32, &[2, 0]).mv(&ones(F64, &[0])).is_err());
    }
}
