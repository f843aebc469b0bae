-- The shipments list (`ShipmentStore::shipments`, `count`, `counts`) over an
-- account with 1,000,000 shipments, on PostgreSQL: seeds the tables with
-- generate_series (account A: 1,000,000 shipments over 99 batches and 1,000
-- suppliers; account B: 1,000 shipments among them), then times the store's
-- own statements (the text `shipments/list.rs` builds, `$n` binds) deep in
-- the list, with each filter. Run on a freshly migrated database:
--
--   createdb -T <a migrated database> tonne_bench_shipments
--   psql -d tonne_bench_shipments -f bench/shipments-list.sql
\set ON_ERROR_STOP on
\set a '''000000000000000000000000000000a1'''
\set b '''000000000000000000000000000000b1'''
INSERT INTO organisations (id, name, created_at) VALUES ('0000000000000000000000000000000a', 'O', now());
INSERT INTO accounts (id, organisation_id, mode, scope, sibling_id, name, currency, created_at, updated_at)
VALUES (:a, '0000000000000000000000000000000a', 'live', 'account', :b, 'A', 'GBP', now(), now()),
       (:b, '0000000000000000000000000000000a', 'test', 'account', :a, 'B', 'GBP', now(), now());
INSERT INTO shipment_batches (id, account_id, account_name, source, calculate, row_count, status, created_at)
SELECT lpad(to_hex(n), 32, '0'), CASE WHEN n < 100 THEN :a ELSE :b END, 'A', 'api', true, 10000, 'processed', now()
FROM generate_series(1, 110) n;
INSERT INTO shipment_counterparties (id, account_id, internal_id, name, created_at)
SELECT lpad(to_hex(c + 1000000), 32, '0'), CASE WHEN c < 1000 THEN :a ELSE :b END, 'c' || c, 'C ' || c, now()
FROM generate_series(0, 1000) c;
-- ids in creation order (as UUIDv7 are); B's interleaved with A's
INSERT INTO shipments (id, account_id, batch_id, data_sheet_id, counterparty_id, reference, shipment_date,
    pre_modes, main_modes, on_modes, has_emissions, total_grams, flagged, emissions, body, created_at)
SELECT lpad(to_hex(i + 100000000), 32, '0'),
    CASE WHEN i % 1000 = 7 THEN :b ELSE :a END,
    CASE WHEN i % 1000 = 7 THEN lpad(to_hex(105), 32, '0') ELSE lpad(to_hex(i % 99 + 1), 32, '0') END,
    NULL,
    CASE WHEN i % 1000 = 7 THEN lpad(to_hex(1001000), 32, '0') ELSE lpad(to_hex(i % 1000 + 1000000), 32, '0') END,
    'PO-' || i, to_char(date '2025-01-01' + (i % 365), 'YYYY-MM-DD'),
    CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END, (1 << (i % 5))::smallint, CASE WHEN i % 7 = 0 THEN 1 ELSE 0 END,
    i % 2 = 0, CASE WHEN i % 2 = 0 THEN 1000 END, i % 100 = 0, NULL,
    '{"shipment_id":"PO-' || i || '","legs":[{"mode":"road"}]}', now()
FROM generate_series(1, 1001000) i;
VACUUM ANALYZE;

\timing on
-- a page deep in the list (after the 500,000th), with each filter
PREPARE page(text, text) AS SELECT s.id, s.account_id, b.account_name, s.batch_id, s.counterparty_id,
    c.name AS counterparty_name, s.reference, s.shipment_date, s.pre_modes, s.main_modes, s.on_modes,
    s.emissions, s.body, s.created_at
    FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND s.id < $2 ORDER BY s.id DESC LIMIT 11;
\echo 'no filter, deep'
EXECUTE page(:a, '000000000000000000000000067a39f0');
\echo 'account B (1,000 of 1,001,000), deep'
EXECUTE page(:b, '000000000000000000000000060000f0');
PREPARE modes(text, bigint, text) AS SELECT s.id FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND (s.main_modes & $2) <> 0 AND s.id < $3 ORDER BY s.id DESC LIMIT 11;
\echo 'main carriage by sea, deep'
EXECUTE modes(:a, 2, '000000000000000000000000067a39f0');
PREPARE supplier(text, text, text) AS SELECT s.id FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND s.counterparty_id IN ($2) AND s.id < $3 ORDER BY s.id DESC LIMIT 11;
\echo 'one supplier of 1,000, deep'
EXECUTE supplier(:a, '000000000000000000000000000f4240', '000000000000000000000000067a39f0');
PREPARE batch(text, text, text) AS SELECT s.id FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND s.batch_id IN ($2) AND s.id < $3 ORDER BY s.id DESC LIMIT 11;
\echo 'one batch of 99, deep'
EXECUTE batch(:a, '00000000000000000000000000000005', '000000000000000000000000067a39f0');
PREPARE search(text, text, text) AS SELECT s.id FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND ((s.reference >= $2 AND s.reference < $3)) ORDER BY s.id DESC LIMIT 11;
\echo 'search PO-12345'
EXECUTE search(:a, 'PO-12345', 'PO-12346');
PREPARE dates(text, text, text) AS SELECT s.id FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND s.shipment_date >= $2 AND s.shipment_date <= $3 ORDER BY s.id DESC LIMIT 11;
\echo 'one shipment day of 365'
EXECUTE dates(:a, '2025-03-01', '2025-03-01');
PREPARE flags(text, bool, bool, text) AS SELECT s.id FROM shipments s JOIN shipment_batches b ON b.id = s.batch_id
    JOIN shipment_counterparties c ON c.id = s.counterparty_id
    WHERE s.account_id = $1 AND s.flagged = $2 AND s.has_emissions = $3 AND s.id < $4 ORDER BY s.id DESC LIMIT 11;
\echo 'flagged (1 %) and without emissions: none match'
EXECUTE flags(:a, true, false, '000000000000000000000000067a39f0');
PREPARE capped(text, bigint) AS SELECT COUNT(*) AS n FROM (SELECT s.id FROM shipments s WHERE s.account_id = $1 LIMIT $2) t;
\echo 'count capped at 200,000 (MAX_CALCULATION)'
EXECUTE capped(:a, 200001);
PREPARE counts(text) AS SELECT COUNT(*) AS n,
    COALESCE(SUM(CASE WHEN s.has_emissions THEN 1 ELSE 0 END), 0) AS with_emissions
    FROM shipments s WHERE s.account_id = $1;
\echo 'counts: all, with emissions (the whole account)'
EXECUTE counts(:a);
\echo 'counts of account B'
EXECUTE counts(:b);
