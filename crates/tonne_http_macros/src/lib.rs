//! `#[request]`: the one strict-field rule of Tonne's request bodies.
//!
//! The contracts mark no request field nullable except where a `PATCH` clears a
//! value, so a request body's field is one of three things, and its Rust type
//! says which:
//!
//! | type                | absent        | `null`         | a value            |
//! |---------------------|---------------|----------------|--------------------|
//! | `T`                 | 400 (missing) | 400            | `v`                |
//! | `Option<T>`         | `None`        | 400            | `Some(v)`          |
//! | `Option<Option<T>>` | `None`        | `Some(None)`   | `Some(Some(v))`    |
//!
//! and a field the type does not name is 400 (`deny_unknown_fields`). Put the
//! attribute above `#[derive(Deserialize)]`:
//!
//! ```ignore
//! #[tonne_http_macros::request]
//! #[derive(Debug, serde::Deserialize)]
//! pub struct AccountPatch {
//!     name: Option<String>,                // may be left out, never null
//!     beneficiary: Option<Option<String>>, // null clears it
//! }
//! ```
//!
//! The attribute adds `#[serde(deny_unknown_fields)]` to the type and, to each
//! `Option` field, `#[serde(default, deserialize_with = "…")]` naming
//! `crate::extract::non_null` or `crate::extract::nullable`, so it is meant for
//! `tonne_http` (whose `extract` module defines both). A field that already names
//! its own `deserialize_with` or `with` is left as written. Enums get only
//! `deny_unknown_fields` where serde allows it (not on untagged ones).

use proc_macro::TokenStream;
use quote::quote;
use syn::{
    Attribute, Data, DeriveInput, Fields, GenericArgument, PathArguments, Type, parse_macro_input,
    parse_quote,
};

/// Marks a request body: unknown fields refused, `Option` fields absent-but-not-null,
/// `Option<Option<_>>` fields nullable. See the crate documentation.
#[proc_macro_attribute]
pub fn request(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "#[request] takes no arguments",
        )
        .to_compile_error()
        .into();
    }
    let mut input = parse_macro_input!(item as DeriveInput);
    let untagged = input.attrs.iter().any(|a| mentions(a, "untagged"));
    if !untagged
        && !input
            .attrs
            .iter()
            .any(|a| mentions(a, "deny_unknown_fields"))
    {
        input
            .attrs
            .push(parse_quote!(#[serde(deny_unknown_fields)]));
    }
    match &mut input.data {
        Data::Struct(s) => mark_fields(&mut s.fields),
        Data::Enum(e) => e
            .variants
            .iter_mut()
            .for_each(|v| mark_fields(&mut v.fields)),
        Data::Union(_) => {
            return syn::Error::new_spanned(&input.ident, "#[request] is for structs and enums")
                .to_compile_error()
                .into();
        }
    }
    quote!(#input).into()
}

fn mark_fields(fields: &mut Fields) {
    let Fields::Named(named) = fields else { return };
    for field in &mut named.named {
        if field
            .attrs
            .iter()
            .any(|a| mentions(a, "deserialize_with") || mentions(a, "with"))
        {
            continue;
        }
        let Some(inner) = option_of(&field.ty) else {
            continue;
        };
        let attr: Attribute = if option_of(inner).is_some() {
            parse_quote!(#[serde(default, deserialize_with = "crate::extract::nullable")])
        } else {
            parse_quote!(#[serde(default, deserialize_with = "crate::extract::non_null")])
        };
        field.attrs.push(attr);
    }
}

/// `T` of `Option<T>` (also `std::option::Option<T>`), else `None`.
fn option_of(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// Whether a `#[serde(...)]` attribute names `word` (as a key or a flag).
fn mentions(attr: &Attribute, word: &str) -> bool {
    if !attr.path().is_ident("serde") {
        return false;
    }
    let mut found = false;
    let _ = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(word) {
            found = true;
        }
        // Skip the value of `key = value`, if any.
        if meta.input.peek(syn::Token![=]) {
            let _: syn::Lit = meta.value()?.parse()?;
        } else if meta.input.peek(syn::token::Paren) {
            let _content;
            syn::parenthesized!(_content in meta.input);
        }
        Ok(())
    });
    found
}
