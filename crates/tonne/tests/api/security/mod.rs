//! Security properties end to end, one file per weakness fixed: `signin`
//! (guessing and lock-out, client addresses behind proxies, the sign-in
//! token, cross-site posts, https-only cookies and headers, the catalogue
//! upload, guessable passwords).

mod signin;
