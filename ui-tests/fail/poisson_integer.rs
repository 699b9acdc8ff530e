// `poisson` reads floating rates: PyTorch refuses integer ones
// ("poisson_cpu" not implemented for 'Long').
use shaped::prelude::*;
use shaped::random::Generator;

fn main() {
    let rates = Tensor::<i64, shape![3]>::ones();
    let _ = rates.poisson(&mut Generator::new(0));
}
