-- rlaifv store, schema version 3: what remote backends used, per round, stage and endpoint.
-- Endpoints are stored without credentials or query strings; API keys are never stored.
CREATE TABLE usage (
  round_id           INTEGER NOT NULL REFERENCES rounds (id),
  stage              TEXT    NOT NULL,
  endpoint           TEXT    NOT NULL,
  requests           INTEGER NOT NULL DEFAULT 0,   -- HTTP requests sent, retries included
  retries            INTEGER NOT NULL DEFAULT 0,   -- of those, how many repeated a failed request
  failures           INTEGER NOT NULL DEFAULT 0,   -- requests given up after all retries
  prompt_tokens      INTEGER NOT NULL DEFAULT 0,
  completion_tokens  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (round_id, stage, endpoint)
) WITHOUT ROWID;
