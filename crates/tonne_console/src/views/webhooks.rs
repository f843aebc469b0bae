//! A member's webhooks: the list with the creation form, one webhook's
//! settings, secret, delivery log and replay, and the secret shown once.

use maud::{Markup, html};
use tonne_accounts::users::Principal;
use tonne_accounts::{Account, AccountScope};
use tonne_kernel::AccountMode;
use tonne_webhooks::{Attempt, AttemptOutcome, TestDelivery, Webhook};

use super::controls::mode_switch;
use super::dates::when;
use super::frame::page_in;
use super::table::{Col, table};

/// What the replay form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct ReplayForm {
    pub since: String,
    pub account: String,
    pub problem: Option<String>,
    pub recovered: Option<u64>,
}

/// What the test-event form held, and what the receiver answered.
#[derive(Debug, Default, Clone)]
pub struct TestForm {
    pub account: String,
    pub problem: Option<String>,
    pub sent: Option<TestDelivery>,
}

/// What a webhook form held (creation or settings), to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct WebhookForm {
    pub url: String,
    pub problem: Option<String>,
    /// The event types ticked (`None`: every type).
    pub event_types: Option<Vec<String>>,
}

/// The organisation's webhooks of one mode, and the creation form.
pub fn webhooks(
    who: &Principal,
    mode: AccountMode,
    hooks: &[Webhook],
    form: &WebhookForm,
) -> Markup {
    page_in(
        who,
        "Webhooks",
        &format!("Webhooks ({})", mode.as_str()),
        form.problem.as_deref(),
        html! {
            (mode_switch("/console/webhooks", mode))
            @if hooks.is_empty() {
                p { "No webhook in this mode yet." }
            } @else {
                (table(None, &[
                    Col::Text("URL"), Col::Text("State"), Col::Text("Accounts"),
                ], html! {
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
                }))
            }
            h2 { "Add a webhook" }
            form method="post" action="/console/webhooks" {
                (super::controls::once_in_mode(who, mode))
                div class="field" {
                    label for="url" { "Receiver URL" }
                    p class="hint" id="url-hint" { "An https address that accepts POST requests. Every order event of this mode's accounts is sent there, signed; the signing secret is shown once." }
                    input type="url" id="url" name="url" value=(form.url) required
                        spellcheck="false" autocomplete="off" aria-describedby="url-hint";
                }
                input type="hidden" name="event_types_shown" value="1";
                fieldset class="field" {
                    legend { "Events" }
                    p class="hint" { "Every order and allocation event is sent unless you untick some. The allocation events reach organisations pinned to API version 2024-08-08 or later. invoice.issued is Tonne's own (not in Lune's contract): sent only when ticked." }
                    @for t in tonne_webhooks::EventType::every() {
                        @let id = format!("event-{}", t.as_str().replace('.', "-"));
                        @let ticked = match form.event_types.as_ref() { None => !t.is_opt_in(), Some(c) => c.iter().any(|v| v == t.as_str()) };
                        div class="check" {
                            input type="checkbox" id=(id) name="event_type" value=(t.as_str()) checked[ticked];
                            label for=(id) { code { (t.as_str()) } }
                        }
                    }
                }
                button type="submit" { "Add webhook" }
            }
        },
    )
}

/// Right after creating a webhook or rotating its secret: the secret, once.
pub fn webhook_secret(who: &Principal, hook: &Webhook, rotated: bool) -> Markup {
    let title = if rotated {
        "The webhook's new secret"
    } else {
        "Your new webhook"
    };
    page_in(
        who,
        "Webhooks",
        title,
        None,
        html! {
            p class="notice" { "Copy the secret now: it is not shown again. Your receiver checks each request's " code { "Lune-HMAC" } " signature with it." }
            dl class="summary" { dt { "URL" } dd { (hook.url.as_str()) } }
            div class="field" {
                label for="secret" { "Signing secret" }
                input type="text" id="secret" readonly value=(hook.secret.expose()) spellcheck="false" autocomplete="off";
            }
            p { a href=(format!("/console/webhooks/{}?mode={}", hook.id, hook.mode.as_str())) { "Go to the webhook" } }
        },
    )
}

/// The member's settings forms of a webhook: URL and state, the secret, deletion.
fn settings(who: &Principal, hook: &Webhook, form: &WebhookForm) -> Markup {
    let here = format!("/console/webhooks/{}", hook.id);
    let url = if form.url.is_empty() {
        hook.url.as_str().to_owned()
    } else {
        form.url.clone()
    };
    html! {
        h2 { "Settings" }
        form method="post" action=(format!("{here}/edit")) {
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="mode" value=(hook.mode.as_str());
            @if let Some(p) = &form.problem { p class="error" role="alert" { (p) } }
            div class="field" {
                label for="edit-url" { "Receiver URL" }
                input type="url" id="edit-url" name="url" value=(url) required spellcheck="false" autocomplete="off";
            }
            div class="field check" {
                input type="checkbox" id="enabled" name="enabled" value="true" checked[hook.enabled];
                " "
                label for="enabled" { "Enabled (re-enabling resumes delivery where it stopped)" }
            }
            button type="submit" { "Save settings" }
        }
        h2 { "Signing secret" }
        form method="post" action=(format!("{here}/rotate")) {
            (super::controls::once_in_mode(who, hook.mode))
            p { "The current secret ends in " code { (hook.secret.last4()) } ". A new one replaces it at once: update your receiver." }
            button type="submit" { "Rotate secret" }
        }
        h2 { "Delete" }
        form method="post" action=(format!("{here}/delete")) {
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="mode" value=(hook.mode.as_str());
            p { "Nothing is sent to this receiver any more, and its delivery log goes with it." }
            button type="submit" { "Delete webhook" }
        }
    }
}

