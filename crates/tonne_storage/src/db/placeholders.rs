//! The one rewrite of a raw statement's bound parameters for SQLite: the
//! text is written once with PostgreSQL's `$1`, `$2`, … and SQLite gets `?`.

/// `sql` with every `$N` placeholder written `?`. SQLite binds `?` by
/// position, so each placeholder must appear once, in the order of its binds.
pub(crate) fn sqlite_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.next_if(char::is_ascii_digit).is_some() {}
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sqlite_placeholders;

    #[test]
    fn numbered_placeholders_become_question_marks() {
        assert_eq!(
            sqlite_placeholders("SELECT a FROM t WHERE b = $1 AND c >= $2 LIMIT $10"),
            "SELECT a FROM t WHERE b = ? AND c >= ? LIMIT ?"
        );
    }

    #[test]
    fn text_without_placeholders_is_kept() {
        assert_eq!(
            sqlite_placeholders("SELECT '$' || name, price$ FROM t"),
            "SELECT '$' || name, price$ FROM t"
        );
    }
}
