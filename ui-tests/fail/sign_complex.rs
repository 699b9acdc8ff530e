// `sign` and `signbit` take real tensors: PyTorch refuses complex ones
// ("Unlike NumPy, torch.sign is not intended to support complex numbers.
// Please use torch.sgn instead."). `sgn()` gives z / |z|.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let z = tensor![Complex::new(3.0f64, -4.0)];
    let _ = z.sign();
}
