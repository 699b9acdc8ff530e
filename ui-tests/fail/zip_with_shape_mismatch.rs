// `zip_with` broadcasts its two tensors as `+` does: static shapes that
// cannot broadcast (3 against 4 in the last dimension) do not compile, and
// the error names the sizes, as `+`'s.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![4]>::zeros();
    let _ = a.zip_with(&b, |x, y| x.max(y));
}
