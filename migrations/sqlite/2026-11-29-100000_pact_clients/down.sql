DROP TABLE pact_tokens;
DROP TABLE pact_clients;
