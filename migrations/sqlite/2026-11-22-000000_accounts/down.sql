DROP TABLE api_keys;
DROP TABLE accounts;
DROP TABLE organisations;
