//! Changes announced between processes on PostgreSQL, and the in-memory
//! caches that follow them.
//!
//! A write that a cache in another process must not keep serving (a key
//! revoked, an account changed) announces itself with `pg_notify` inside its
//! own transaction: PostgreSQL delivers the announcement to every listening
//! connection when that transaction commits, and never if it rolls back. One
//! listener connection per process follows every cache's channel
//! ([`follow`]). In the process itself the store hands the change to the
//! followers as soon as its transaction has committed ([`Db::announced`]), on
//! either backend. A cache forgets what an announcement names, and forgets
//! everything whenever the listener (re)connects, as announcements may have
//! been missed meanwhile. The caches' time to live stays the bound when no
//! announcement can arrive (SQLite, a lost listener connection).

use std::sync::{Arc, Weak};
use std::time::Duration;

use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;
use futures_util::StreamExt as _;

use super::followers::Follower;
use super::{Conn, DatabaseUrl, Db};

/// The channels changes are announced on.
pub(crate) mod channel {
    /// A revoked API key's hash (hex).
    pub(crate) const KEY_REVOKED: &str = "tonne_key_revoked";
    /// A changed account's id (its name, beneficiary, handle, portfolio, logo…).
    pub(crate) const ACCOUNT_CHANGED: &str = "tonne_account_changed";
}

/// Announces `payload` on `channel` to every listening process when the
/// transaction `conn` is in commits. Nothing on SQLite (one process).
pub(crate) async fn announce(
    conn: &mut Conn,
    channel: &'static str,
    payload: &str,
) -> diesel::QueryResult<()> {
    if let Conn::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(channel)
            .bind::<Text, _>(payload)
            .execute(&mut **pg)
            .await?;
    }
    Ok(())
}

/// How long the listener waits before connecting again after a failed attempt
/// or a lost connection.
const RECONNECT_PAUSE: Duration = Duration::from_secs(1);

/// Has the followers forget what this process's stores change through `db`
/// (once committed), and, on PostgreSQL, what any process announces: one task
/// on the current tokio runtime `LISTEN`s on every follower's channel, on one
/// connection, and hands each announcement to the followers of its channel;
/// it reconnects after a pause when its connection is lost and ends when
/// every follower is dropped (or the runtime shuts down). `true` when that
/// listener started; `false` on SQLite (one process) and outside a tokio
/// runtime (with a warning).
pub fn follow(db: &Db, followers: &[Arc<dyn Follower>]) -> bool {
    db.followers().add(followers);
    let DatabaseUrl::Postgres(url) = db.url() else {
        return false;
    };
    let not_started = |e: &dyn std::fmt::Display| {
        tracing::warn!(error = %e, "cannot start the change listener; the caches' time to live bounds what they serve");
        false
    };
    let config = match url.parse::<tokio_postgres::Config>() {
        Ok(config) => config,
        Err(e) => return not_started(&e),
    };
    let runtime = match tokio::runtime::Handle::try_current() {
        Ok(runtime) => runtime,
        Err(e) => return not_started(&e),
    };
    let weak: Vec<Weak<dyn Follower>> = followers.iter().map(Arc::downgrade).collect();
    let dropped = futures_util::future::join_all(followers.iter().map(|f| {
        let mut dropped = f.dropped();
        // Never sent on: resolves when the follower (the sender) is dropped.
        async move { while dropped.changed().await.is_ok() {} }
    }));
    runtime.spawn(async move {
        tokio::select! {
            () = listen(&config, &weak) => {}
            _ = dropped => {}
        }
    });
    true
}

/// Follows the announcements while a follower lives, connecting again after a
/// pause whenever the connection fails or is lost.
async fn listen(config: &tokio_postgres::Config, followers: &[Weak<dyn Follower>]) {
    let mut warned = false;
    while followers.iter().any(|f| f.strong_count() > 0) {
        let lost = match listen_once(config, followers, &mut warned).await {
            Ok(()) => return,
            Err(lost) => lost,
        };
        match lost {
            Lost::Connecting(e) => {
                if !warned {
                    tracing::warn!(error = %e, "change listener cannot connect; retrying (the caches' time to live bounds what they serve meanwhile)");
                    warned = true;
                }
            }
            Lost::Listening(e) => {
                tracing::warn!(error = %e, "change listener lost its connection");
            }
        }
        tokio::time::sleep(RECONNECT_PAUSE).await;
    }
}

/// Why [`listen_once`] stopped.
enum Lost {
    /// The connection (or its `LISTEN`) failed.
    Connecting(String),
    /// The connection was lost while listening.
    Listening(String),
}

/// Hands an announcement to the followers of its channel; `false` once every
/// follower is gone.
fn hand_over(followers: &[Weak<dyn Follower>], note: &tokio_postgres::Notification) -> bool {
    let mut alive = false;
    for follower in followers.iter().filter_map(Weak::upgrade) {
        alive = true;
        if follower.channel() == note.channel() {
            follower.forget(note.payload());
        }
    }
    alive
}

/// One connection: `LISTEN`s, has every follower forget everything (what was
/// announced while disconnected is unknown), then hands over each
/// announcement. `Ok` when every follower is gone.
async fn listen_once(
    config: &tokio_postgres::Config,
    followers: &[Weak<dyn Follower>],
    warned: &mut bool,
) -> Result<(), Lost> {
    use tokio_postgres::AsyncMessage;
    let (client, mut connection) = config
        .connect(tokio_postgres::NoTls)
        .await
        .map_err(|e| Lost::Connecting(e.to_string()))?;
    // The connection is driven by polling its messages; the client's
    // statements are answered only while it is.
    let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
    let mut channels: Vec<&'static str> = followers
        .iter()
        .filter_map(Weak::upgrade)
        .map(|f| f.channel())
        .collect();
    channels.sort_unstable();
    channels.dedup();
    let listen: String = channels.iter().map(|c| format!("LISTEN {c};")).collect();
    let listen = client.batch_execute(&listen);
    tokio::pin!(listen);
    loop {
        tokio::select! {
            listening = &mut listen => {
                listening.map_err(|e| Lost::Connecting(e.to_string()))?;
                break;
            }
            message = messages.next() => match message {
                Some(Ok(AsyncMessage::Notification(note))) => {
                    if !hand_over(followers, &note) {
                        return Ok(());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(Lost::Connecting(e.to_string())),
                None => return Err(Lost::Connecting("the connection closed".into())),
            },
        }
    }
    if *warned {
        tracing::info!("change listener connected again");
        *warned = false;
    }
    let mut alive = false;
    for follower in followers.iter().filter_map(Weak::upgrade) {
        alive = true;
        follower.forget_all();
    }
    if !alive {
        return Ok(());
    }
    loop {
        match messages.next().await {
            Some(Ok(AsyncMessage::Notification(note))) => {
                if !hand_over(followers, &note) {
                    return Ok(());
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(Lost::Listening(e.to_string())),
            None => return Err(Lost::Listening("the connection closed".into())),
        }
    }
}
