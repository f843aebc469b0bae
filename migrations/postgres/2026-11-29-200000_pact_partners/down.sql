DROP TABLE pact_requests;
DROP TABLE pact_partners;
