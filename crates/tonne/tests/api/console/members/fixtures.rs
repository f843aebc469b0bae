//! Reading what the console's pages show once.

/// The value of the read-only `secret` field of the created-key page.
pub(super) fn shown_secret(html: &str) -> String {
    let at = html.find(r#"id="secret""#).expect("the secret field");
    let rest = &html[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_owned()
}
