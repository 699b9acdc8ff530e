// `geometric_` fills floating and integer tensors: PyTorch refuses bool
// ("geometric_cpu" not implemented for 'Bool').
use shaped::prelude::*;
use shaped::random::Generator;

fn main() {
    let mut x = DynTensor::<bool>::zeros(&[3]);
    let _ = x.geometric_(0.5, &mut Generator::new(0));
}
