// `random_` (and `randint_like`, `bernoulli_`) fill real tensors: PyTorch
// refuses complex ones ("random_kernel_cpu" not implemented for
// 'ComplexFloat').
use num_complex::Complex;
use shaped::prelude::*;
use shaped::random::Generator;

fn main() {
    let mut x = DynTensor::<Complex<f32>>::zeros(&[3]);
    let _ = x.random_(&mut Generator::new(0));
}
