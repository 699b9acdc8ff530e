//! The functions of three tensors ([`crate::ops::ternary`]) on
//! [`AnyTensor`]: `lerp`, `addcmul`, `addcdiv` and their in-place forms,
//! with PyTorch's promotion, its checks in its order (the operation's own
//! dtype rules, then the shapes, then the output's dtype, then the kernel's
//! dtype and the number) and its texts.
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::dtype::Scalar;
//! let x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![0.0, 4.0], &[2]).unwrap());
//! let y = AnyTensor::from(DynTensor::<f32>::from_vec(vec![2.0, 8.0], &[2]).unwrap());
//! let mid = x.try_lerp(&y, Scalar::Float(0.5)).unwrap();
//! assert_eq!(mid.downcast::<f32>().unwrap().to_vec(), vec![1.0, 6.0]);
//! let d = AnyTensor::from(DynTensor::<f64>::from_vec(vec![1.0], &[1]).unwrap());
//! assert_eq!(
//!     x.try_lerp(&d, Scalar::Float(0.5)).unwrap_err().to_string(),
//!     "expected dtype float for `end` but got dtype double"
//! );
//! ```

use super::any::{AnyTensor, Operand};
use crate::backend::Masking;
use crate::dtype::promote::OperandKind;
use crate::dtype::{DType, Scalar};
use crate::error::{Error, kernel_on};
use crate::ops::ternary::{dyn_addcdiv, dyn_addcmul, dyn_lerp};
use crate::shape::broadcast_sizes_into;
use crate::storage::{Repr, View, Writable};

/// Which function.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Ternary {
    Lerp,
    Addcmul,
    Addcdiv,
}

/// A function's operands after PyTorch's checks: the common dtype, the
/// third tensor (none for `lerp` by a number) and the number.
struct Checked<'a, 'b, D: Masking> {
    common: DType,
    third: Option<&'a AnyTensor<D, View<'b>>>,
    number: Scalar,
}

fn kind(rank: usize) -> OperandKind {
    if rank == 0 {
        OperandKind::ZeroDim
    } else {
        OperandKind::Dimensioned
    }
}

/// Integers and bool.
fn integral(dtype: DType) -> bool {
    !dtype.is_floating_point() && !dtype.is_complex()
}

impl<D: Masking, R: Repr> AnyTensor<D, R> {
    /// PyTorch's checks of `op(self, b, c, number)` up to the kernel's:
    /// the operation's dtype rules, then the shapes (returned broadcast).
    fn check_ternary<'a, 'b>(
        &self,
        b: &AnyTensor<D, View<'_>>,
        c: Option<&'a AnyTensor<D, View<'b>>>,
        number: Scalar,
        op: Ternary,
    ) -> Result<(Checked<'a, 'b, D>, Vec<usize>), Error> {
        match op {
            Ternary::Lerp => {
                if b.dtype() != self.dtype() {
                    return Err(Error::LerpDType {
                        arg: "end",
                        expected: self.dtype(),
                        got: b.dtype(),
                    });
                }
                // A rank-0 weight of another dtype joins the promotion.
                if let Some(w) = c
                    && w.rank() > 0
                    && w.dtype() != self.dtype()
                {
                    return Err(Error::LerpDType {
                        arg: "weight",
                        expected: self.dtype(),
                        got: w.dtype(),
                    });
                }
            }
            Ternary::Addcdiv => {
                if let Some(c) = c
                    && integral(b.dtype())
                    && integral(c.dtype())
                {
                    return Err(Error::AddcdivIntegers);
                }
            }
            Ternary::Addcmul => {}
        }
        let mut sizes = vec![0; self.rank().max(b.rank())];
        broadcast_sizes_into(&self.shape(), &b.shape(), &mut sizes)?;
        if let Some(c) = c {
            let mut all = vec![0; sizes.len().max(c.rank())];
            broadcast_sizes_into(&sizes, &c.shape(), &mut all)?;
            sizes = all;
        }
        let common = match c {
            None => self.dtype(),
            Some(c) => {
                let ab = self.common_type(&Operand::Tensor(b.reborrow()));
                let ab_kind = kind(self.rank().max(b.rank()));
                DType::result_type((ab, ab_kind), (c.dtype(), kind(c.rank())))
            }
        };
        Ok((
            Checked {
                common,
                third: c,
                number,
            },
            sizes,
        ))
    }

