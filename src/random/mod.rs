//! Random numbers: a counter-based generator ([`Generator`], Philox4x32-10)
//! whose numbers depend only on (seed, offset, element index), so a seed
//! gives bit-identical tensors on the CPU and on CUDA and for any number of
//! threads; the distributions' samplers; and the fills (`rand`, `randn`,
//! `uniform_`, `normal_`, `exponential_`, `cauchy_`, `geometric_`,
//! `log_normal_`, `random_`, `bernoulli_`, ...) in [`crate::ops::random`], the
//! samplers with tensor arguments (`bernoulli`, `poisson`, `normal_tensor_tensor`,
//! `multinomial`) in [`crate::ops::sampling`].
//!
//! ```
//! use shaped::prelude::*;
//! use shaped::random::Generator;
//! let mut g = Generator::new(0);
//! let x = Tensor::<f32, shape![1000]>::rand(&mut g);
//! assert!(x.iter().all(|&v| (0.0..1.0).contains(&v)));
//! let mut y = DynTensor::<f64>::zeros(&[3, 3]);
//! y.normal_(10.0, 0.5, &mut g).unwrap();
//! ```

pub mod distributions;
pub mod generator;
pub mod math;
pub mod philox;
pub mod poisson;
#[cfg(test)]
mod tests;

pub use distributions::{
    Distribution, Draw, RandomFloat, RandomGeometric, RandomValue, RandomWhole,
};
pub use generator::{DEFAULT_SEED, DefaultGenerator, Generator, manual_seed};
