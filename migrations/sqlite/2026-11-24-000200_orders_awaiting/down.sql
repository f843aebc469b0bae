DROP INDEX orders_awaiting;
