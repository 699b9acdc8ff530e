//! The user's own functions over tensors (issue 25): `map`, `map_inplace`,
//! `zip_with` (broadcasting as `+` does) and `try_zip_with`.
//!
//! A closure runs as an element function of the CPU engine, as `exp` or `+`
//! do: contiguous runs in a loop the compiler vectorizes with the closure
//! inlined, strided operands walked as the built-in functions walk them,
//! large tensors shared across the threads. So the closure must be `Sync`
//! (each thread calls it through a shared reference); it captures what it
//! likes by reference. Nothing is compiled per shape: the shape-erased
//! engine is compiled once per closure and element types. The closures run
//! on the CPU only (a Rust closure has no CUDA form): copy a device tensor
//! with `to_cpu()` first.

use super::functions::{BinaryFn, UnaryFn};
use super::{broadcast_map2, unary};
use crate::backend::{Cpu, StridedMut, StridedRef};
use crate::dtype::Element;
use crate::error::{Error, OrPanic};
use crate::shape::{BroadcastShape, Shape};
use crate::storage::{Repr, Writable};
use crate::tensor::{Tensor, from_parts, owned_parts};

/// A closure of one element, borrowed so that the engine's copies of it
/// are references.
struct Closure<'f, F>(&'f F);
impl<F> Clone for Closure<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Closure<'_, F> {}
impl<A, U, F: Fn(A) -> U + Sync> UnaryFn<A, U> for Closure<'_, F> {
    #[inline(always)]
    fn call(&self, a: A) -> U {
        (self.0)(a)
    }
}
impl<A, B, U, F: Fn(A, B) -> U + Sync> BinaryFn<A, B, U> for Closure<'_, F> {
    #[inline(always)]
    fn call(&self, a: A, b: B) -> U {
        (self.0)(a, b)
    }
}

impl<T: Element, S: Shape, R: Repr> Tensor<T, S, Cpu, R> {
    /// `f` of every element, into a new tensor of the same shape (ndarray's
    /// `mapv`), on the engine's threads.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![0., 1., 2., 3., 4., 5.]).unwrap();
    /// let y: Tensor<f32, shape![2, 3]> = x.map(|v| v * 2.0 + 1.0);
    /// assert_eq!(y.to_vec(), [1., 3., 5., 7., 9., 11.]);
    /// let big: Tensor<bool, shape![3, 2]> = x.t().map(|v| v > 2.5);
    /// assert_eq!(big.to_vec(), [false, true, false, true, false, true]);
    /// ```
    pub fn map<U: Element, F: Fn(T) -> U + Sync>(&self, f: F) -> Tensor<U, S, Cpu> {
        from_parts!(unary(StridedRef::new(&self.data, &self.layout), Closure(&f)).or_panic())
    }

    /// `f` of each pair of elements of `self` and `other` broadcast
    /// together (PyTorch's rules, as `+`), into a new tensor of the
    /// broadcast shape; a pair of static shapes that cannot broadcast is a
    /// compile error, as for `+`. Panics where `Dyn` sizes do not
    /// broadcast ([`try_zip_with`](Self::try_zip_with) returns the error).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 2., 3., 4., 5., 6.]).unwrap();
    /// let w = Tensor::<i32, shape![3]>::from_vec(vec![1, 0, 2]).unwrap();
    /// let y: Tensor<f32, shape![2, 3]> = x.zip_with(&w, |a, k| a.powi(k));
    /// assert_eq!(y.to_vec(), [1., 1., 9., 4., 1., 36.]);
    /// ```
    pub fn zip_with<B: Element, S2: Shape, R2: Repr, U: Element, F: Fn(T, B) -> U + Sync>(
        &self,
        other: &Tensor<B, S2, Cpu, R2>,
        f: F,
    ) -> Tensor<U, <S as BroadcastShape<S2>>::Output, Cpu>
    where
        S: BroadcastShape<S2>,
    {
        self.try_zip_with(other, f).or_panic()
    }

    /// [`zip_with`](Self::zip_with), or PyTorch's error where `Dyn` sizes do
    /// not broadcast.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let a = DynTensor::<i64>::from_vec(vec![1, 2, 3], &[3]).unwrap();
    /// let b = DynTensor::<i64>::from_vec(vec![10, 20], &[2]).unwrap();
    /// assert_eq!(
    ///     a.try_zip_with(&b, |x, y| x * y).unwrap_err().to_string(),
    ///     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"
    /// );
    /// let c = DynTensor::<i64>::from_vec(vec![10, 20], &[2, 1]).unwrap();
    /// let d = a.try_zip_with(&c, |x, y| x * y).unwrap();
    /// assert_eq!(d.shape().as_ref(), [2, 3]);
    /// assert_eq!(d.to_vec(), [10, 20, 30, 20, 40, 60]);
    /// ```
    pub fn try_zip_with<B: Element, S2: Shape, R2: Repr, U: Element, F: Fn(T, B) -> U + Sync>(
        &self,
        other: &Tensor<B, S2, Cpu, R2>,
        f: F,
    ) -> Result<Tensor<U, <S as BroadcastShape<S2>>::Output, Cpu>, Error>
    where
        S: BroadcastShape<S2>,
    {
        let a = StridedRef::new(&self.data, &self.layout);
        let b = StridedRef::new(&other.data, &other.layout);
        let (buffer, layout) = broadcast_map2(a, b, Closure(&f))?;
        Ok(from_parts!(owned_parts(buffer, layout)))
    }
}

impl<T: Element, S: Shape, R: Writable> Tensor<T, S, Cpu, R> {
    /// Every element replaced by `f` of it, in place (through a mutable
    /// view, in the tensor it views), on the engine's threads.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// x.map_inplace(|v| v * v);
    /// x.select_mut::<0>(1).map_inplace(|v| -v);
    /// assert_eq!(x.to_vec(), [1, 4, 9, -16, -25, -36]);
    /// ```
    pub fn map_inplace<F: Fn(T) -> T + Sync>(&mut self, f: F) {
        let ptr = R::ptr_mut(&mut self.data);
        let out = StridedMut {
            ptr,
            sizes: self.layout.sizes(),
            strides: self.layout.strides(),
            offset: self.layout.offset(),
        };
        <Cpu as crate::backend::Elementwise>::update1(out, Closure(&f)).or_panic();
    }
}
