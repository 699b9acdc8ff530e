// Norms take floating and complex tensors (PyTorch: "linalg.vector_norm: Expected a floating
// point or complex tensor as input. Got Long"). On an integer tensor of static shape
// `vector_norm` does not compile.
use shaped::prelude::*;

fn main() {
    let counts = Tensor::<i64, shape![2, 3]>::zeros();
    let _ = counts.vector_norm_dim::<1>(2.0);
    let _ = counts.cast::<f32>().vector_norm_dim::<1>(2.0); // compiles
}