    /// `op` out of place, after [`check_ternary`](Self::check_ternary).
    fn run_ternary(
        &self,
        b: &AnyTensor<D, View<'_>>,
        checked: Checked<'_, '_, D>,
        op: Ternary,
    ) -> Result<AnyTensor<D>, Error> {
        let Checked {
            common,
            third,
            number,
        } = checked;
        let refused = match op {
            Ternary::Lerp if integral(common) => Some(match third {
                Some(_) => kernel_on(self.device(), "lerp_kernel_tensor", "lerp_cuda"),
                None => kernel_on(self.device(), "lerp_kernel_scalar", "lerp_cuda"),
            }),
            Ternary::Addcmul if common == DType::Bool => {
                Some(kernel_on(self.device(), "addcmul_cpu_out", "addcmul_cuda"))
            }
            _ => None,
        };
        if let Some(op) = refused {
            return Err(Error::NotImplementedFor { op, dtype: common });
        }
        if op == Ternary::Lerp && self.dtype() == DType::F16 && common.is_complex() {
            // PyTorch promotes float16 and a complex rank-0 weight to
            // complex32, which its kernel refuses.
            let op = kernel_on(self.device(), "lerp_kernel_tensor", "lerp_cuda");
            return Err(Error::NotImplementedForComplexHalf { op });
        }
        let a = self.as_dtype(common)?;
        let b = b.as_dtype(common)?;
        let c = third.map(|c| c.as_dtype(common)).transpose()?;
        let (a, b) = (&a.view(), &b.view());
        let c = c.as_ref().map(|c| c.view());
        let c = c.as_ref();
        macro_rules! each {
            ($($v:ident),*; |$x:ident, $y:ident, $z:ident| $body:expr) => {
                match (a, b, c.unwrap_or(a)) {
                    $((AnyTensor::$v($x), AnyTensor::$v($y), AnyTensor::$v($z)) => AnyTensor::from($body?),)*
                    _ => unreachable!("operands converted to one supported dtype"),
                }
            };
        }
        Ok(match op {
            Ternary::Lerp => each!(F16, BF16, F32, F64, C64, C128; |x, y, z| {
                dyn_lerp(x, y, c.is_some().then_some(z), number)
            }),
            Ternary::Addcmul => each!(F16, BF16, F32, F64, C64, C128, U8, I8, I16, I32, I64;
                |x, y, z| dyn_addcmul(x, y, z, number)),
            Ternary::Addcdiv => each!(F16, BF16, F32, F64, C64, C128;
                |x, y, z| dyn_addcdiv(x, y, z, number)),
        })
    }

    fn ternary(
        &self,
        b: &AnyTensor<D, View<'_>>,
        c: Option<&AnyTensor<D, View<'_>>>,
        number: Scalar,
        op: Ternary,
    ) -> Result<AnyTensor<D>, Error> {
        let (checked, _) = self.check_ternary(b, c, number, op)?;
        self.run_ternary(b, checked, op)
    }

    /// Linear interpolation `self + weight * (end - self)` (from the
    /// nearer end), broadcast; `weight` a tensor of `self`'s dtype (a rank-0
    /// one of any dtype counts as its number) or a number. `Err` with
    /// PyTorch's text for an `end` or weight of another dtype, integer or
    /// bool tensors, shapes that do not broadcast, or a weight that does
    /// not fit the dtype.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.0, 1.0], &[2]).unwrap());
    /// let w = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.25, 1.0], &[2]).unwrap());
    /// let y = x.try_lerp(&w, &w).unwrap();
    /// assert_eq!(y.downcast::<f64>().unwrap().to_vec(), vec![0.0625, 1.0]);
    /// ```
    pub fn try_lerp<'a, R2: Repr>(
        &self,
        end: &AnyTensor<D, R2>,
        weight: impl Into<Operand<'a, D>>,
    ) -> Result<AnyTensor<D>, Error>
    where
        D: 'a,
    {
        match weight.into() {
            Operand::Tensor(w) => {
                self.ternary(&end.reborrow(), Some(&w), Scalar::Int(0), Ternary::Lerp)
            }
            Operand::Number(n) => self.ternary(&end.reborrow(), None, n, Ternary::Lerp),
        }
    }

    /// `self + value * tensor1 * tensor2`, the three broadcast and
    /// promoted; `Err` with PyTorch's text for bool, shapes that do not
    /// broadcast, or a `value` that does not fit the common type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1, 2], &[2]).unwrap());
    /// let y = x.try_addcmul(&x, &x, Scalar::Int(2)).unwrap();
    /// assert_eq!(y.downcast::<i64>().unwrap().to_vec(), vec![3, 10]);
    /// ```
    pub fn try_addcmul<R1: Repr, R2: Repr>(
        &self,
        tensor1: &AnyTensor<D, R1>,
        tensor2: &AnyTensor<D, R2>,
        value: Scalar,
    ) -> Result<AnyTensor<D>, Error> {
        self.ternary(
            &tensor1.reborrow(),
            Some(&tensor2.reborrow()),
            value,
            Ternary::Addcmul,
        )
    }

    /// `self + value * tensor1 / tensor2`, the three broadcast and
    /// promoted; `Err` with PyTorch's text when `tensor1` and `tensor2` are
    /// both integer (or bool) tensors, for shapes that do not broadcast, or
    /// a `value` that does not fit the common type.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let i = AnyTensor::from(DynTensor::<i64>::from_vec(vec![3], &[1]).unwrap());
    /// let f = AnyTensor::from(DynTensor::<f32>::from_vec(vec![2.0], &[1]).unwrap());
    /// let y = i.try_addcdiv(&i, &f, Scalar::Int(1)).unwrap();
    /// assert_eq!(y.downcast::<f32>().unwrap().to_vec(), vec![4.5]);
    /// assert!(i.try_addcdiv(&i, &i, Scalar::Int(1)).is_err());
    /// ```
    pub fn try_addcdiv<R1: Repr, R2: Repr>(
        &self,
        tensor1: &AnyTensor<D, R1>,
        tensor2: &AnyTensor<D, R2>,
        value: Scalar,
    ) -> Result<AnyTensor<D>, Error> {
        self.ternary(
            &tensor1.reborrow(),
            Some(&tensor2.reborrow()),
            value,
            Ternary::Addcdiv,
        )
    }
}

