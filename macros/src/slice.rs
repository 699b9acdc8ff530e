//! `s![..]` and `s_kinds![..]`: the items of a basic index, with their kinds
//! as types so that static shapes can be sliced at compile time.

use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, ExprRange, RangeLimits, Token, UnOp};

/// One item: an expression, optionally `; step`.
pub struct Item {
    expr: Expr,
    step: Option<Expr>,
}

/// The comma-separated items.
pub struct Items(Vec<Item>);

impl Parse for Items {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut items = Vec::new();
        while !input.is_empty() {
            let expr: Expr = input.parse()?;
            let step = if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
                Some(input.parse()?)
            } else {
                None
            };
            items.push(Item { expr, step });
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(Items(items))
    }
}

/// The value of an integer literal, possibly negated or parenthesized.
fn int_literal(e: &Expr) -> Option<syn::Result<i128>> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => Some(lit.base10_parse::<i128>()),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
            int_literal(&u.expr).map(|v| v.map(|v| -v))
        }
        Expr::Paren(p) => int_literal(&p.expr),
        Expr::Group(g) => int_literal(&g.expr),
        _ => None,
    }
}

/// `NewAxis` or `Ellipsis` (by the last segment of a plain path).
fn marker(e: &Expr) -> Option<&'static str> {
    let Expr::Path(p) = e else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    if !last.arguments.is_none() {
        return None;
    }
    match last.ident.to_string().as_str() {
        "NewAxis" => Some("NewAxis"),
        "Ellipsis" => Some("Ellipsis"),
        _ => None,
    }
}

