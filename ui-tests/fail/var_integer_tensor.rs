// var and std take floating and complex tensors (PyTorch: "std and var only support floating
// point and complex dtypes"). On an integer tensor of static shape they do not compile.
use shaped::prelude::*;

fn main() {
    let counts = Tensor::<i32, shape![2, 3]>::zeros();
    let _ = counts.var_dim::<1>(1);
    let _ = counts.cast::<f32>().var_dim::<1>(1); // compiles
}