/// The test-event form: one of the webhook's accounts, and the last answer.
fn test_form(who: &Principal, hook: &Webhook, accounts: &[Account], form: &TestForm) -> Markup {
    html! {
        h2 id="test" { "Send a test event" }
        @if let Some(sent) = &form.sent {
            div class=(if sent.acknowledged() { "notice" } else { "error" }) role="status" id="test-result" {
                p {
                    @if sent.acknowledged() { "The receiver acknowledged the test event: " }
                    @else { "The receiver did not acknowledge the test event: " }
                    @if let Some(s) = sent.status { "HTTP " (s) }
                    @if let Some(e) = &sent.error { (e) }
                    " after " (sent.latency_ms) " ms (event " code { (sent.event_id) } ", " (when(sent.attempted_at)) ")."
                }
                @if !sent.response.trim().is_empty() {
                    p { "It answered: " code class="answer" { (sent.response) } }
                }
            }
        }
        form method="post" action=(format!("/console/webhooks/{}/test#test", hook.id)) {
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="mode" value=(hook.mode.as_str());
            @if let Some(p) = &form.problem { p class="error" role="alert" { (p) } }
            p class="hint" id="test-hint" {
                "One signed request with an event of type " code { (tonne_webhooks::TEST_EVENT_TYPE) }
                ", sent now even if the webhook is disabled, not retried, and not part of the delivery log's order."
            }
            @if accounts.is_empty() {
                p { "This webhook sends events for no account yet." }
            } @else {
                div class="field" {
                    label for="test-account" { "For account" }
                    select id="test-account" name="account" aria-describedby="test-hint" {
                        @for a in accounts {
                            option value=(a.id) selected[a.id.to_string() == form.account] {
                                (a.name.as_str())
                                @if a.scope == AccountScope::ClientAccount { " (client account)" }
                            }
                        }
                    }
                }
                button type="submit" { "Send test event" }
            }
        }
    }
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
            (table(None, &[
                Col::Text("Time"), Col::Text("Account"), Col::Text("Events"),
                Col::Text("Answer"), Col::Num("Latency"), Col::Text("Outcome"),
            ], html! {
                @for a in attempts {
                    tr {
                        td { (when(a.attempted_at)) }
                        td { (a.account_id) }
                        td { (a.first_sequence) "–" (a.last_sequence) " (" (a.events) ")" }
                        td {
                            @if let Some(s) = a.status { "HTTP " (s) }
                            @if let Some(e) = &a.error { (e) }
                            @if !a.response.trim().is_empty() {
                                br;
                                code class="answer" { (a.response) }
                            }
                        }
                        td class="num" { (a.latency_ms) " ms" }
                        td {
                            (outcome(a))
                            @if let Some(next) = a.next_attempt_at { "; next try " (when(next)) }
                        }
                    }
                }
            }))
        }
    }
}

/// The forms of a member's webhook page, as given.
#[derive(Debug, Default, Clone)]
pub struct WebhookPageForms {
    pub replay: ReplayForm,
    pub settings: WebhookForm,
    pub test: TestForm,
}

/// A member's webhook page: the webhook, replay, a test event, its settings
/// and its delivery log. `accounts`: those the webhook sends events for.
pub fn webhook(
    who: &Principal,
    hook: &Webhook,
    accounts: &[Account],
    attempts: &[Attempt],
    next: Option<&str>,
    forms: &WebhookPageForms,
) -> Markup {
    let form = &forms.replay;
    let mode = hook.mode.as_str();
    webhook_page(
        who,
        form,
        html! {
            dl class="summary" { (summary(hook)) }
            (replay_form(who, hook, form, true))
            (test_form(who, hook, accounts, &forms.test))
            (settings(who, hook, &forms.settings))
        },
        attempts,
        next.map(|after| format!("/console/webhooks/{}?mode={mode}&after={after}", hook.id)),
        &format!("/console/webhooks?mode={mode}"),
    )
}

/// The page of one webhook, a member's or the operator's: the replay's
/// notice, `body`, the delivery log with the link to older attempts
/// (`older`), and the way back to the list (`back`).
pub(super) fn webhook_page(
    who: &Principal,
    replayed: &ReplayForm,
    body: Markup,
    attempts: &[Attempt],
    older: Option<String>,
    back: &str,
) -> Markup {
    page_in(
        who,
        "Webhooks",
        "Webhook",
        None,
        html! {
            @if let Some(n) = replayed.recovered {
                p class="notice" role="status" { (n) " delivered events will be sent again, in order." }
            }
            (body)
            (attempts_table(attempts))
            @if let Some(href) = older {
                p { a href=(href) rel="next" { "Older attempts" } }
            }
            p { a href=(back) { "Back to the webhooks" } }
        },
    )
}
