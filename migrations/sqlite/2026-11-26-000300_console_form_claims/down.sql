DROP TABLE console_form_claims;
