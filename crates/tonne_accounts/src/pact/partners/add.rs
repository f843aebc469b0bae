//! Use cases: a partner is registered; a partner is removed.

use tonne_kernel::AccountId;

use super::credential::credential_ok;
use super::{
    PARTNERS_PER_ACCOUNT, PactPartner, PactPartnerId, PactPartners, PartnerError, PartnerSecret,
    base_url,
};

pub(super) async fn add(
    s: &PactPartners,
    account: AccountId,
    url: &str,
    token_url: Option<String>,
    client_id: &str,
    secret: PartnerSecret,
) -> Result<PactPartner, PartnerError> {
    let url = base_url(url, s.targets)?;
    let token_url = match token_url {
        Some(given) => base_url(&given, s.targets)?,
        None => format!("{url}/auth/token"),
    };
    if !credential_ok(client_id) {
        return Err(PartnerError::InvalidClientId);
    }
    s.accounts
        .get(account)
        .await?
        .ok_or(PartnerError::AccountNotFound)?;
    let partner = PactPartner {
        id: PactPartnerId::generate(s.ids.as_ref()),
        account_id: account,
        url,
        token_url,
        client_id: client_id.to_owned(),
        created_at: s.clock.now(),
        removed_at: None,
    };
    s.repo
        .insert(&partner, &secret, PARTNERS_PER_ACCOUNT)
        .await??;
    tracing::info!(partner_id = %partner.id, account_id = %account, url = %partner.url, "PACT partner registered");
    Ok(partner)
}

pub(super) async fn remove(
    s: &PactPartners,
    account: Option<AccountId>,
    id: PactPartnerId,
) -> Result<PactPartner, PartnerError> {
    let found = s
        .repo
        .get(id)
        .await?
        .filter(|p| account.is_none_or(|a| a == p.account_id))
        .ok_or(PartnerError::PartnerNotFound)?;
    if found.removed_at.is_some() {
        return Ok(found);
    }
    let removed = s
        .repo
        .remove(id, s.clock.now())
        .await?
        .ok_or(PartnerError::PartnerNotFound)?;
    tracing::info!(partner_id = %id, account_id = %removed.account_id, "PACT partner removed");
    Ok(removed)
}
