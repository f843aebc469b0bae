DROP TABLE order_events;
DROP TABLE account_event_sequences;
DROP TABLE order_lines;
DROP TABLE orders;
