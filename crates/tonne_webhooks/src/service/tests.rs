//! Tests of the webhook use cases over mocked ports.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::net::IpAddr;
use std::sync::Arc;

use mockall::predicate::eq;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, Actor, MockClock, MockIdGenerator, OrganisationId};
use uuid::Uuid;

use super::*;
use crate::errors::InsertWebhookError;
use crate::policy::SendOutcome;
use crate::ports::StoreError;
use crate::ports::{
    MockAccountDirectory, MockEventEncoder, MockHostResolver, MockWebhookRepository,
    MockWebhookSender,
};
use crate::secret::WebhookSecret;
use crate::target::WebhookUrl;

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap()
}

fn owner() -> Owner {
    Owner {
        organisation_id: OrganisationId::from_uuid(Uuid::from_u128(1)),
        mode: AccountMode::Live,
    }
}

fn account(n: u128) -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(n))
}

struct Mocks {
    repo: MockWebhookRepository,
    accounts: MockAccountDirectory,
    resolver: MockHostResolver,
    sender: MockWebhookSender,
    encoder: MockEventEncoder,
}

fn mocks() -> Mocks {
    let mut resolver = MockHostResolver::new();
    resolver
        .expect_resolve()
        .returning(|_, _| Ok(vec!["93.184.216.34".parse::<IpAddr>().unwrap()]));
    let mut accounts = MockAccountDirectory::new();
    accounts.expect_owner_of().returning(|id| {
        Ok(match id.as_uuid().as_u128() {
            10..=19 => Some(owner()),
            20 => Some(Owner {
                mode: AccountMode::Test,
                ..owner()
            }),
            30 => Some(Owner {
                organisation_id: OrganisationId::from_uuid(Uuid::from_u128(2)),
                ..owner()
            }),
            _ => None,
        })
    });
    Mocks {
        repo: MockWebhookRepository::new(),
        accounts,
        resolver,
        sender: MockWebhookSender::new(),
        encoder: MockEventEncoder::new(),
    }
}

fn service(m: Mocks, settings: Settings) -> Webhooks {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    let mut ids = MockIdGenerator::new();
    ids.expect_new_uuid().returning(|| Uuid::from_u128(99));
    Webhooks::new(
        Arc::new(m.repo),
        Arc::new(m.accounts),
        Arc::new(m.resolver),
        Outbound {
            sender: Arc::new(m.sender),
            encoder: Arc::new(m.encoder),
        },
        Arc::new(clock),
        Arc::new(ids),
        settings,
    )
}

/// The API key the tests act as.
fn by() -> Actor {
    Actor::ApiKey(tonne_kernel::ApiKeyId::from_uuid(Uuid::from_u128(9)))
}

fn stored(id: u128, owner: Owner, filter: Option<Vec<AccountId>>, enabled: bool) -> Webhook {
    Webhook {
        id: WebhookId::from_uuid(Uuid::from_u128(id)),
        organisation_id: owner.organisation_id,
        mode: owner.mode,
        url: WebhookUrl::parse("https://hooks.example.com/a", TargetPolicy::default()).unwrap(),
        enabled,
        account_ids: filter,
        event_types: None,
        secret: WebhookSecret::generate(),
        disabled_reason: (!enabled).then(|| "the receiver answered 410 Gone".to_owned()),
        created_at: now(),
        updated_at: now(),
    }
}

fn new(url: &str, ids: Option<Vec<&str>>) -> NewWebhook {
    NewWebhook {
        url: url.into(),
        account_ids: ids.map(|v| v.into_iter().map(String::from).collect()),
        event_types: None,
    }
}

/// `s` changes webhook 5 of [`owner`] to `url`, `enabled` and `event_types`
/// (its accounts as they are).
async fn update_5(
    s: &Webhooks,
    url: &str,
    enabled: Option<bool>,
    event_types: Option<Option<Vec<String>>>,
) -> Result<Webhook, UpdateWebhookError> {
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    let changes = WebhookChanges {
        url: url.into(),
        enabled,
        account_ids: None,
        event_types,
    };
    s.update(owner(), &id, changes, &by()).await
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

mod deliveries;
mod endpoints;
mod event_types;
