//! The acting account's logo, which a link shows when it says `use_logo`.

use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;

pub(super) async fn account_logo(
    state: &AppState,
    who: &Authenticated,
) -> Result<Option<String>, ApiError> {
    Ok(state.accounts.me(&who.0).await?.logo)
}
