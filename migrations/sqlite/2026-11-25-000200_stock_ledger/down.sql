DROP TABLE stock_ledger;
