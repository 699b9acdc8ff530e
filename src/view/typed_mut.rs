//! Writable views of static shapes: the `_mut` forms of the static view
//! operations. Each borrows the tensor exclusively and computes the same
//! layout and the same result shape as its read-only form; only transforms
//! that keep distinct indices on distinct elements have one (never `expand`,
//! `unfold` or `diagonal` with repeated dims), so a write lands on exactly
//! one element of the base.

use super::{layout_of, signed as axis, signed as signed_start, signed_dims as signed};
use crate::backend::Backend;
use crate::dtype::Element;
use crate::error::Error;
use crate::error::OrPanic;
use crate::layout::views::Strided;
use crate::shape::axes::{
    Diagonal, Insert, MovedDim, Narrowed, PermuteBy, Remove, SameNumel, Squeeze, Transposed,
};
use crate::shape::list::TupleShape;
use crate::shape::slice::{SliceSpec, Sliced};
use crate::shape::{Dec, FixedShape, Shape};
use crate::storage::Writable;
use crate::tensor::{Tensor, TensorViewMut};

/// Declares writable view methods: `name<generics>(args) -> Output where
/// bounds => |layout| Result<Strided>`. A method whose arguments are checked
/// at run time also gets a `try_` form returning the error; the plain form
/// panics with it (as the read-only forms do).
macro_rules! static_views_mut {
    ($(
        $(#[$doc:meta])*
        $name:ident $(/ $try_name:ident)? [$($g:tt)*]($($arg:ident: $ty:ty),*) -> $out:ty
        where [$($bounds:tt)*] => |$l:ident| $body:expr;
    )*) => {
        impl<T: Element, S: Shape + TupleShape, D: Backend, R: Writable> Tensor<T, S, D, R> {$(
            $(#[$doc])*
            pub fn $name<$($g)*>(&mut self, $($arg: $ty),*) -> TensorViewMut<'_, T, $out, D>
            where
                $($bounds)*
            {
                let $l = self.strided_layout();
                let l: Result<Strided, Error> = $body;
                match l.and_then(|l| self.reinterpret_checked_mut(l)) {
                    Ok(view) => view,
                    Err(e) => panic!("{e}"),
                }
            }
            static_views_mut!(@try [$($try_name)?] $name [$($g)*]($($arg: $ty),*) -> $out
                where [$($bounds)*] => |$l| $body);
        )*}
    };
    (@try [] $($rest:tt)*) => {};
    (@try [$try_name:ident] $name:ident [$($g:tt)*]($($arg:ident: $ty:ty),*) -> $out:ty
        where [$($bounds:tt)*] => |$l:ident| $body:expr) => {
        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or `Err` with PyTorch's message.")]
        pub fn $try_name<$($g)*>(&mut self, $($arg: $ty),*) -> Result<TensorViewMut<'_, T, $out, D>, Error>
        where
            $($bounds)*
        {
            let $l = self.strided_layout();
            let l: Result<Strided, Error> = $body;
            self.reinterpret_checked_mut(l?)
        }
    };
}

impl<T: Element, S: Shape, D: Backend, R: Writable> Tensor<T, S, D, R> {
    /// [`reinterpret_mut`](Self::reinterpret_mut) for a static result shape,
    /// whose sizes the engine's layout must have.
    fn reinterpret_checked_mut<S2: Shape>(
        &mut self,
        l: Strided,
    ) -> Result<TensorViewMut<'_, T, S2, D>, Error> {
        assert!(
            S2::check_sizes(l.sizes()).is_ok(),
            "the static shape rules and the view engine disagree: {:?}",
            l.sizes()
        );
        debug_assert!(layout_of::<S2::Sizes>(&l).offset() == l.offset());
        self.reinterpret_mut(l)
    }
}

static_views_mut! {
    /// [`transpose`](Self::transpose), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 3]>::zeros();
    /// t.transpose_mut::<0, 1>()[[2, 1]] = 5;
    /// assert_eq!(t[[1, 2]], 5);
    /// ```
    transpose_mut[const I: usize, const J: usize]() -> <S as Transposed<I, J>>::Output
        where [S: Transposed<I, J>] => |l| l.transpose(axis(I), axis(J));
    /// [`permute`](Self::permute), writable.
    permute_mut[P: FixedShape]() -> <S as PermuteBy<P>>::Output
        where [S: PermuteBy<P>] => |l| l.permute(&signed(P::SIZES.as_ref()));
    /// [`movedim`](Self::movedim), writable.
    movedim_mut[const SRC: usize, const DST: usize]() -> <S as MovedDim<SRC, DST>>::Output
        where [S: MovedDim<SRC, DST>] => |l| l.movedim(&[axis(SRC)], &[axis(DST)]);
    /// [`narrow`](Self::narrow), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 4]>::zeros();
    /// t.narrow_mut::<1, 2>(1).fill(7);
    /// assert_eq!(t.to_vec(), vec![0, 7, 7, 0, 0, 7, 7, 0]);
    /// assert!(t.try_narrow_mut::<1, 2>(3).is_err());
    /// ```
    narrow_mut / try_narrow_mut[const DIM: usize, const LEN: usize](start: usize) -> <S as Narrowed<DIM, LEN>>::Output
        where [S: Narrowed<DIM, LEN>] => |l| l.narrow(axis(DIM), signed_start(start), LEN as isize);
    /// [`select`](Self::select), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 3]>::zeros();
    /// t.select_mut::<0>(-1).fill(1);
    /// assert_eq!(t.to_vec(), vec![0, 0, 0, 1, 1, 1]);
    /// ```
    select_mut / try_select_mut[const DIM: usize](index: isize) -> <S as Remove<DIM>>::Output
        where [S: Remove<DIM>, <S as Remove<DIM>>::Output: Shape] => |l| l.select(axis(DIM), index);
    /// [`unsqueeze`](Self::unsqueeze), writable.
    unsqueeze_mut[const DIM: usize]() -> <S as Insert<DIM, Dec<1>>>::Output
        where [S: Insert<DIM, Dec<1>>, <S as Insert<DIM, Dec<1>>>::Output: Shape] => |l| l.unsqueeze(axis(DIM));
    /// [`squeeze`](Self::squeeze), writable.
    squeeze_mut[O: Shape]() -> O
        where [S: Squeeze<Output = O>] => |l| Ok(l.squeeze());
    /// [`diagonal`](Self::diagonal), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut eye = Tensor::<f64, shape![3, 3]>::zeros();
    /// eye.diagonal_mut().fill(1.0);
    /// assert_eq!(eye.to_vec(), vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    /// ```
    diagonal_mut[O: Shape]() -> O
        where [S: Diagonal<Output = O>] => |l| l.diagonal(0, 0, 1);
}

impl<T: Element, S: Shape + TupleShape, D: Backend, R: Writable> Tensor<T, S, D, R> {
    /// [`view`](Self::view), writable: the same elements with the static
    /// shape `S2`, or `Err` when the strides forbid a view. A different
    /// number of elements does not compile.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<i32, shape![4, 4]>::zeros();
    /// t.view_mut_as::<shape![2, 8]>().unwrap()[[1, 0]] = 5;
    /// assert_eq!(t[[2, 0]], 5);
    /// ```
    pub fn view_mut_as<S2: FixedShape>(&mut self) -> Result<TensorViewMut<'_, T, S2, D>, Error>
    where
        S: SameNumel<S2>,
    {
        let l = self.strided_layout().view(&signed(S2::SIZES.as_ref()))?;
        self.reinterpret_checked_mut(l)
    }

    /// [`slice`](Self::slice), writable.
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 4]>::zeros();
    /// t.slice_mut(s![.., ..;2]).fill(1);
    /// assert_eq!(t.to_vec(), vec![1, 0, 1, 0, 1, 0, 1, 0]);
    /// ```
    pub fn slice_mut<L, const N: usize>(
        &mut self,
        items: SliceSpec<L, N>,
    ) -> TensorViewMut<'_, T, <S as Sliced<L>>::Output, D>
    where
        S: Sliced<L>,
    {
        self.try_slice_mut(items).or_panic()
    }

    /// [`slice_mut`](Self::slice_mut), or `Err` with PyTorch's message.
    pub fn try_slice_mut<L, const N: usize>(
        &mut self,
        items: SliceSpec<L, N>,
    ) -> Result<TensorViewMut<'_, T, <S as Sliced<L>>::Output, D>, Error>
    where
        S: Sliced<L>,
    {
        let l = self.strided_layout().slice(items.as_ref())?;
        self.reinterpret_checked_mut(l)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    /// Sizes, strides and offset of a view.
    macro_rules! layout {
        ($v:expr) => {{
            let v = $v;
            (v.shape().to_vec(), v.strides().to_vec(), v.storage_offset())
        }};
    }

    #[test]
    fn writable_forms_have_the_read_only_layouts() {
        let mut t = Tensor::<i64, shape![3, 4, 5]>::from_vec((0..60).collect()).unwrap();
        let expected = [
            layout!(t.transpose::<0, 2>()),
            layout!(t.permute::<axes![1, 2, 0]>()),
            layout!(t.movedim::<0, 2>()),
            layout!(t.narrow::<1, 2>(2)),
            layout!(t.select::<2>(-1)),
            layout!(t.unsqueeze::<3>()),
            layout!(t.diagonal()),
            layout!(t.slice(s![1.., NewAxis, ..;2, -1])),
        ];
        let got = [
            layout!(t.transpose_mut::<0, 2>()),
            layout!(t.permute_mut::<axes![1, 2, 0]>()),
            layout!(t.movedim_mut::<0, 2>()),
            layout!(t.narrow_mut::<1, 2>(2)),
            layout!(t.select_mut::<2>(-1)),
            layout!(t.unsqueeze_mut::<3>()),
            layout!(t.diagonal_mut()),
            layout!(t.slice_mut(s![1.., NewAxis, ..;2, -1])),
        ];
        assert_eq!(expected, got);
        let mut u = Tensor::<i64, shape![1, 3, 1]>::zeros();
        assert_eq!(layout!(u.squeeze()), layout!(u.squeeze_mut()));
    }

    #[test]
    fn writes_land_in_the_base_and_errors_leave_it_alone() {
        let mut t = Tensor::<i32, shape![2, 3]>::zeros();
        t.transpose_mut::<0, 1>().select_mut::<0>(2).fill(5);
        assert_eq!(t.to_vec(), vec![0, 0, 5, 0, 0, 5]);
        assert_eq!(
            t.try_select_mut::<1>(3).unwrap_err().to_string(),
            "select(): index 3 out of range for tensor of size [2, 3] at dimension 1"
        );
        let seven = 7;
        assert_eq!(
            t.try_slice_mut(s![.., seven]).unwrap_err().to_string(),
            "index 7 is out of bounds for dimension 1 with size 3"
        );
        assert_eq!(t.to_vec(), vec![0, 0, 5, 0, 0, 5]);
    }
}
