//! Procedural macros of `shaped`. Use them through `shaped` (`shaped::shape!`,
//! `shaped::tensor!`); this crate is an implementation detail.

mod slice;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprArray, LitInt, LitStr, Token, Type};

/// The most dimensions a static shape may have (`DynShape` has no limit).
const MAX_STATIC_RANK: usize = 8;
/// Digits of a static size (`shaped::shape::MAX_DIGITS`).
const MAX_DIGITS: usize = 10;

enum ShapeEntry {
    Size(LitInt),
    Type(Box<Type>),
}

impl Parse for ShapeEntry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitInt) {
            Ok(ShapeEntry::Size(input.parse()?))
        } else {
            Ok(ShapeEntry::Type(Box::new(input.parse()?)))
        }
    }
}

struct ShapeList(Punctuated<ShapeEntry, Token![,]>);

impl Parse for ShapeList {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(ShapeList(Punctuated::parse_terminated(input)?))
    }
}

/// The decimal type of a size: `224` becomes `Dec<2, 2, 4>`.
fn dec_type(value: u128, span: Span) -> syn::Result<TokenStream2> {
    let digits: Vec<u8> = value.to_string().bytes().map(|b| b - b'0').collect();
    if digits.len() > MAX_DIGITS {
        return Err(syn::Error::new(
            span,
            format!(
                "a static size has at most {MAX_DIGITS} digits (9999999999); \
                 use `Dyn` for a larger size"
            ),
        ));
    }
    Ok(quote!(::shaped::shape::Dec<#(#digits),*>))
}

/// `shape![3, 224, 224]`, `shape![Dyn, 3]`, `shape![]`: see `shaped::shape!`.
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    let list = syn::parse_macro_input!(input as ShapeList);
    match shape_type(list) {
        Ok(tokens) => tokens.into(),
        Err(err) => err.to_compile_error().into(),
    }
}

fn shape_type(list: ShapeList) -> syn::Result<TokenStream2> {
    if list.0.len() > MAX_STATIC_RANK {
        return Err(syn::Error::new(
            Span::call_site(),
            format!(
                "a static shape has at most {MAX_STATIC_RANK} dimensions; use `DynShape` for more"
            ),
        ));
    }
    let mut dims = Vec::new();
    for entry in list.0 {
        dims.push(match entry {
            ShapeEntry::Size(lit) => {
                if !lit.suffix().is_empty() && lit.suffix() != "usize" {
                    return Err(syn::Error::new(
                        lit.span(),
                        "a size is a plain integer (optionally `usize`)",
                    ));
                }
                let value: u128 = lit.base10_parse()?;
                dec_type(value, lit.span())?
            }
            ShapeEntry::Type(ty) => {
                let is_dyn =
                    matches!(&*ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("Dyn"));
                if is_dyn {
                    quote!(::shaped::shape::Dyn)
                } else {
                    quote!(#ty)
                }
            }
        });
    }
    Ok(quote!((#(#dims,)*)))
}

/// A nested array literal: its shape and its elements in row-major order.
fn flatten_literal(
    elems: &Punctuated<Expr, Token![,]>,
    shape: &mut Vec<usize>,
    depth: usize,
    flat: &mut Vec<Expr>,
    span: Span,
) -> syn::Result<()> {
    let nested = elems.iter().all(|e| matches!(e, Expr::Array(_)));
    let any_nested = elems.iter().any(|e| matches!(e, Expr::Array(_)));
    if any_nested && !nested {
        return Err(syn::Error::new(
            span,
            "tensor!: mixes nested lists and elements at one level",
        ));
    }
    if shape.len() == depth {
        shape.push(elems.len());
    } else if shape[depth] != elems.len() {
        return Err(syn::Error::new(
            span,
            format!(
                "tensor!: ragged literal: expected {} entries at depth {depth}, found {}",
                shape[depth],
                elems.len()
            ),
        ));
    }
    if nested && !elems.is_empty() {
        for e in elems {
            let Expr::Array(ExprArray { elems: inner, .. }) = e else {
                unreachable!()
            };
            flatten_literal(
                inner,
                shape,
                depth + 1,
                flat,
                syn::spanned::Spanned::span(e),
            )?;
        }
    } else if !nested || elems.is_empty() {
        if shape.len() > depth + 1 {
            return Err(syn::Error::new(span, "tensor!: ragged literal"));
        }
        flat.extend(elems.iter().cloned());
    }
    Ok(())
}

struct TensorLiteral(Punctuated<Expr, Token![,]>);

impl Parse for TensorLiteral {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(TensorLiteral(Punctuated::parse_terminated(input)?))
    }
}

/// `tensor![[1.0, 2.0], [3.0, 4.0]]`: see `shaped::tensor!`.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    let lit = syn::parse_macro_input!(input as TensorLiteral);
    let mut shape = Vec::new();
    let mut flat = Vec::new();
    if let Err(err) = flatten_literal(&lit.0, &mut shape, 0, &mut flat, Span::call_site()) {
        return err.to_compile_error().into();
    }
    if shape.len() > MAX_STATIC_RANK {
        return syn::Error::new(
            Span::call_site(),
            format!("tensor!: a static shape has at most {MAX_STATIC_RANK} dimensions"),
        )
        .to_compile_error()
        .into();
    }
    let dims: Vec<TokenStream2> = shape
        .iter()
        .map(|&n| dec_type(n as u128, Span::call_site()).expect("literal sizes fit"))
        .collect();
    quote!(::shaped::Tensor::<_, (#(#dims,)*)>::__from_literal([#(#flat),*])).into()
}

/// Input of [`size_mismatch_diagnostic`].
struct Diagnostic {
    family: syn::Ident,
    message: LitStr,
    label: LitStr,
    note: Option<LitStr>,
}

impl Parse for Diagnostic {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut family = None;
        let mut message = None;
        let mut label = None;
        let mut note = None;
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![:]>()?;
            match key.to_string().as_str() {
                "family" => family = Some(input.parse()?),
                "message" => message = Some(input.parse()?),
                "label" => label = Some(input.parse()?),
                "note" => note = Some(input.parse()?),
                _ => return Err(syn::Error::new(key.span(), "unknown key")),
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        let missing = |what| syn::Error::new(Span::call_site(), format!("missing `{what}`"));
        Ok(Diagnostic {
            family: family.ok_or_else(|| missing("family"))?,
            message: message.ok_or_else(|| missing("message"))?,
            label: label.ok_or_else(|| missing("label"))?,
            note,
        })
    }
}

/// Internal: defines a family of traits that report two sizes and a
/// dimension index as plain decimal numbers in a compile error.
///
/// rustc prints const generic arguments in `on_unimplemented` messages as
/// numbers, so each pair of digit counts gets one message trait whose const
/// parameters are the digits; `{a}`, `{b}` and `{i}` in the texts become
/// those digits. The family trait `F<LenA, LenB>` is implemented for
/// `(Dec<a..>, Dec<b..>, Dec<i>)` once per pair of digit counts, requiring the
/// matching message trait, which nothing implements.
#[doc(hidden)]
#[proc_macro]
pub fn size_mismatch_diagnostic(input: TokenStream) -> TokenStream {
    let diag = syn::parse_macro_input!(input as Diagnostic);
    let family = &diag.family;
    let dec = quote!(crate::shape::Dec);
    let all_a: Vec<_> = (0..MAX_DIGITS).map(|k| format_ident!("A{k}")).collect();
    let all_b: Vec<_> = (0..MAX_DIGITS).map(|k| format_ident!("B{k}")).collect();
    let mut out = quote! {
        #[doc(hidden)]
        pub trait #family<LenA, LenB> {}
    };
    for la in 1..=MAX_DIGITS {
        for lb in 1..=MAX_DIGITS {
            let a = &all_a[..la];
            let b = &all_b[..lb];
            let fmt = |s: &LitStr| {
                let a_digits: String = a.iter().map(|d| format!("{{{d}}}")).collect();
                let b_digits: String = b.iter().map(|d| format!("{{{d}}}")).collect();
                LitStr::new(
                    &s.value()
                        .replace("{a}", &a_digits)
                        .replace("{b}", &b_digits)
                        .replace("{i}", "{I}"),
                    s.span(),
                )
            };
            let message = fmt(&diag.message);
            let label = fmt(&diag.label);
            let note = diag.note.as_ref().map(|n| {
                let n = fmt(n);
                quote!(, note = #n)
            });
            let name = format_ident!("{}_{}_{}", family, la, lb);
            let len_a = dec_digits(la);
            let len_b = dec_digits(lb);
            out.extend(quote! {
                #[doc(hidden)]
                #[allow(non_camel_case_types)]
                #[diagnostic::on_unimplemented(message = #message, label = #label #note)]
                pub trait #name<#(const #a: u8,)* #(const #b: u8,)* const I: u8> {}

                impl<#(const #all_a: u8,)* #(const #all_b: u8,)* const I: u8>
                    #family<#dec<#len_a>, #dec<#len_b>>
                    for (#dec<#(#all_a),*>, #dec<#(#all_b),*>, #dec<I>)
                where
                    (): #name<#(#a,)* #(#b,)* I>
                {
                }
            });
        }
    }
    out.into()
}

/// The digits of a small count, as `Dec` arguments.
fn dec_digits(n: usize) -> TokenStream2 {
    let digits: Vec<u8> = n.to_string().bytes().map(|b| b - b'0').collect();
    quote!(#(#digits),*)
}

/// Internal: the per-rank impls of the axis traits of `shaped::shape::axes`
/// (`At`, `AtDec`, `Replace`, `Remove`, `Insert`) for tuple shapes of rank 0
/// to 8. Generated because each rank and position needs its own impl.
#[doc(hidden)]
#[proc_macro]
pub fn tuple_axis_impls(_input: TokenStream) -> TokenStream {
    let dec = quote!(crate::shape::Dec);
    let mut out = TokenStream2::new();
    for n in 0..=MAX_STATIC_RANK {
        let ts: Vec<_> = (0..n).map(|k| format_ident!("T{k}")).collect();
        for i in 0..n {
            let ti = &ts[i];
            let di = dec_digits(i);
            let replaced: Vec<TokenStream2> = ts
                .iter()
                .enumerate()
                .map(|(k, t)| if k == i { quote!(X) } else { quote!(#t) })
                .collect();
            let removed: Vec<&syn::Ident> = ts
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, t)| t)
                .collect();
            out.extend(quote! {
                impl<#(#ts),*> At<#i> for (#(#ts,)*) { type Output = #ti; }
                impl<#(#ts),*> AtDec<#dec<#di>> for (#(#ts,)*) { type Output = #ti; }
                impl<#(#ts,)* X> Replace<#i, X> for (#(#ts,)*) { type Output = (#(#replaced,)*); }
                impl<#(#ts),*> Remove<#i> for (#(#ts,)*) { type Output = (#(#removed,)*); }
            });
        }
        if n < MAX_STATIC_RANK {
            for i in 0..=n {
                let mut inserted: Vec<TokenStream2> = ts.iter().map(|t| quote!(#t)).collect();
                inserted.insert(i, quote!(X));
                out.extend(quote! {
                    impl<#(#ts,)* X> Insert<#i, X> for (#(#ts,)*) { type Output = (#(#inserted,)*); }
                });
            }
        }
    }
    out.into()
}

/// `s![0, 1..;2, NewAxis]`: see `shaped::s!`.
#[proc_macro]
pub fn s(input: TokenStream) -> TokenStream {
    let items = syn::parse_macro_input!(input as slice::Items);
    match slice::expand(items) {
        Ok(tokens) => tokens.into(),
        Err(err) => err.to_compile_error().into(),
    }
}

/// `s_kinds![0, 1..;2, NewAxis]`: see `shaped::s_kinds!`.
#[proc_macro]
pub fn s_kinds(input: TokenStream) -> TokenStream {
    let items = syn::parse_macro_input!(input as slice::Items);
    match slice::expand_kinds(items) {
        Ok(tokens) => tokens.into(),
        Err(err) => err.to_compile_error().into(),
    }
}

mod ranges;

/// Internal: the per-rank impls of `FlattenRange` and `UnflattenAt` of
/// `shaped::shape::split` for tuple shapes of rank 0 to 8.
#[doc(hidden)]
#[proc_macro]
pub fn tuple_range_impls(_input: TokenStream) -> TokenStream {
    ranges::tuple_range_impls().into()
}

/// Internal: the compile errors of forbidden in-place casts, one per pair of
/// PyTorch dtype names (`result type Float can't be cast to the desired
/// output type Long`). For each ordered pair of distinct names it defines a
/// message trait that nothing implements, and an impl of
/// `ForbiddenCast<names::From, names::To>` for `()` that requires it (through
/// a higher-ranked bound, so the impl itself compiles). Which pairs are
/// forbidden is decided by `shaped::dtype::promote::CastRule`, not here.
#[doc(hidden)]
#[proc_macro]
pub fn cast_messages(input: TokenStream) -> TokenStream {
    let parser = syn::punctuated::Punctuated::<syn::Ident, Token![,]>::parse_terminated;
    let names = match syn::parse::Parser::parse(parser, input) {
        Ok(names) => names.into_iter().collect::<Vec<_>>(),
        Err(err) => return err.to_compile_error().into(),
    };
    let mut out = TokenStream2::new();
    for from in &names {
        for to in &names {
            if from == to {
                continue;
            }
            let message = LitStr::new(
                &format!("result type {from} can't be cast to the desired output type {to}"),
                Span::call_site(),
            );
            let message_trait = format_ident!("Cast{from}To{to}");
            out.extend(quote! {
                #[doc(hidden)]
                #[diagnostic::on_unimplemented(
                    message = #message,
                    label = "the result of this in-place operation cannot be stored in its left-hand side",
                    note = "an in-place result may go into an output of the same or a higher category (bool < integer < floating < complex), and into bool only from bool: compute out of place (`&x * &y`) or `cast::<U>()` an operand first"
                )]
                pub trait #message_trait<L> {}
                impl ForbiddenCast<names::#from, names::#to> for () where for<'a> (): #message_trait<&'a ()> {}
            });
        }
    }
    out.into()
}

/// Internal: `BroadcastTuples` for every pair of tuple shapes of rank 0 to 8
/// (`shaped::shape::broadcast`). Each impl aligns the two shapes at their
/// last dimension and names each aligned pair's rule (`A: BroadcastDim<B>`)
/// and the result index of each pair directly, so the compiler solves one
/// small, shape-independent (and cached) rule per pair instead of walking
/// reversed lists.
#[doc(hidden)]
#[proc_macro]
pub fn broadcast_shape_impls(_input: TokenStream) -> TokenStream {
    let shape = quote!(crate::shape);
    let mut out = TokenStream2::new();
    for rank_a in 0..=MAX_STATIC_RANK {
        for rank_b in 0..=MAX_STATIC_RANK {
            let a: Vec<_> = (0..rank_a).map(|k| format_ident!("A{k}")).collect();
            let b: Vec<_> = (0..rank_b).map(|k| format_ident!("B{k}")).collect();
            let rank = rank_a.max(rank_b);
            let mut dims = Vec::new();
            let mut rules = Vec::new();
            let mut statuses = quote!(#shape::list::Nil);
            for i in 0..rank {
                // Result dimension `i` is `a`'s `i - (rank - rank_a)`, if any.
                let in_a = (i + rank_a).checked_sub(rank).map(|k| &a[k]);
                let in_b = (i + rank_b).checked_sub(rank).map(|k| &b[k]);
                dims.push(match (in_a, in_b) {
                    (Some(x), Some(y)) => {
                        rules.push(quote!(#x: #shape::BroadcastDim<#y>));
                        let index = dec_digits(i);
                        // Built first to last, so the list reads last first.
                        statuses = quote!(#shape::list::Cons<
                            (<#x as #shape::BroadcastDim<#y>>::Status, #shape::Dec<#index>),
                            #statuses,
                        >);
                        quote!(<#x as #shape::BroadcastDim<#y>>::Output)
                    }
                    (Some(x), None) => quote!(#x),
                    (None, Some(y)) => quote!(#y),
                    (None, None) => unreachable!("every result dimension comes from a or b"),
                });
            }
            let checked = (!rules.is_empty()).then(|| quote!(#statuses: #shape::NoClash,));
            out.extend(quote! {
                impl<X, #(#a: #shape::Dim,)* #(#b: #shape::Dim,)*>
                    #shape::BroadcastTuples<(#(#a,)*), (#(#b,)*)> for X
                where
                    #(#rules,)*
                    #checked
                {
                    type Output = (#(#dims,)*);
                }
            });
        }
    }
    out.into()
}
