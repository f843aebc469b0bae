//! The operator's webhooks: every webhook of the installation with its
//! health, and one webhook's page with its actions.

use maud::{Markup, html};
use time::OffsetDateTime;
use tonne_accounts::users::Principal;
use tonne_webhooks::{Attempt, WebhookHealth};

use super::dates::when;
use super::frame::page;
use super::table::{Col, table};
use super::webhooks::{ReplayForm, replay_form, summary, webhook_page};

/// How long ago, in the largest whole unit (`3 h`, `2 d`).
fn age(since: OffsetDateTime, now: OffsetDateTime) -> String {
    let secs = (now - since).whole_seconds().max(0);
    match secs {
        s if s < 120 => format!("{s} s"),
        s if s < 7_200 => format!("{} min", s / 60),
        s if s < 172_800 => format!("{} h", s / 3_600),
        s => format!("{} d", s / 86_400),
    }
}

fn state(h: &WebhookHealth) -> &'static str {
    if !h.webhook.enabled {
        "disabled"
    } else if h.failing_streams > 0 {
        "failing"
    } else {
        "healthy"
    }
}

/// Every webhook, by id, with its health.
pub fn installation_webhooks(
    who: &Principal,
    hooks: &[WebhookHealth],
    next: Option<&str>,
    now: OffsetDateTime,
) -> Markup {
    page(
        who,
        "Webhooks",
        None,
        html! {
            p { "Every webhook of the installation: whether its receiver answers, how far behind it is, and whether it was disabled." }
            @if hooks.is_empty() {
                p { "No webhook is registered." }
            } @else {
                (table(Some("Webhooks and their health"), &[
                    Col::Text("Webhook"), Col::Text("Organisation"),
                    Col::Text("State"), Col::Text("Last success"),
                    Col::Num("Failing streams"),
                    Col::Text("Oldest undelivered"),
                ], html! {
                    @for h in hooks {
                        tr {
                            td { a href=(format!("/console/webhooks/{}", h.webhook.id)) { (h.webhook.url.as_str()) }
                                br; span class="hint" { (h.webhook.mode.as_str()) } }
                            td { a href=(format!("/console/organisations/{}", h.webhook.organisation_id)) { (h.webhook.organisation_id) } }
                            td class="status" { (state(h)) }
                            td { @if let Some(at) = h.last_success { (when(at)) } @else { "never" } }
                            td class="num" { (h.failing_streams) }
                            td { @if let Some(at) = h.oldest_undelivered { (age(at, now)) " old" } @else { "none" } }
                        }
                    }
                }))
            }
            @if let Some(after) = next {
                p { a href=(format!("/console/webhooks?after={after}")) rel="next" { "More webhooks" } }
            }
        },
    )
}

/// What the operator's page says after an action.
#[derive(Debug, Default, Clone)]
pub struct OperatorNotice {
    pub skipped: Option<u64>,
    pub enabled: bool,
}

/// One webhook for the operator: health, replay, skip, re-enable, attempts.
pub fn installation_webhook(
    who: &Principal,
    h: &WebhookHealth,
    attempts: &[Attempt],
    next: Option<&str>,
    form: &ReplayForm,
    notice: &OperatorNotice,
    now: OffsetDateTime,
) -> Markup {
    let hook = &h.webhook;
    webhook_page(
        who,
        form,
        html! {
            @if let Some(n) = notice.skipped {
                p class="notice" role="status" { (n) " undelivered events were skipped." }
            }
            @if notice.enabled {
                p class="notice" role="status" { "The webhook is enabled; its streams resume where they stopped." }
            }
            dl class="summary" {
                (summary(hook))
                dt { "Organisation" } dd { a href=(format!("/console/organisations/{}", hook.organisation_id)) { (hook.organisation_id) } }
                dt { "Last success" } dd { @if let Some(at) = h.last_success { (when(at)) } @else { "never" } }
                dt { "Failing streams" } dd { (h.failing_streams) }
                dt { "Oldest undelivered event" } dd { @if let Some(at) = h.oldest_undelivered { (age(at, now)) " old (" (when(at)) ")" } @else { "none" } }
            }
            @if !hook.enabled {
                h2 { "Re-enable" }
                form method="post" action=(format!("/console/webhooks/{}/enable", hook.id)) {
                    input type="hidden" name="csrf" value=(who.session.csrf_token);
                    p { "Deliveries resume where each stream stopped; nothing is lost." }
                    button type="submit" { "Re-enable webhook" }
                }
            }
            (replay_form(who, hook, form, false))
            h2 { "Skip the backlog" }
            form method="post" action=(format!("/console/webhooks/{}/skip", hook.id)) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="once" value=(super::controls::once_key());
                p { "Marks every undelivered event as delivered without sending it: the receiver will only get new events. Replay can send them later." }
                button type="submit" { "Skip undelivered events" }
            }
        },
        attempts,
        next.map(|after| format!("/console/webhooks/{}?after={after}", hook.id)),
        "/console/webhooks",
    )
}

#[cfg(test)]
mod tests {
    use super::age;
    use time::macros::datetime;

    #[test]
    fn ages_use_the_largest_whole_unit() {
        let now = datetime!(2026-11-25 12:00 UTC);
        assert_eq!(age(now - time::Duration::seconds(30), now), "30 s");
        assert_eq!(age(now - time::Duration::minutes(90), now), "90 min");
        assert_eq!(age(now - time::Duration::hours(5), now), "5 h");
        assert_eq!(age(now - time::Duration::days(3), now), "3 d");
        assert_eq!(age(now + time::Duration::days(3), now), "0 s");
    }
}
