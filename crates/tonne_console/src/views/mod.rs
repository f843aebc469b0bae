//! The console's HTML (maud: compile-time checked, every value escaped), in
//! the offset-link pages' style plus a navigation bar; no script. One file per
//! section: [`orders`] (the operator's queue), [`keys`], [`webhooks`].

mod audit;
mod catalogue;
mod client_accounts;
mod controls;
mod dates;
mod estimates;
mod frame;
mod impact;
mod installation_webhooks;
mod invoices;
mod keys;
mod limits;
mod offset_links;
mod orders;
mod organisations;
mod overview;
mod pact;
mod selections;
mod shipment;
mod shipment_batches;
mod shipment_figures;
mod shipments;
mod table;
mod webhooks;

pub use audit::{AuditFilterForm, audit_log};
pub use catalogue::{EditForm, ImportOutcome, StockForm, bundle, catalogue};
pub use client_accounts::{ClientAccountForm, client_accounts};
pub use estimates::{estimate, estimates};
pub use impact::{ImpactPage, impact};
pub use installation_webhooks::{OperatorNotice, installation_webhook, installation_webhooks};
pub use invoices::{BillingForm, invoices};
pub use keys::{created_key, keys};
pub use limits::{LimitsForm, limits_overview, organisation_limits};
pub use offset_links::{BundleChoice, LinkForm, LinksPage, offset_link, offset_links};
pub use orders::{QueueFilter, member_orders, order, queue};
pub use organisations::{
    InviteForm, NewOrganisationForm, OrganisationAccounts, created_organisation, invited,
    organisation, organisations,
};
pub use overview::{OperatorOverview, operator_overview};
pub use pact::{created_pact_client, pact_clients};
pub use selections::{SelectionForm, selection};
pub use shipment::shipment;
pub use shipment_batches::{
    SheetProblem, UploadForm, batch as shipment_batch, batches as shipment_batches,
};
pub use shipments::{ShipmentFilterForm, shipments};
pub use webhooks::{
    ReplayForm, TestForm, WebhookForm, WebhookPageForms, webhook, webhook_secret, webhooks,
};

use maud::{Markup, html};
use tonne_accounts::users::{Principal, Role};

pub use frame::{message, message_with_link, page};

pub(crate) use controls::{once_key, url_query};
use frame::frame;

/// The sign-in page.
pub fn sign_in(csrf: &str, email: &str, error: Option<&str>) -> Markup {
    frame(
        "Sign in",
        None,
        html! {
            h1 { "Sign in to the Tonne console" }
            @if let Some(e) = error { p class="error" role="alert" { (e) } }
            form method="post" action="/console/sign-in" {
                input type="hidden" name="csrf" value=(csrf);
                div class="field" {
                    label for="email" { "Email" }
                    input type="email" id="email" name="email" value=(email) autocomplete="username" required;
                }
                div class="field" {
                    label for="password" { "Password" }
                    input type="password" id="password" name="password" autocomplete="current-password" required;
                }
                button type="submit" { "Sign in" }
            }
        },
    )
}

/// The page of a setup link: choose a password.
pub fn setup(token: &str, error: Option<&str>) -> Markup {
    frame(
        "Choose a password",
        None,
        html! {
            h1 { "Choose a password" }
            form method="post" action=(format!("/console/setup/{token}")) {
                div class="field" {
                    label for="password" { "New password" }
                    p class="hint" id="password-hint" {
                        "At least 12 characters, and not a common or easily guessed password "
                        "(several unrelated words work well)."
                    }
                    @if let Some(e) = error { p class="error" role="alert" id="password-error" { (e) } }
                    input type="password" id="password" name="password" autocomplete="new-password"
                        aria-describedby=(if error.is_some() { "password-hint password-error" } else { "password-hint" })
                        required minlength="12" maxlength="128";
                }
                div class="field" {
                    label for="confirm" { "New password again" }
                    input type="password" id="confirm" name="confirm" autocomplete="new-password" required;
                }
                button type="submit" { "Set password" }
            }
        },
    )
}

/// The overview (so far: who you are and where to go).
pub fn overview(who: &Principal) -> Markup {
    let role = match who.user.role {
        Role::Operator => "an operator of this installation".to_owned(),
        Role::Member(o) => format!("a member of organisation {o}"),
    };
    page(
        who,
        "Overview",
        None,
        html! {
            p { "Signed in as " (who.user.email) ", " (role) "." }
            @if who.user.role == Role::Operator {
                p { a href="/console/orders" { "Live orders waiting for action" } }
            } @else {
                ul {
                    li { a href="/console/orders" { "Orders" } ", live and test, with their certificates" }
                    li { a href="/console/estimates" { "Estimates" } " and how each was worked out" }
                    li { a href="/console/shipments" { "Shipments" } ", their legs' emissions, and data-sheet uploads" }
                    li { a href="/console/client-accounts" { "Client accounts" } " for your own customers" }
                    li { a href="/console/offset-links" { "Offset links" } " and their visitors" }
                    li { a href="/console/impact" { "Impact" } ": analytics and the sustainability page" }
                    li { a href="/console/webhooks" { "Webhooks" } ", their delivery logs and test events" }
                    li { a href="/console/keys" { "API keys" } }
                    li { a href="/console/pact" { "PACT credentials" } ": another system reads your shipments' footprints" }
                }
            }
        },
    )
}
