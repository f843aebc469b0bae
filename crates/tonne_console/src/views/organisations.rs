//! The operator's organisations.

use maud::{Markup, html};
use tonne_accounts::users::{Principal, User};
use tonne_accounts::{Account, AccountScope, ApiKey, Bootstrapped, Organisation};
use tonne_kernel::OrganisationId;
use tonne_ordering::{Bundle, BundleId};

use super::dates::when;
use super::frame::{page, page_in};
use super::table::{Col, table};

/// An organisation's accounts, the selection in force for each (same
/// order), and the catalogue's bundles (to name them).
pub struct OrganisationAccounts<'a> {
    pub accounts: &'a [Account],
    pub selections: &'a [Vec<(BundleId, u32)>],
    pub bundles: &'a [Bundle],
}

/// `Forest Protection 60 %, Biochar 40 %`.
pub(super) fn selection_text(shares: &[(BundleId, u32)], bundles: &[Bundle]) -> String {
    if shares.is_empty() {
        return "none (no bundle on sale)".to_owned();
    }
    shares
        .iter()
        .map(|(id, share)| {
            let name = bundles
                .iter()
                .find(|b| b.id == *id)
                .map_or_else(|| id.to_string(), |b| b.name.clone());
            let pct = rust_decimal::Decimal::new(i64::from(*share), 2).normalize();
            format!("{name} {pct} %")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the creation form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct NewOrganisationForm {
    pub name: String,
    pub problem: Option<String>,
}

/// What the invitation form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct InviteForm {
    pub email: String,
    pub problem: Option<String>,
}

/// Every organisation, oldest first, and the creation form.
pub fn organisations(
    who: &Principal,
    organisations: &[Organisation],
    next: Option<&str>,
    form: &NewOrganisationForm,
) -> Markup {
    page(
        who,
        "Organisations",
        None,
        html! {
            (table(Some("Organisations, oldest first"), &[
                Col::Text("Name"), Col::Text("Id"),
                Col::Text("Type"), Col::Text("Created"),
            ], html! {
                @for o in organisations {
                    tr {
                        td { a href=(format!("/console/organisations/{}", o.id)) { (o.name) } }
                        td { (o.id) }
                        td { (o.organisation_type.as_str()) }
                        td { (when(o.created_at)) }
                    }
                }
            }))
            @if let Some(after) = next {
                p { a href=(format!("/console/organisations?after={after}")) rel="next" { "More organisations" } }
            }
            h2 { "Create an organisation" }
            form method="post" action="/console/organisations" {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="once" value=(super::controls::once_key());
                @if let Some(p) = &form.problem { p class="error" role="alert" { (p) } }
                div class="field" {
                    label for="name" { "Name" }
                    p class="hint" id="name-hint" { "Also the name of its first live/test account pair. It gets one API key per mode, shown once." }
                    input type="text" id="name" name="name" value=(form.name) required aria-describedby="name-hint";
                }
                button type="submit" { "Create organisation" }
            }
        },
    )
}

/// Right after creating an organisation: its two keys, shown once.
pub fn created_organisation(who: &Principal, name: &str, created: &Bootstrapped) -> Markup {
    page_in(
        who,
        "Organisations",
        &format!("Organisation {name} created"),
        None,
        html! {
            p class="notice" { "Copy the keys now: they are not shown again. Only their hashes are stored." }
            div class="field" {
                label for="live-key" { "Live API key (account " (created.live.account_id) ")" }
                input type="text" id="live-key" readonly value=(created.live.api_key.expose()) spellcheck="false" autocomplete="off";
            }
            div class="field" {
                label for="test-key" { "Test API key (account " (created.test.account_id) ")" }
                input type="text" id="test-key" readonly value=(created.test.api_key.expose()) spellcheck="false" autocomplete="off";
            }
            p { a href=(format!("/console/organisations/{}", created.organisation_id)) { "Go to the organisation" } }
        },
    )
}

/// One organisation: its members, its keys and the invitation form.
pub fn organisation(
    who: &Principal,
    organisation: &Organisation,
    members: &[User],
    keys: &[ApiKey],
    listed: &OrganisationAccounts<'_>,
    form: &InviteForm,
) -> Markup {
    page_in(
        who,
        "Organisations",
        &organisation.name,
        None,
        html! {
            dl class="summary" {
                dt { "Id" } dd { (organisation.id) }
                dt { "Type" } dd { (organisation.organisation_type.as_str()) }
                dt { "Created" } dd { (when(organisation.created_at)) }
            }
            h2 { "Accounts and default selections" }
            p { "What an order naming no bundles is split by: the account's own selection, else the bundle portfolio it follows, else the catalogue's default." }
            (table(None, &[
                Col::Text("Account"), Col::Text("Mode"), Col::Text("Kind"),
                Col::Text("Selection in force"), Col::Text("Change"),
            ], html! {
                @for (a, shares) in listed.accounts.iter().zip(listed.selections) {
                    tr {
                        td { (a.name.as_str()) br; span class="hint" { (a.id) } }
                        td { (a.mode.as_str()) }
                        td { @if a.scope == AccountScope::ClientAccount { "client account" } @else { "account" } }
                        td { (selection_text(shares, listed.bundles)) }
                        td { a href=(format!("/console/organisations/{}/accounts/{}", organisation.id, a.id)) {
                            "Change" span class="visually-hidden" { " the selection of " (a.name.as_str()) " (" (a.mode.as_str()) ")" } } }
                    }
                }
            }))
            h2 { "Members" }
            @if members.is_empty() {
                p { "No member yet." }
            } @else {
                (table(None, &[
                    Col::Text("Email"), Col::Text("State"), Col::Text("Since"),
                ], html! {
                    @for m in members {
                        tr {
                            td { (m.email) }
                            td {
                                @if m.disabled_at.is_some() { "disabled" }
                                @else if m.password_hash.is_none() { "invited (no password yet)" }
                                @else { "active" }
                            }
                            td { (when(m.created_at)) }
                        }
                    }
                }))
            }
            form method="post" action=(format!("/console/organisations/{}/members", organisation.id)) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                @if let Some(p) = &form.problem { p class="error" role="alert" { (p) } }
                div class="field" {
                    label for="email" { "Invite a member: email" }
                    input type="email" id="email" name="email" value=(form.email) required autocomplete="off";
                }
                button type="submit" { "Invite member" }
            }
            h2 { "API keys" }
            @if keys.is_empty() {
                p { "No key." }
            } @else {
                (table(None, &[
                    Col::Text("Key"), Col::Text("Mode"), Col::Text("Account"),
                    Col::Text("Created"), Col::Text("State"),
                ], html! {
                    @for k in keys {
                        tr {
                            td { code { (k.display_prefix) "…" } }
                            td { (k.mode.as_str()) }
                            td { (k.account_id) }
                            td { (when(k.created_at)) }
                            td { @if k.revoked_at.is_some() { "revoked" } @else { "active" } }
                        }
                    }
                }))
            }
            p { a href="/console/organisations" { "Back to the organisations" } }
        },
    )
}

/// Right after an invitation: the one-time link to hand to the new member.
pub fn invited(
    who: &Principal,
    organisation: OrganisationId,
    user: &User,
    link: Option<&str>,
) -> Markup {
    page_in(
        who,
        "Organisations",
        "Member invited",
        None,
        html! {
            p { (user.email) " is a member now." }
            @if let Some(link) = link {
                p class="notice" { "Send this link to them; it is shown once and works for 24 hours, once." }
                div class="field" {
                    label for="link" { "Link to choose a password" }
                    input type="text" id="link" readonly value=(link) spellcheck="false" autocomplete="off";
                }
            }
            p { a href=(format!("/console/organisations/{organisation}")) { "Back to the organisation" } }
        },
    )
}
