// Random fills make floating tensors: PyTorch refuses `torch.rand(3,
// dtype=torch.int64)` ("check_uniform_bounds" not implemented for 'Long').
// Fill a float tensor and cast it, or use `randint`.
use shaped::prelude::*;
use shaped::random::Generator;

fn main() {
    let mut g = Generator::new(0);
    let _ = Tensor::<i64, shape![3]>::rand(&mut g);
}
