//! The caches that follow a database's changes ([`Follower`]), and the list
//! of them a `Db` hands its stores' committed changes to. Announcing and
//! listening across processes: `announcements`.

use std::sync::{Arc, Weak};

/// A cache that forgets what other processes announce on its channel.
pub trait Follower: Send + Sync + 'static {
    /// The PostgreSQL channel it follows (a plain identifier).
    fn channel(&self) -> &'static str;

    /// Forgets what one announcement names (its payload).
    fn forget(&self, payload: &str);

    /// Forgets everything: announcements may have been missed.
    fn forget_all(&self);

    /// Closes (its sender is dropped) when the follower is dropped; the
    /// listener ends when every follower's has closed.
    fn dropped(&self) -> tokio::sync::watch::Receiver<()>;
}

/// The followers of one `Db` (shared by its clones), to which its stores
/// hand their own committed changes.
#[derive(Default)]
pub(crate) struct Followers(std::sync::Mutex<Vec<Weak<dyn Follower>>>);

impl Followers {
    pub(super) fn add(&self, followers: &[Arc<dyn Follower>]) {
        let mut all = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        all.retain(|f| f.strong_count() > 0);
        all.extend(followers.iter().map(Arc::downgrade));
    }

    /// Hands a committed change to the followers of `channel`.
    pub(crate) fn hand_over(&self, channel: &str, payload: &str) {
        let all: Vec<Arc<dyn Follower>> = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        for follower in all.iter().filter(|f| f.channel() == channel) {
            follower.forget(payload);
        }
    }
}
