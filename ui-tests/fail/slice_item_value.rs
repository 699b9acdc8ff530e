// A `SliceItem` value may be an index or a range: a static tensor cannot type it.
// (`slice_dyn(&items)` takes runtime items and gives a runtime-rank view.)
use shaped::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![3, 4]>::zeros();
    let item = shaped::layout::views::SliceItem::Index(0);
    let _ = t.slice(s![item]);
}
