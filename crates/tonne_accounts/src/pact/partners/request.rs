//! Use case: a partner's footprint request is received and its answer queued.

use tonne_kernel::{AccountId, StoreError};

use super::{
    PactPartners, PactRequest, PactRequestId, Received, RequestStatus, WAITING_PER_ACCOUNT,
};

pub(super) async fn receive(
    s: &PactPartners,
    account: AccountId,
    source: &str,
    event_id: &str,
    product_ids: Vec<String>,
) -> Result<Received, StoreError> {
    // the source as a partner's URL is stored; one that is no URL names no one
    let Ok(url) = super::base_url(source, s.targets) else {
        return Ok(Received::NoPartner);
    };
    let Some(partner) = s.repo.find(account, &url).await? else {
        return Ok(Received::NoPartner);
    };
    let request = PactRequest {
        id: PactRequestId::generate(s.ids.as_ref()),
        account_id: account,
        partner_id: partner.id,
        event_id: event_id.to_owned(),
        product_ids,
        received_at: s.clock.now(),
        status: RequestStatus::Waiting,
        answered_at: None,
        error: None,
    };
    let received = s.repo.record(&request, WAITING_PER_ACCOUNT).await?;
    tracing::info!(
        account_id = %account,
        partner_id = %partner.id,
        outcome = ?received,
        "PACT footprint request received"
    );
    Ok(received)
}
