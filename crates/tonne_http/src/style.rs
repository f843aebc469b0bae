//! The style sheet that the hosted pages and the console share: no external
//! style sheets or fonts, visible focus, AA contrast and a layout that reflows
//! on narrow screens (the console adds its navigation bar's rules to it).

/// The style sheet, inlined in every page's `<style>`.
pub const STYLE: &str = r#"
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f6f7f4}
main{max-width:52rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.8rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
a{color:#0b4f9c}
.account{color:#3d3d3d;margin:0}
.account img{height:2.5rem;vertical-align:middle;margin-right:.5rem}
.bundles{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem;border:0;padding:0;margin:0}
.bundles legend{font-weight:600;margin-bottom:.5rem}
.bundle{display:block;background:#fff;border:2px solid #c8cbc3;border-radius:.5rem;padding:1rem;cursor:pointer}
.bundle:has(input:checked){border-color:#0b4f9c;box-shadow:0 0 0 2px #0b4f9c}
.bundle img{width:100%;height:8rem;object-fit:cover;border-radius:.25rem;background:#dfe3da}
.bundle .name{font-weight:600;font-size:1.05rem}
.bundle ul{margin:.25rem 0 0;padding-left:1.1rem;font-size:.95rem;color:#333}
.price{font-weight:600;color:#1e4d2b}
.field{margin:1rem 0}
.field label,.field legend{display:block;font-weight:600;margin-bottom:.25rem}
.hint{font-size:.9rem;color:#3d3d3d;margin:.25rem 0}
input[type=email],input[type=text]{width:100%;max-width:24rem;font:inherit;padding:.6rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b}
fieldset.units{border:0;padding:0;margin:.5rem 0}
button{font:inherit;font-weight:600;padding:.7rem 1.4rem;border:0;border-radius:.35rem;background:#0b4f9c;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b4f9c;border:2px solid #0b4f9c}
:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
input[type=radio]:focus-visible{outline:3px solid #c2410c}
.error{background:#fdecea;border-left:4px solid #b42318;padding:.75rem 1rem;color:#7a1610}
.notice{background:#e8f1fb;border-left:4px solid #0b4f9c;padding:.75rem 1rem}
.summary{background:#fff;border:1px solid #c8cbc3;border-radius:.5rem;padding:1rem}
.summary dt{font-weight:600}
.summary dd{margin:0 0 .5rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #d7d9d3}
.chart{margin:1rem 0}
.chart svg,.chart img{max-width:100%;height:auto}
footer{margin-top:2rem;font-size:.9rem;color:#3d3d3d}
.num{text-align:right}
.scroll{overflow-x:auto}
table.certificate th[scope=row]{font-weight:600}
table.certificate .serial{white-space:nowrap}
@media (max-width:40rem){
table.certificate thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.certificate tr{display:block;border-bottom:2px solid #c8cbc3;padding:.5rem 0}
table.certificate th,table.certificate td{display:block;border:0;padding:.1rem .5rem;text-align:left}
table.certificate .serial{white-space:normal;overflow-wrap:anywhere}
table.certificate td::before{content:attr(data-label) ": ";font-weight:600}
}
"#;
