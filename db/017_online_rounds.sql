-- rlaifv store, schema version 17: the online round of `rlaifv serve` (issue 32).
-- A reward server stores every answer it scores as a candidate of one round per config hash: the round is an ordinary
-- round (prompts keyed by image + question, candidates, claims, labels, scores), so `rlaifv pair`, `pull` and `export`
-- read it as usual. This table only says which round a server with that config writes into, so a restart finds it.
CREATE TABLE online_rounds (
  round_id     INTEGER PRIMARY KEY REFERENCES rounds (id),
  config_hash  TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX online_rounds_hash ON online_rounds (config_hash);
