// Large sizes are compared exactly and quoted in decimal: (50257, 768) +
// (50256, 1) clashes at dimension 0 (50257 vs 50256).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![50257, 768]>::zeros();
    let b = Tensor::<f32, shape![50256, 1]>::zeros();
    let _ = &a + &b;
}
