DROP TABLE user_sessions;
DROP TABLE user_setup_tokens;
DROP TABLE users;
