DROP TABLE organisation_api_versions;