/// How an item is known at compile time.
enum Known {
    /// A literal index.
    Index(i128),
    /// A literal range: start, exclusive end (`None`: to the end), step.
    Range(i128, Option<i128>, i128),
    /// `NewAxis` or `Ellipsis`.
    Marker(&'static str),
    /// Known only at run time.
    Runtime,
}

fn isize_value(v: i128, span: Span) -> syn::Result<i128> {
    if v < isize::MIN as i128 || v > isize::MAX as i128 {
        return Err(syn::Error::new(span, "a slice bound must fit in isize"));
    }
    Ok(v)
}

/// The literal bound of a range, `None` for an absent one, `Err(())` for a
/// runtime one.
fn range_bound(b: &Option<Box<Expr>>) -> syn::Result<Result<Option<i128>, ()>> {
    match b {
        None => Ok(Ok(None)),
        Some(e) => match int_literal(e) {
            Some(v) => Ok(Ok(Some(isize_value(v?, e.span())?))),
            None => Ok(Err(())),
        },
    }
}

fn classify(item: &Item) -> syn::Result<Known> {
    let step = match &item.step {
        None => Some(1),
        Some(s) => match int_literal(s) {
            Some(v) => {
                let v = isize_value(v?, s.span())?;
                if v <= 0 {
                    return Err(syn::Error::new(
                        s.span(),
                        "step must be greater than zero (PyTorch slices do not run backwards)",
                    ));
                }
                Some(v)
            }
            None => None,
        },
    };
    if let Some(m) = marker(&item.expr) {
        if item.step.is_some() {
            return Err(syn::Error::new(
                item.expr.span(),
                "a step applies to a range, not to `NewAxis` or `Ellipsis`",
            ));
        }
        return Ok(Known::Marker(m));
    }
    if let Some(v) = int_literal(&item.expr) {
        if item.step.is_some() {
            return Err(syn::Error::new(
                item.expr.span(),
                "a step applies to a range, not to an index",
            ));
        }
        return Ok(Known::Index(isize_value(v?, item.expr.span())?));
    }
    let (
        Expr::Range(ExprRange {
            start, end, limits, ..
        }),
        Some(step),
    ) = (&item.expr, step)
    else {
        return Ok(Known::Runtime);
    };
    let (Ok(start), Ok(end)) = (range_bound(start)?, range_bound(end)?) else {
        return Ok(Known::Runtime);
    };
    let end = match (limits, end) {
        (RangeLimits::HalfOpen(_), end) => end,
        (RangeLimits::Closed(_), Some(-1)) => None,
        (RangeLimits::Closed(_), Some(e)) => Some(e + 1),
        (RangeLimits::Closed(_), None) => None,
    };
    Ok(Known::Range(start.unwrap_or(0), end, step))
}

/// The runtime value of a known item.
fn known_value(k: &Known) -> TokenStream2 {
    let item = quote!(::shaped::layout::views::SliceItem);
    match *k {
        Known::Index(i) => {
            let i = i as isize;
            quote!(#item::Index(#i))
        }
        Known::Range(start, end, step) => {
            let start = start as isize;
            let step = step as isize;
            let end = match end {
                Some(e) => {
                    let e = e as isize;
                    quote!(::core::option::Option::Some(#e))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(#item::Range { start: #start, end: #end, step: #step })
        }
        Known::Marker(m) => {
            let m = format_ident!("{m}");
            quote!(#item::#m)
        }
        Known::Runtime => unreachable!("runtime items have no literal value"),
    }
}

/// The kind type of a known item.
fn known_kind(k: &Known, span: Span) -> syn::Result<TokenStream2> {
    let slice = quote!(::shaped::shape::slice);
    let magnitude = |v: i128| crate::dec_type(v.unsigned_abs(), span);
    let bound = |v: Option<i128>| -> syn::Result<TokenStream2> {
        Ok(match v {
            None => quote!(#slice::Open),
            Some(v) if v >= 0 => {
                let m = magnitude(v)?;
                quote!(#slice::Front<#m>)
            }
            Some(v) => {
                let m = magnitude(v)?;
                quote!(#slice::Back<#m>)
            }
        })
    };
    Ok(match *k {
        Known::Index(i) => {
            let m = magnitude(i)?;
            let i = i as isize;
            if i >= 0 {
                quote!(#slice::Index<#i, #m>)
            } else {
                quote!(#slice::IndexFromEnd<#i, #m>)
            }
        }
        Known::Range(start, end, step) => {
            let b = bound(Some(start))?;
            let e = bound(end)?;
            let st = magnitude(step)?;
            quote!(#slice::Range<#b, #e, #st>)
        }
        Known::Marker(m) => {
            let m = format_ident!("{m}");
            quote!(::shaped::layout::views::#m)
        }
        Known::Runtime => unreachable!("runtime items have no literal kind"),
    })
}

fn check_ellipses(known: &[Known]) -> syn::Result<()> {
    let ellipses = known
        .iter()
        .filter(|k| matches!(k, Known::Marker("Ellipsis")))
        .count();
    if ellipses > 1 {
        return Err(syn::Error::new(
            Span::call_site(),
            "an index can only have a single ellipsis",
        ));
    }
    Ok(())
}

/// `s![..]`: a `SliceSpec` with the runtime items and the list of kinds.
pub fn expand(items: Items) -> syn::Result<TokenStream2> {
    let known: Vec<Known> = items.0.iter().map(classify).collect::<syn::Result<_>>()?;
    check_ellipses(&known)?;
    let slice = quote!(::shaped::shape::slice);
    let mut lets = Vec::new();
    let mut values = Vec::new();
    let mut kinds = Vec::new();
    for (n, (item, k)) in items.0.iter().zip(&known).enumerate() {
        if let Known::Runtime = k {
            let var = format_ident!("__shaped_item_{n}");
            let expr = &item.expr;
            lets.push(quote!(let #var = #expr;));
            match &item.step {
                Some(step) => {
                    let step_var = format_ident!("__shaped_step_{n}");
                    lets.push(quote!(let #step_var: isize = #step;));
                    values.push(
                        quote!(::shaped::layout::views::SliceItem::from(#var).stepped(#step_var)),
                    );
                    kinds.push(quote!(#slice::stepped_kind_of(&#var)));
                }
                None => {
                    values.push(quote!(::shaped::layout::views::SliceItem::from(#var)));
                    kinds.push(quote!(#slice::kind_of(&#var)));
                }
            }
        } else {
            values.push(known_value(k));
            let kind = known_kind(k, item.expr.span())?;
            kinds.push(quote!(::core::marker::PhantomData::<#kind>));
        }
    }
    let mut list = quote!(::core::marker::PhantomData::<::shaped::shape::list::Nil>);
    for kind in kinds.iter().rev() {
        list = quote!(#slice::cons(#kind, #list));
    }
    let n = values.len();
    // The kinds borrow the runtime items, so they come before the values
    // that consume them.
    Ok(quote!({
        #(#lets)*
        let __shaped_kinds = #list;
        #slice::SliceSpec::<_, #n>::new([#(#values),*], __shaped_kinds)
    }))
}

/// `s_kinds![..]`: the type-level list of kinds of literal items.
pub fn expand_kinds(items: Items) -> syn::Result<TokenStream2> {
    let known: Vec<Known> = items.0.iter().map(classify).collect::<syn::Result<_>>()?;
    check_ellipses(&known)?;
    let mut list = quote!(::shaped::shape::list::Nil);
    for (item, k) in items.0.iter().zip(&known).rev() {
        if let Known::Runtime = k {
            return Err(syn::Error::new(
                item.expr.span(),
                "s_kinds! takes literal items only: integers, literal ranges, `NewAxis`, `Ellipsis`",
            ));
        }
        let kind = known_kind(k, item.expr.span())?;
        list = quote!(::shaped::shape::list::Cons<#kind, #list>);
    }
    Ok(list)
}