impl<D: Masking, R: Writable> AnyTensor<D, R> {
    /// `op` in place: PyTorch's in-place rule on the shapes and its casting
    /// rule on the common type come before the kernel's checks; `self` is
    /// untouched on any error.
    fn ternary_(
        &mut self,
        b: &AnyTensor<D, View<'_>>,
        c: Option<&AnyTensor<D, View<'_>>>,
        number: Scalar,
        op: Ternary,
    ) -> Result<(), Error> {
        let (checked, sizes) = self.check_ternary(b, c, number, op)?;
        crate::shape::check_in_place(&self.shape(), &sizes)?;
        if !checked.common.can_cast_to(self.dtype()) {
            return Err(Error::CastForbidden {
                from: checked.common,
                to: self.dtype(),
            });
        }
        let result = self.run_ternary(b, checked, op)?;
        self.copy_(&result)
    }

    /// [`try_lerp`](Self::try_lerp) in place (PyTorch's `lerp_`); `Err`
    /// (and `self` untouched) also when `end` and the weight do not
    /// broadcast to `self`'s shape.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![0.0, 1.0], &[2]).unwrap());
    /// let end = AnyTensor::from(DynTensor::<f32>::ones(&[3, 2]));
    /// assert_eq!(
    ///     x.try_lerp_(&end, Scalar::Float(0.5)).unwrap_err().to_string(),
    ///     "output with shape [2] doesn't match the broadcast shape [3, 2]"
    /// );
    /// ```
    pub fn try_lerp_<'a, R2: Repr>(
        &mut self,
        end: &AnyTensor<D, R2>,
        weight: impl Into<Operand<'a, D>>,
    ) -> Result<(), Error>
    where
        D: 'a,
    {
        match weight.into() {
            Operand::Tensor(w) => {
                self.ternary_(&end.reborrow(), Some(&w), Scalar::Int(0), Ternary::Lerp)
            }
            Operand::Number(n) => self.ternary_(&end.reborrow(), None, n, Ternary::Lerp),
        }
    }

    /// [`try_addcmul`](Self::try_addcmul) in place (PyTorch's `addcmul_`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut x = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1], &[1]).unwrap());
    /// let f = AnyTensor::from(DynTensor::<f32>::ones(&[1]));
    /// assert_eq!(
    ///     x.try_addcmul_(&f, &f, Scalar::Int(1)).unwrap_err().to_string(),
    ///     "result type Float can't be cast to the desired output type Long"
    /// );
    /// ```
    pub fn try_addcmul_<R1: Repr, R2: Repr>(
        &mut self,
        tensor1: &AnyTensor<D, R1>,
        tensor2: &AnyTensor<D, R2>,
        value: Scalar,
    ) -> Result<(), Error> {
        self.ternary_(
            &tensor1.reborrow(),
            Some(&tensor2.reborrow()),
            value,
            Ternary::Addcmul,
        )
    }

    /// [`try_addcdiv`](Self::try_addcdiv) in place (PyTorch's `addcdiv_`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// use shaped::dtype::Scalar;
    /// let mut x = AnyTensor::from(DynTensor::<f32>::ones(&[2]));
    /// let t = AnyTensor::from(DynTensor::<f32>::from_vec(vec![1.0, 2.0], &[2]).unwrap());
    /// x.try_addcdiv_(&t, &t, Scalar::Float(0.5)).unwrap();
    /// assert_eq!(x.downcast::<f32>().unwrap().to_vec(), vec![1.5, 1.5]);
    /// ```
    pub fn try_addcdiv_<R1: Repr, R2: Repr>(
        &mut self,
        tensor1: &AnyTensor<D, R1>,
        tensor2: &AnyTensor<D, R2>,
        value: Scalar,
    ) -> Result<(), Error> {
        self.ternary_(
            &tensor1.reborrow(),
            Some(&tensor2.reborrow()),
            value,
            Ternary::Addcdiv,
        )
    }
}
