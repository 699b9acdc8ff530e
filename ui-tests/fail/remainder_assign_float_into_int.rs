// `%=` stores the result back into the left tensor's type: an int32
// tensor `%=` a float number would compute in float32, which PyTorch
// refuses to store ("result type Float can't be cast to the desired output
// type Int"). Compute out of place (`&x % 2.5`) or cast first.
use shaped::prelude::*;

fn main() {
    let mut x = tensor![7i32, -7];
    x %= 2.5;
}
