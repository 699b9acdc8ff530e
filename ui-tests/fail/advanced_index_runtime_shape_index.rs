// A typed index computes a static result shape from its index tensors' shapes, so an index
// tensor of runtime shape (a `DynTensor`) has no place in it: index with a list for a runtime
// result shape, or give the index a static shape.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4, 5]>::zeros();
    let i = DynTensor::<i64>::zeros(&[2]);
    let _ = x.index((&i, ..));
    let _ = x.index(&[Index::Tensor(&i), Index::Slice(..)]); // a runtime shape: compiles
}
