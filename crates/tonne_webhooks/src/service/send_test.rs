//! Use case: send a signed test event to a webhook now and answer what it
//! replied.

use tonne_kernel::AccountId;

use crate::errors::TestEventError;
use crate::models::Owner;
use crate::policy::SendOutcome;
use crate::ports::OutboundRequest;
use crate::signature;
use crate::test_event::{self, TestDelivery};

use super::Webhooks;

impl Webhooks {
    pub(super) async fn send_test(
        &self,
        owner: Owner,
        id: &str,
        account: AccountId,
    ) -> Result<TestDelivery, TestEventError> {
        let webhook = self.owned(owner, id).await?;
        self.check_covers(&webhook, account, "account").await?;
        let event_id = format!("test_{}", self.ids.new_uuid().simple());
        let attempted_at = self.clock.now();
        let body = self.outbound.encoder.encode(&[test_event::event(
            &webhook,
            account,
            event_id.clone(),
            attempted_at,
        )]);
        let request = OutboundRequest {
            signature: signature::header_value(
                webhook.secret.expose(),
                webhook.organisation_id,
                attempted_at.unix_timestamp(),
                &body,
            ),
            url: webhook.url,
            body,
            traceparent: None,
        };
        let started = std::time::Instant::now();
        let outcome = self.outbound.sender.send(&request).await;
        Ok(TestDelivery {
            event_id,
            account_id: account,
            attempted_at,
            status: outcome.status(),
            error: outcome.error(),
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            response: match outcome {
                SendOutcome::Response { body_start, .. } => body_start,
                _ => String::new(),
            },
        })
    }
}
