//! A member's webhooks: the list, and one webhook's delivery log and replay.

use maud::{Markup, html};
use tonne_accounts::users::Principal;
use tonne_kernel::AccountMode;
use tonne_webhooks::{Attempt, AttemptOutcome, Webhook};

use super::{mode_switch, page_in, when};

/// What the replay form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct ReplayForm {
    pub since: String,
    pub account: String,
    pub problem: Option<String>,
    pub recovered: Option<u64>,
}

/// The organisation's webhooks of one mode.
pub fn webhooks(who: &Principal, mode: AccountMode, hooks: &[Webhook]) -> Markup {
    page_in(
        who,
        "Webhooks",
        &format!("Webhooks ({})", mode.as_str()),
        None,
        html! {
            (mode_switch("/console/webhooks", mode))
            @if hooks.is_empty() {
                p { "No webhook in this mode. Create one with the API (" code { "POST /v1/webhooks" } ")." }
            } @else {
                div class="table-wrap" {
                    table {
                        thead { tr {
                            th scope="col" { "URL" } th scope="col" { "State" } th scope="col" { "Accounts" }
                        } }
                        tbody {
                            @for h in hooks {
                                tr {
                                    td { a href=(format!("/console/webhooks/{}?mode={}", h.id, mode.as_str())) { (h.url.as_str()) } }
                                    td {
                                        @if h.enabled { "enabled" } @else {
                                            "disabled"
                                            @if let Some(r) = &h.disabled_reason { ": " (r) }
                                        }
                                    }
                                    td {
                                        @match &h.account_ids {
                                            None => "all",
                                            Some(ids) => (ids.len()),
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        },
    )
}

fn outcome(a: &Attempt) -> &'static str {
    match a.outcome {
        AttemptOutcome::Delivered => "delivered",
        AttemptOutcome::Failed => "failed",
        AttemptOutcome::Disabled => "failed; webhook disabled",
    }
}

/// One webhook: its state, its attempts (newest first) and the replay form.
/// A webhook's URL, mode, state and creation.
pub(super) fn summary(hook: &Webhook) -> Markup {
    html! {
        dt { "URL" } dd { (hook.url.as_str()) }
        dt { "Mode" } dd { (hook.mode.as_str()) }
        dt { "State" } dd {
            @if hook.enabled { "enabled" } @else {
                "disabled" @if let Some(r) = &hook.disabled_reason { ": " (r) }
            }
        }
        dt { "Created" } dd { (when(hook.created_at)) }
    }
}

/// The replay form; members may name one account, operators replay them all.
pub(super) fn replay_form(
    who: &Principal,
    hook: &Webhook,
    form: &ReplayForm,
    with_account: bool,
) -> Markup {
    html! {
        h2 { "Replay" }
        form method="post" action=(format!("/console/webhooks/{}/recover", hook.id)) {
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="mode" value=(hook.mode.as_str());
            @if let Some(p) = &form.problem { p class="error" role="alert" id="replay-error" { (p) } }
            div class="field" {
                label for="since" { "From (UTC)" }
                p class="hint" id="since-hint" { "Every event since then is sent again, in order per account." }
                input type="datetime-local" id="since" name="since" value=(form.since) required
                    aria-describedby="since-hint";
            }
            @if with_account {
                div class="field" {
                    label for="account" { "Account (optional)" }
                    input type="text" id="account" name="account" value=(form.account) spellcheck="false" autocomplete="off";
                }
            }
            button type="submit" { "Replay events" }
        }
    }
}

/// The delivery log: every attempt, newest first.
pub(super) fn attempts_table(attempts: &[Attempt]) -> Markup {
    html! {
        h2 { "Delivery attempts" }
        @if attempts.is_empty() {
            p { "No attempt yet." }
        } @else {
            div class="table-wrap" {
                table {
                    thead { tr {
                        th scope="col" { "Time" } th scope="col" { "Account" } th scope="col" { "Events" }
                        th scope="col" { "Answer" } th scope="col" class="num" { "Latency" } th scope="col" { "Outcome" }
                    } }
                    tbody {
                        @for a in attempts {
                            tr {
                                td { (when(a.attempted_at)) }
                                td { (a.account_id) }
                                td { (a.first_sequence) "–" (a.last_sequence) " (" (a.events) ")" }
                                td {
                                    @if let Some(s) = a.status { "HTTP " (s) }
                                    @if let Some(e) = &a.error { (e) }
                                }
                                td class="num" { (a.latency_ms) " ms" }
                                td {
                                    (outcome(a))
                                    @if let Some(next) = a.next_attempt_at { "; next try " (when(next)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A member's webhook page: the webhook, replay, and its delivery log.
pub fn webhook(
    who: &Principal,
    hook: &Webhook,
    attempts: &[Attempt],
    next: Option<&str>,
    form: &ReplayForm,
) -> Markup {
    let mode = hook.mode.as_str();
    page_in(
        who,
        "Webhooks",
        "Webhook",
        None,
        html! {
            @if let Some(n) = form.recovered {
                p class="notice" role="status" { (n) " delivered events will be sent again, in order." }
            }
            dl class="summary" { (summary(hook)) }
            (replay_form(who, hook, form, true))
            (attempts_table(attempts))
            @if let Some(after) = next {
                p { a href=(format!("/console/webhooks/{}?mode={mode}&after={after}", hook.id)) rel="next" { "Older attempts" } }
            }
            p { a href=(format!("/console/webhooks?mode={mode}")) { "Back to the webhooks" } }
        },
    )
}
