//! The hosted pages in a real browser: headless Debian Chromium driven over
//! WebDriver (chromedriver + fantoccini). A customer picks a bundle, enters an
//! email and an amount, confirms and sees the order; a double submit is one
//! order; a declined test card pays nothing; an expired link shows its page.
//! Every form control has an accessible name, and axe-core (installed by
//! `.ci/run` from npm into `target/axe`) finds no violation.
//!
//! Screenshots of each page are written to `target/browser/` to look at.
//! Without chromium/chromedriver (or axe-core) the suite skips with a note,
//! except under `CI=true`, where it is mandatory.

mod checkout;
mod console_members;
mod console_orders;
mod data_sheets;
mod kit;
mod public_pages;
mod stripe;
