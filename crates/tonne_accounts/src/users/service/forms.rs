//! Use cases: a console form is claimed once (a replayed submit is refused) or
//! released for another try.

use time::Duration;
use tonne_kernel::StoreError;

use crate::users::model::FormKey;

use super::Users;

impl Users {
    pub(super) async fn claim_form(&self, key: &FormKey) -> Result<bool, StoreError> {
        let now = self.clock.now();
        self.repo
            .claim_form(key, now, now - Duration::days(1))
            .await
    }

    pub(super) async fn release_form(&self, key: &FormKey) -> Result<(), StoreError> {
        self.repo.release_form(key).await
    }
}
