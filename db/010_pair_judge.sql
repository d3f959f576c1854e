-- rlaifv store, schema version 10: the quality gate's judge model (Anyprefer's reward-model prompt, "score/10").
-- One judged candidate pair: the judge's integer score 1–10 and its whole reply. A pair's confidence is score/10
-- (pairs.confidence). A judgment is kept even when the pairing of its prompt failed later, so a rerun does not ask
-- the judge again; `judge` names the model and the prompt it was asked with.
CREATE TABLE pair_judgments (
  round_id     INTEGER NOT NULL REFERENCES rounds (id),
  chosen_id    TEXT    NOT NULL REFERENCES candidates (id),
  rejected_id  TEXT    NOT NULL REFERENCES candidates (id),
  judge        TEXT    NOT NULL,
  score        INTEGER NOT NULL CHECK (score BETWEEN 1 AND 10),
  reply        TEXT    NOT NULL,
  attempts     INTEGER NOT NULL,
  created_at   TEXT    NOT NULL,
  PRIMARY KEY (round_id, chosen_id, rejected_id, judge)
) WITHOUT ROWID;
