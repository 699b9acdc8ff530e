// `normal` with a tensor of means and one of standard deviations: their
// shapes broadcast together, by PyTorch's rules, checked by the compiler.
use shaped::prelude::*;
use shaped::random::Generator;

fn main() {
    let mean = Tensor::<f32, shape![2]>::zeros();
    let std = Tensor::<f32, shape![3]>::ones();
    let _ = Tensor::normal_tensor_tensor(&mean, &std, &mut Generator::new(0));
}
