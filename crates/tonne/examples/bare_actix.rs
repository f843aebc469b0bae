//! Baseline for `bench/accounts-me.sh`: a bare actix-web handler returning a
//! constant JSON body, on the same runtime settings as `tonne serve`.
//!
//! `cargo run --release --example bare_actix -- 127.0.0.1:18181`

use actix_web::{App, HttpResponse, HttpServer, web};

async fn constant() -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(
        r#"{"id":"01a2015b8e6a7305989b0332108af9c5","name":"Demo organisation","organisation_id":"01a2015b8e6a7305989b0330824a2651","currency":"GBP","balance":"0.00","balance_outstanding":"0.00","type":"test","logo":null,"beneficiary":null,"bundle_portfolio_id":null,"scope":"account","sibling_id":"01a2015b8e6a7305989b0331bda045f3"}"#,
    )
}

fn main() -> std::io::Result<()> {
    let bind = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18181".to_owned());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        HttpServer::new(|| App::new().route("/v1/accounts/me", web::get().to(constant)))
            .bind(bind)?
            .run()
            .await
    })
}
