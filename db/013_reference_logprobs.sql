-- rlaifv store, schema version 13: reference log-probs (pair.reference_logprobs). Each answer of a paired prompt
-- teacher-forced under the round's policy: its summed token log-prob (its tokens and the end token, as DPO trainers
-- count them), how many tokens, and each token's value. Keyed by answer and model, so a pair's two sides and their
-- siblings (the prompt's other samples, for the on-policy check) share one row each.
CREATE TABLE answer_logprobs (
  candidate_id    TEXT    NOT NULL REFERENCES candidates (id),
  model           TEXT    NOT NULL,
  sum             REAL    NOT NULL,
  tokens          INTEGER NOT NULL CHECK (tokens > 0),
  per_token_json  TEXT    NOT NULL,
  created_at      TEXT    NOT NULL,
  PRIMARY KEY (candidate_id, model)
) WITHOUT ROWID;
