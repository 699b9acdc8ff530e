//! PyTorch's `str(tensor)` for CPU tensors, after `torch/_tensor_str.py`
//! (PyTorch 2.15) with its default print options: precision 4, threshold
//! 1000, edgeitems 3, linewidth 80, `sci_mode=None`.
//!
//! [`format_tensor`] is a pure function of the sizes and the row-major
//! elements (seen as [`Scalar`]s); `Display` for tensors calls it.

use crate::backend::cpu::try_vec_with_capacity;
use crate::dtype::{DType, Element, Scalar};
use crate::error::OrPanic;

/// Digits after the point (`PRINT_OPTS.precision`).
const PRECISION: usize = 4;
/// Above this many elements, print only the edges (`PRINT_OPTS.threshold`).
const THRESHOLD: usize = 1000;
/// Elements kept at each end of a summarized dimension (`PRINT_OPTS.edgeitems`).
const EDGEITEMS: usize = 3;
/// Characters per line (`PRINT_OPTS.linewidth`).
const LINEWIDTH: usize = 80;
/// `len("tensor(")`.
const PREFIX: &str = "tensor(";

/// PyTorch's `str(tensor)` of a CPU tensor with these sizes, whose element
/// at an index is `element(index)`. Only the printed elements are read
/// (the edges, above [`THRESHOLD`] elements): a tensor of 2^40 expanded
/// elements prints as quickly as a small one.
///
/// ```text
/// let v = [1.0f32, 2.0, 3.0, 4.5];
/// assert_eq!(format_tensor(&[2, 2], |i| v[i[0] * 2 + i[1]]),
///            "tensor([[1.0000, 2.0000],\n        [3.0000, 4.5000]])");
/// assert_eq!(format_tensor(&[0, 3], |_| 0i64),
///            "tensor([], size=(0, 3), dtype=torch.int64)");
/// ```
pub(crate) fn format_tensor<T: Element>(
    sizes: &[usize],
    element: impl Fn(&[usize]) -> T,
) -> String {
    let numel = crate::layout::numel(sizes);
    let dtype = T::DTYPE;
    let indent = PREFIX.len();
    let mut suffixes = Vec::new();
    let body = if numel == 0 {
        // The shape is printed unless it is `(0,)`; the dtype unless it is
        // the default float32 (even int64: nothing shows it is integral).
        if sizes.len() != 1 {
            suffixes.push(format!("size={}", python_tuple(sizes)));
        }
        if dtype != DType::F32 {
            suffixes.push(format!("dtype={dtype}"));
        }
        String::from("[]")
    } else {
        if !matches!(dtype, DType::F32 | DType::C64 | DType::I64 | DType::Bool) {
            suffixes.push(format!("dtype={dtype}"));
        }
        let summarize = numel > THRESHOLD;
        let shown = Shown::new(sizes, summarize, |index| element(index).to_scalar());
        let formatters = Formatters::new(&shown.values);
        block(sizes, &shown.lens, &shown.values, indent, &formatters)
    };
    add_suffixes(format!("{PREFIX}{body}"), &suffixes, indent)
}

/// The elements a print shows (`get_summarized_data` when summarizing, else
/// all), in row-major order of the shown indices: along each dimension the
/// indices of [`shown_indices`], `lens` of them.
struct Shown {
    lens: Vec<usize>,
    values: Vec<Scalar>,
}

impl Shown {
    /// The shown elements of a tensor of `sizes` (none 0).
    fn new(sizes: &[usize], summarize: bool, element: impl Fn(&[usize]) -> Scalar) -> Self {
        let indices: Vec<Vec<usize>> = sizes.iter().map(|&n| shown_indices(n, summarize)).collect();
        let lens: Vec<usize> = indices.iter().map(Vec::len).collect();
        // At most the tensor's elements, each index of its sizes: fits.
        let count: usize = lens.iter().product();
        // Allocated fallibly: a panic with PyTorch's out-of-memory text,
        // not an abort, for a print too large to hold.
        let mut values = try_vec_with_capacity(count).or_panic();
        let mut at = vec![0; sizes.len()];
        let mut index: Vec<usize> = indices.iter().map(|i| i[0]).collect();
        for _ in 0..count {
            values.push(element(&index));
            // The next shown index, row-major.
            for d in (0..sizes.len()).rev() {
                at[d] += 1;
                if at[d] < lens[d] {
                    index[d] = indices[d][at[d]];
                    break;
                }
                at[d] = 0;
                index[d] = indices[d][0];
            }
        }
        Shown { lens, values }
    }
}

