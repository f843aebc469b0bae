//! An account's default bundle selection, for the operator.

use maud::{Markup, html};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::OrganisationId;
use tonne_ordering::{Bundle, BundleId};

use super::frame::page_in;
use super::organisations::selection_text;

/// What the selection form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct SelectionForm {
    /// `(bundle id, percentage)` as typed.
    pub typed: Vec<(String, String)>,
    pub problem: Option<String>,
}

/// The account's selection in force and the form to set its own.
pub fn selection(
    who: &Principal,
    organisation: OrganisationId,
    account: &Account,
    shares: &[(BundleId, u32)],
    bundles: &[Bundle],
    form: &SelectionForm,
) -> Markup {
    let value = |b: &Bundle| -> String {
        if let Some((_, v)) = form.typed.iter().find(|(id, _)| *id == b.id.to_string()) {
            return v.clone();
        }
        shares
            .iter()
            .find(|(id, _)| *id == b.id)
            .map(|(_, s)| {
                rust_decimal::Decimal::new(i64::from(*s), 2)
                    .normalize()
                    .to_string()
            })
            .unwrap_or_default()
    };
    let here = format!(
        "/console/organisations/{organisation}/accounts/{}",
        account.id
    );
    page_in(
        who,
        "Organisations",
        &format!(
            "Default selection of {} ({})",
            account.name.as_str(),
            account.mode.as_str()
        ),
        form.problem.as_deref(),
        html! {
            p { "In force now: " (selection_text(shares, bundles)) "." }
            form method="post" action=(here) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                fieldset {
                    legend { "Percentage per bundle (they add up to 100; blank leaves a bundle out)" }
                    div class="filters" {
                        @for b in bundles.iter().filter(|b| !b.disabled) {
                            div class="field" {
                                label for=(format!("share-{}", b.id)) { (b.name) " (%)" }
                                input type="text" id=(format!("share-{}", b.id)) name=(format!("share_{}", b.id))
                                    value=(value(b)) inputmode="decimal" autocomplete="off";
                            }
                        }
                    }
                }
                button type="submit" { "Save selection" }
            }
            form method="post" action=(here) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="default" value="true";
                p { "Or drop the account's own selection (and any bundle portfolio it follows): orders then use the catalogue's default." }
                button type="submit" { "Use the default" }
            }
            p { a href=(format!("/console/organisations/{organisation}")) { "Back to the organisation" } }
        },
    )
}
