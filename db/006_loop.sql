-- rlaifv store, schema version 6: the iterative loop (`rlaifv loop`) and held-out policy evaluations.

-- A round is for training pairs, or an evaluation of a policy on held-out prompts (generate and divide only: it never
-- labels, scores or pairs, and no pull or export ever delivers a pair whose image an evaluation round has seen).
ALTER TABLE rounds ADD COLUMN purpose TEXT NOT NULL DEFAULT 'train' CHECK (purpose IN ('train', 'eval'));

-- One held-out evaluation of a policy: a sampled round (the loop's decoding) and a greedy one on the same prompts,
-- judged against the shapes truth; the figures are stored once both rounds are done.
CREATE TABLE policy_evals (
  id              INTEGER PRIMARY KEY,
  policy          TEXT    NOT NULL,           -- the model as the generator names it (a folder, or a served name)
  policy_sha256   TEXT,                       -- of a local checkpoint's files (see src/loop/checkpoint.ts); null for a served model
  prompts         TEXT    NOT NULL,           -- the held-out prompts file
  prompt_limit    INTEGER,                    -- the first N prompts of it, or null for all
  samples         INTEGER NOT NULL,
  temperature     REAL    NOT NULL,
  seed            INTEGER NOT NULL,
  sampled_round   INTEGER REFERENCES rounds (id),
  greedy_round    INTEGER REFERENCES rounds (id),
  figures_json    TEXT,                       -- {sampled: PolicyFigures, greedy: PolicyFigures}; null until both rounds are done
  created_at      TEXT    NOT NULL,
  finished_at     TEXT
);
CREATE INDEX policy_evals_policy ON policy_evals (policy, id);

-- One `rlaifv loop`: rounds of generate → feedback → pull → train → (deploy) → evaluate, each step recorded.
CREATE TABLE loops (
  id              INTEGER PRIMARY KEY,
  config_hash     TEXT    NOT NULL,           -- the loop's settings and the round config without the policy: what resuming must match
  config_json     TEXT    NOT NULL,
  start_policy    TEXT    NOT NULL,
  consumer        TEXT    NOT NULL,           -- the pull consumer of this loop (loop-<id>)
  baseline_eval   INTEGER REFERENCES policy_evals (id),
  created_at      TEXT    NOT NULL
);

-- One round of a loop. Each step's columns are written in the transaction that finishes the step, so a restarted
-- loop knows exactly which steps are done (a NULL column = that step has not finished).
CREATE TABLE loop_rounds (
  loop_id             INTEGER NOT NULL REFERENCES loops (id),
  idx                 INTEGER NOT NULL,       -- 1, 2, … within the loop
  policy              TEXT    NOT NULL,       -- the policy this round samples from (folder or served model name)
  policy_checkpoint   TEXT,                   -- its checkpoint folder (the start policy's folder, or the previous round's checkpoint)
  train_round         INTEGER REFERENCES rounds (id),
  round_done_at       TEXT,
  delivery_id         INTEGER REFERENCES deliveries (id),
  pairs_file          TEXT,
  pairs               INTEGER,
  trainer_command     TEXT,
  trainer_exit        INTEGER,                -- the last attempt's exit code (0 = the checkpoint below is this round's)
  trainer_stderr_tail TEXT,
  trainer_seconds     REAL,
  checkpoint          TEXT,
  checkpoint_sha256   TEXT,
  trained_at          TEXT,
  served_model        TEXT,                   -- after the deploy hook: the name the server serves the checkpoint as
  deployed_at         TEXT,
  eval_id             INTEGER REFERENCES policy_evals (id),
  evaluated_at        TEXT,
  PRIMARY KEY (loop_id, idx)
);

-- Every run of an external command of a loop (trainer, deploy), failed ones included: the history a rerun retries from.
CREATE TABLE loop_commands (
  id           INTEGER PRIMARY KEY,
  loop_id      INTEGER NOT NULL REFERENCES loops (id),
  idx          INTEGER NOT NULL,
  step         TEXT    NOT NULL CHECK (step IN ('train', 'deploy')),
  command      TEXT    NOT NULL,
  exit_code    INTEGER,                        -- null: killed by a signal (see reason)
  reason       TEXT,
  stderr_tail  TEXT,
  seconds      REAL    NOT NULL,
  started_at   TEXT    NOT NULL
);
CREATE INDEX loop_commands_round ON loop_commands (loop_id, idx, id);

-- Analysts: one row per loop round with its evaluation figures (sampled) next to the round's pairs.
CREATE VIEW v_loop_rounds AS
SELECT
  lr.loop_id                                   AS loop,
  lr.idx                                       AS loop_round,
  lr.train_round                               AS round,
  lr.policy,
  lr.pairs,
  lr.trainer_exit,
  lr.checkpoint,
  lr.checkpoint_sha256,
  json_extract(e.figures_json, '$.sampled.false_claim_rate')             AS false_claim_rate,
  json_extract(e.figures_json, '$.sampled.response_hallucination_rate')  AS response_hallucination_rate,
  json_extract(e.figures_json, '$.sampled.true_claims_per_answer')       AS true_claims_per_answer,
  json_extract(e.figures_json, '$.greedy.false_claim_rate')              AS greedy_false_claim_rate
FROM loop_rounds lr
LEFT JOIN policy_evals e ON e.id = lr.eval_id;