/// Python's `str(tuple(sizes))`: `(0, 3)`, `(0,)`.
fn python_tuple(sizes: &[usize]) -> String {
    let items: Vec<String> = sizes.iter().map(usize::to_string).collect();
    match items.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// `_add_suffixes`: `, dtype=...` on the last line, or on a new line
/// indented under the first bracket when the line would pass the width.
fn add_suffixes(mut out: String, suffixes: &[String], indent: usize) -> String {
    // PyTorch's count: the last line's length plus two.
    let mut last_line_len = match out.rfind('\n') {
        Some(newline) => out.len() - newline + 1,
        None => out.len() + 2,
    };
    for suffix in suffixes {
        if last_line_len + suffix.len() + 2 > LINEWIDTH {
            out.push_str(",\n");
            out.push_str(&" ".repeat(indent));
            last_line_len = indent + suffix.len();
        } else {
            out.push_str(", ");
            last_line_len += suffix.len() + 2;
        }
        out.push_str(suffix);
    }
    out.push(')');
    out
}

/// The indices printed along a dimension of size `n`: the edges when
/// summarizing a long one, else all.
fn shown_indices(n: usize, summarize: bool) -> Vec<usize> {
    if summarize && n > 2 * EDGEITEMS {
        (0..EDGEITEMS).chain(n - EDGEITEMS..n).collect()
    } else {
        (0..n).collect()
    }
}

/// `_tensor_str_with_formatter`: one (sub)tensor whose `[` is at column
/// `indent`, of the shown elements `values` (`lens` shown along each of
/// `sizes`).
fn block(
    sizes: &[usize],
    lens: &[usize],
    values: &[Scalar],
    indent: usize,
    formatters: &Formatters,
) -> String {
    match sizes {
        [] => formatters.element(values[0]),
        [n] => vector(*n, values, indent, formatters),
        [n, ..] => {
            let shown = lens[0];
            let stride = values.len() / shown;
            let mut slices = Vec::new();
            for k in 0..shown {
                if k == EDGEITEMS && shown < *n {
                    slices.push(String::from("..."));
                }
                let sub = &values[k * stride..(k + 1) * stride];
                slices.push(block(&sizes[1..], &lens[1..], sub, indent + 1, formatters));
            }
            let separator = format!(
                ",{}{}",
                "\n".repeat(sizes.len() - 1),
                " ".repeat(indent + 1)
            );
            format!("[{}]", slices.join(&separator))
        }
    }
}

/// `_vector_str`: one row of size `n`, of the shown elements `values`,
/// wrapped to the line width.
fn vector(n: usize, values: &[Scalar], indent: usize, formatters: &Formatters) -> String {
    let per_line = (LINEWIDTH.saturating_sub(indent) / formatters.element_length()).max(1);
    let mut data = Vec::new();
    for (k, &value) in values.iter().enumerate() {
        if k == EDGEITEMS && values.len() < n {
            data.push(String::from(" ..."));
        }
        data.push(formatters.element(value));
    }
    let lines: Vec<String> = data.chunks(per_line).map(|line| line.join(", ")).collect();
    let separator = format!(",\n{}", " ".repeat(indent + 1));
    format!("[{}]", lines.join(&separator))
}

/// The formatter of the elements, or of the real and the imaginary parts.
struct Formatters {
    real: Formatter,
    imag: Option<Formatter>,
}

impl Formatters {
    fn new(values: &[Scalar]) -> Self {
        match values[0] {
            Scalar::Complex(..) => {
                let part = |imag: bool| {
                    Formatter::floats(values.iter().map(|v| match *v {
                        Scalar::Complex(re, im) => {
                            if imag {
                                im
                            } else {
                                re
                            }
                        }
                        _ => unreachable!("one dtype per tensor"),
                    }))
                };
                Formatters {
                    real: part(false),
                    imag: Some(part(true)),
                }
            }
            Scalar::Float(_) => Formatters {
                real: Formatter::floats(values.iter().map(|v| match *v {
                    Scalar::Float(x) => x,
                    _ => unreachable!("one dtype per tensor"),
                })),
                imag: None,
            },
            Scalar::Int(_) | Scalar::Bool(_) => Formatters {
                real: Formatter::Text {
                    width: values.iter().map(|v| text(*v).len()).fold(1, usize::max),
                },
                imag: None,
            },
        }
    }

    /// Columns one element takes, with its `", "` (and `j`).
    fn element_length(&self) -> usize {
        self.real.width() + 2 + self.imag.as_ref().map_or(0, |f| f.width() + 1)
    }

    /// One element, padded to the common width (`_val_formatter`).
    fn element(&self, value: Scalar) -> String {
        match (value, &self.imag) {
            (Scalar::Complex(re, im), Some(imag)) => {
                let real = self.real.float(re);
                let imag = format!("{}j", imag.float(im));
                let imag = imag.trim_start();
                if imag.starts_with(['+', '-']) {
                    format!("{real}{imag}")
                } else {
                    format!("{real}+{imag}")
                }
            }
            (Scalar::Float(x), _) => self.real.float(x),
            (value, _) => pad(text(value), self.real.width()),
        }
    }
}

/// PyTorch's `_Formatter` for one dtype.
enum Formatter {
    /// Integers and bools: Python's `str`, right-aligned.
    Text { width: usize },
    /// Floating values: integral (`1.`), fixed (`1.5000`) or scientific
    /// (`1.5000e+10`), right-aligned.
    Float {
        int_mode: bool,
        sci_mode: bool,
        width: usize,
    },
}

impl Formatter {
    /// The formatter for these values; only the finite nonzero ones decide.
    fn floats(values: impl Iterator<Item = f64>) -> Self {
        let finite: Vec<f64> = values.filter(|x| x.is_finite() && *x != 0.0).collect();
        if finite.is_empty() {
            return Formatter::Float {
                int_mode: true,
                sci_mode: false,
                width: 1,
            };
        }
        let max = finite.iter().map(|x| x.abs()).fold(f64::MIN, f64::max);
        let min = finite.iter().map(|x| x.abs()).fold(f64::MAX, f64::min);
        let int_mode = finite.iter().all(|x| *x == x.ceil());
        let sci_mode = max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4;
        let width = finite
            .iter()
            .map(|&x| match (sci_mode, int_mode) {
                (true, _) => scientific(x).len(),
                (false, true) => fixed(x, 0).len() + 1,
                (false, false) => fixed(x, PRECISION).len(),
            })
            .fold(1, usize::max);
        Formatter::Float {
            int_mode,
            sci_mode,
            width,
        }
    }

    fn width(&self) -> usize {
        match *self {
            Formatter::Text { width } | Formatter::Float { width, .. } => width,
        }
    }

    /// `_Formatter.format` of a floating value.
    fn float(&self, x: f64) -> String {
        let Formatter::Float {
            int_mode,
            sci_mode,
            width,
        } = *self
        else {
            unreachable!("a float needs a float formatter")
        };
        let text = if sci_mode {
            scientific(x)
        } else if int_mode {
            let mut s = fixed(x, 0);
            if x.is_finite() {
                s.push('.');
            }
            s
        } else {
            fixed(x, PRECISION)
        };
        pad(text, width)
    }
}

/// Python's `str` of an integer or a bool.
fn text(value: Scalar) -> String {
    match value {
        Scalar::Int(i) => i.to_string(),
        Scalar::Bool(true) => String::from("True"),
        Scalar::Bool(false) => String::from("False"),
        Scalar::Float(_) | Scalar::Complex(..) => unreachable!("floats use a float formatter"),
    }
}

/// Python's spelling of a non-finite value (NaN has no sign).
fn non_finite(x: f64) -> Option<String> {
    if x.is_nan() {
        Some(String::from("nan"))
    } else if x.is_infinite() {
        Some(String::from(if x > 0.0 { "inf" } else { "-inf" }))
    } else {
        None
    }
}

/// Python's `f"{x:.{digits}f}"` (Rust rounds the same way: exactly, ties
/// to even).
fn fixed(x: f64, digits: usize) -> String {
    non_finite(x).unwrap_or_else(|| format!("{x:.digits$}"))
}

/// Python's `f"{x:.4e}"`: `1.5000e+10`, the exponent signed and at least
/// two digits.
fn scientific(x: f64) -> String {
    non_finite(x).unwrap_or_else(|| {
        let s = format!("{x:.PRECISION$e}");
        let (mantissa, exponent) = s.split_once('e').expect("`{:e}` writes an exponent");
        let exponent: i32 = exponent.parse().expect("`{:e}` writes an integer exponent");
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    })
}

/// Right-align `s` in `width` columns (never truncating).
fn pad(s: String, width: usize) -> String {
    format!("{s:>width$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scientific_and_fixed_spell_like_python() {
        assert_eq!(scientific(1.5e10), "1.5000e+10");
        assert_eq!(scientific(-2.0e-300), "-2.0000e-300");
        assert_eq!(scientific(0.0), "0.0000e+00");
        assert_eq!(scientific(-f64::NAN), "nan");
        assert_eq!(fixed(0.03125, 4), "0.0312");
        assert_eq!(fixed(-0.0, 0), "-0");
        assert_eq!(fixed(f64::NEG_INFINITY, 4), "-inf");
    }

    #[test]
    fn suffixes_move_to_a_new_line_past_the_width() {
        let short = add_suffixes("tensor([1, 2]".into(), &["dtype=torch.int32".into()], 7);
        assert_eq!(short, "tensor([1, 2], dtype=torch.int32)");
        let long = format!("tensor([{}]", "1, ".repeat(20));
        let wrapped = add_suffixes(long.clone(), &["dtype=torch.int32".into()], 7);
        assert_eq!(wrapped, format!("{long},\n       dtype=torch.int32)"));
    }

    /// `format_tensor` of row-major `values`.
    fn format_values<T: Element>(sizes: &[usize], values: &[T]) -> String {
        assert_eq!(crate::layout::numel(sizes), values.len());
        format_tensor(sizes, |index| {
            let at = index.iter().zip(sizes).fold(0, |at, (&i, &n)| at * n + i);
            values[at]
        })
    }

    #[test]
    fn summarized_prints_read_only_the_edges() {
        use std::cell::Cell;
        let reads = Cell::new(0usize);
        let text = format_tensor(&[1 << 40, 1 << 20], |index| {
            reads.set(reads.get() + 1);
            (index[0] % 7 + index[1] % 5) as i64
        });
        assert_eq!(reads.get(), 36);
        assert_eq!(
            text,
            "tensor([[ 0,  1,  2,  ...,  3,  4,  0],
        [ 1,  2,  3,  ...,  4,  5,  1],
        [ 2,  3,  4,  ...,  5,  6,  2],
        ...,
        [ 6,  7,  8,  ...,  9, 10,  6],
        [ 0,  1,  2,  ...,  3,  4,  0],
        [ 1,  2,  3,  ...,  4,  5,  1]])"
        );
        let values: Vec<i32> = (0..2000).collect();
        assert_eq!(
            format_values(&[2, 1000], &values),
            "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n        [1000, 1001, 1002,  ..., 1997, 1998, 1999]], dtype=torch.int32)"
        );
    }

    #[test]
    fn formats_every_kind() {
        use num_complex::Complex;
        assert_eq!(format_values(&[], &[3.5f32]), "tensor(3.5000)");
        assert_eq!(
            format_values(&[2, 2], &[1.0f32, 2.0, 3.0, 4.5]),
            "tensor([[1.0000, 2.0000],\n        [3.0000, 4.5000]])"
        );
        assert_eq!(
            format_values(&[2], &[Complex::new(1.0f32, -0.0), Complex::new(2.0, 3.0)]),
            "tensor([1.-0.j, 2.+3.j])"
        );
        assert_eq!(
            format_values(&[2], &[true, false]),
            "tensor([ True, False])"
        );
        assert_eq!(
            format_values(&[0, 3], &[0i64; 0]),
            "tensor([], size=(0, 3), dtype=torch.int64)"
        );
        assert_eq!(
            format_values(&[2], &[1i32, 2]),
            "tensor([1, 2], dtype=torch.int32)"
        );
    }
}
