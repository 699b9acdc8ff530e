//! The in-place forms of the functions of one tensor on [`AnyTensor`]
//! (`exp_`, `erf_`, `sign_`, ...): the function's result, stored back into
//! the tensor where PyTorch's casting rule allows it, else its error
//! ("result type Float can't be cast to the desired output type Long");
//! the function's own refusals come first, as PyTorch's.
//!
//! ```
//! use shaped::prelude::*;
//! let mut x = AnyTensor::from(DynTensor::<f64>::from_vec(vec![0.0, 1.0], &[2]).unwrap());
//! x.exp_().unwrap();
//! assert_eq!(x.downcast::<f64>().unwrap().to_vec(), vec![1.0, 1f64.exp()]);
//! let mut n = AnyTensor::from(DynTensor::<i64>::from_vec(vec![1], &[1]).unwrap());
//! assert_eq!(
//!     n.exp_().unwrap_err().to_string(),
//!     "result type Float can't be cast to the desired output type Long"
//! );
//! ```

use super::any::AnyTensor;
use crate::backend::Masking;
use crate::error::Error;
use crate::storage::Writable;

impl<D: Masking, R: Writable> AnyTensor<D, R> {
    /// `result` stored into `self`, if PyTorch's casting rule lets its
    /// dtype into `self`'s.
    fn store_result(&mut self, result: Result<AnyTensor<D>, Error>) -> Result<(), Error> {
        let result = result?;
        if !result.dtype().can_cast_to(self.dtype()) {
            return Err(Error::CastForbidden {
                from: result.dtype(),
                to: self.dtype(),
            });
        }
        self.copy_(&result)
    }
}

/// `name_` from `name`, with its doc line.
macro_rules! any_in_place {
    ($($name:ident => $in_place:ident),* $(,)?) => {
        impl<D: Masking, R: Writable> AnyTensor<D, R> {$(
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") in place (PyTorch's `", stringify!($in_place), "`); `Err` with PyTorch's text where the function refuses the dtype or its result does not fit it.")]
            pub fn $in_place(&mut self) -> Result<(), Error> {
                let result = self.$name();
                self.store_result(result)
            }
        )*}
    };
}

any_in_place! {
    exp => exp_, ln => ln_, log2 => log2_, sqrt => sqrt_, sin => sin_, cos => cos_,
    tanh => tanh_, sigmoid => sigmoid_, recip => recip_, tan => tan_, asin => asin_,
    acos => acos_, atan => atan_, sinh => sinh_, cosh => cosh_, asinh => asinh_,
    acosh => acosh_, atanh => atanh_, exp2 => exp2_, expm1 => expm1_, log10 => log10_,
    log1p => log1p_, rsqrt => rsqrt_, floor => floor_, ceil => ceil_, round => round_,
    relu => relu_, erf => erf_, erfc => erfc_, erfinv => erfinv_, lgamma => lgamma_,
    digamma => digamma_, deg2rad => deg2rad_, rad2deg => rad2deg_, sinc => sinc_,
    trunc => trunc_, frac => frac_, sign => sign_, sgn => sgn_, square => square_,
}

impl<D: Masking, R: Writable> AnyTensor<D, R> {
    /// [`nan_to_num`](Self::nan_to_num) in place (PyTorch's
    /// `nan_to_num_`).
    ///
    /// ```
    /// use shaped::prelude::*;
    /// let mut x = AnyTensor::from(DynTensor::<f32>::from_vec(vec![f32::NAN], &[1]).unwrap());
    /// x.nan_to_num_(2.0, None, None).unwrap();
    /// assert_eq!(x.downcast::<f32>().unwrap().to_vec(), vec![2.0]);
    /// ```
    pub fn nan_to_num_(
        &mut self,
        nan: f64,
        posinf: Option<f64>,
        neginf: Option<f64>,
    ) -> Result<(), Error> {
        let result = self.nan_to_num(nan, posinf, neginf);
        self.store_result(result)
    }
}
