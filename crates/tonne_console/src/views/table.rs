//! The console's tables: each in a wrapper that scrolls sideways on a narrow
//! screen, with a caption (a hint above it) or none, and a heading per column.

use maud::{Markup, html};

/// A column's heading.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Col<'a> {
    /// A column of text.
    Text(&'a str),
    /// A column of numbers, aligned to the right.
    Num(&'a str),
    /// A column of actions, its heading for screen readers only.
    Hidden(&'a str),
}

/// A table of `rows` (its `tr`s) under the `columns`' headings.
pub(crate) fn table(caption: Option<&str>, columns: &[Col<'_>], rows: Markup) -> Markup {
    html! {
        div class="table-wrap" {
            table {
                @if let Some(text) = caption { caption class="hint" { (text) } }
                thead { tr {
                    @for column in columns {
                        @match column {
                            Col::Text(text) => { th scope="col" { (text) } }
                            Col::Num(text) => { th scope="col" class="num" { (text) } }
                            Col::Hidden(text) => { th scope="col" { span class="visually-hidden" { (text) } } }
                        }
                    }
                } }
                tbody { (rows) }
            }
        }
    }
}
