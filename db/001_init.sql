-- rlaifv store, schema version 1. Every row knows its round; ids are content hashes so re-running a
-- stage after a crash inserts nothing twice (INSERT ... ON CONFLICT DO NOTHING).

CREATE TABLE rounds (
  id              INTEGER PRIMARY KEY,
  config_json     TEXT    NOT NULL,           -- the full resolved config, secrets removed
  config_hash     TEXT    NOT NULL,
  policy_model    TEXT    NOT NULL,
  labeler_model   TEXT    NOT NULL,
  divider         TEXT    NOT NULL,
  seed            INTEGER NOT NULL,
  accept_rule     TEXT    NOT NULL CHECK (accept_rule IN ('scripts', 'paper')),
  score_method    TEXT    NOT NULL CHECK (score_method IN ('rejc', 'rejp')),
  status          TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  started_at      TEXT    NOT NULL,
  finished_at     TEXT
);

CREATE TABLE images (
  id      TEXT PRIMARY KEY,                   -- sha256 of the file's bytes (first 32 hex)
  path    TEXT NOT NULL,                      -- absolute path when first seen
  width   INTEGER NOT NULL,
  height  INTEGER NOT NULL,
  bytes   INTEGER NOT NULL
);

CREATE TABLE prompts (
  id          TEXT PRIMARY KEY,               -- the input's id, or a content hash
  image_id    TEXT NOT NULL REFERENCES images (id),
  question    TEXT NOT NULL,
  meta_json   TEXT,
  content_hash TEXT NOT NULL,                 -- image id + question + meta: a reused id must mean the same prompt
  source      TEXT NOT NULL                   -- file:line it came from
);

-- Which prompts a round covers, in input order.
CREATE TABLE round_prompts (
  round_id   INTEGER NOT NULL REFERENCES rounds (id),
  prompt_id  TEXT    NOT NULL REFERENCES prompts (id),
  ordinal    INTEGER NOT NULL,
  PRIMARY KEY (round_id, prompt_id)
) WITHOUT ROWID;

CREATE TABLE candidates (
  id                 TEXT PRIMARY KEY,        -- hash(round, prompt, sample index)
  round_id           INTEGER NOT NULL REFERENCES rounds (id),
  prompt_id          TEXT    NOT NULL REFERENCES prompts (id),
  sample_index       INTEGER NOT NULL,
  seed               INTEGER NOT NULL,
  model_id           TEXT    NOT NULL,
  decoding_json      TEXT    NOT NULL,
  text               TEXT    NOT NULL,
  finish_reason      TEXT    NOT NULL,
  prompt_tokens      INTEGER,
  completion_tokens  INTEGER,
  words              INTEGER NOT NULL,
  created_at         TEXT    NOT NULL,
  UNIQUE (round_id, prompt_id, sample_index)
);

-- One row per divided candidate, also when it yields no claims, so "divided" is never confused with "pending".
CREATE TABLE divisions (
  candidate_id  TEXT PRIMARY KEY REFERENCES candidates (id),
  divider       TEXT    NOT NULL,
  n_claims      INTEGER NOT NULL,
  skipped_json  TEXT    NOT NULL,             -- sentences left out, with reasons
  truncated     INTEGER NOT NULL DEFAULT 0,   -- 1 when the answer was cut before dividing
  created_at    TEXT    NOT NULL
);

-- A yes/no question about one image; shared by every claim (of any round) that asks the same thing.
CREATE TABLE questions (
  id        TEXT PRIMARY KEY,                 -- hash(image id, normalised question)
  image_id  TEXT NOT NULL REFERENCES images (id),
  text      TEXT NOT NULL
);

CREATE TABLE claims (
  id            TEXT PRIMARY KEY,             -- hash(candidate, index)
  candidate_id  TEXT    NOT NULL REFERENCES candidates (id),
  idx           INTEGER NOT NULL,
  sentence      TEXT    NOT NULL,
  claim         TEXT    NOT NULL,
  question_id   TEXT    NOT NULL REFERENCES questions (id),
  UNIQUE (candidate_id, idx)
);
CREATE INDEX claims_question ON claims (question_id);

-- The labeler's answer to a question: the label cache, reused across rounds for the same labeler.
CREATE TABLE labels (
  question_id  TEXT NOT NULL REFERENCES questions (id),
  labeler      TEXT NOT NULL,                 -- labeler model id and prompt template
  p_yes        REAL,                          -- NULL when unscored (neither yes nor no in the top tokens)
  p_no         REAL,
  top_json     TEXT,                          -- the first position's top tokens with probabilities
  bound_used   INTEGER NOT NULL DEFAULT 0,    -- 1 when a variant outside the top K was bounded
  created_at   TEXT NOT NULL,
  PRIMARY KEY (question_id, labeler)
) WITHOUT ROWID;

CREATE TABLE scores (
  candidate_id  TEXT PRIMARY KEY REFERENCES candidates (id),
  round_id      INTEGER NOT NULL REFERENCES rounds (id),
  n_claims      INTEGER NOT NULL,
  n_judged      INTEGER NOT NULL,
  n_rejected    INTEGER NOT NULL,
  rej_c         REAL,                         -- -n_rejected; NULL when the answer has no claims
  rej_p         REAL                          -- n_rejected / n_claims; NULL when no claims
);
CREATE INDEX scores_round ON scores (round_id);

-- One row per (round, prompt, strategy) once pairing is done, so prompts with no pairs are not redone.
CREATE TABLE pairings (
  round_id    INTEGER NOT NULL REFERENCES rounds (id),
  prompt_id   TEXT    NOT NULL REFERENCES prompts (id),
  method      TEXT    NOT NULL,
  considered  INTEGER NOT NULL,
  dropped_json TEXT   NOT NULL,               -- counts of dropped pairs by reason
  PRIMARY KEY (round_id, prompt_id, method)
) WITHOUT ROWID;

CREATE TABLE pairs (
  id              TEXT PRIMARY KEY,           -- hash(round, method, chosen, rejected)
  round_id        INTEGER NOT NULL REFERENCES rounds (id),
  prompt_id       TEXT    NOT NULL REFERENCES prompts (id),
  method          TEXT    NOT NULL,           -- 'rejc' or 'rejp' (the strategy's score)
  chosen_id       TEXT    NOT NULL REFERENCES candidates (id),
  rejected_id     TEXT    NOT NULL REFERENCES candidates (id),
  chosen_score    REAL    NOT NULL,
  rejected_score  REAL    NOT NULL,
  margin          REAL    NOT NULL,
  chosen_words    INTEGER NOT NULL,
  rejected_words  INTEGER NOT NULL,
  balance_kept    INTEGER,                    -- NULL until length balance ran; 0 = dropped by it (kept for analysis)
  created_at      TEXT    NOT NULL
);
CREATE INDEX pairs_round ON pairs (round_id, method);

-- The round's length-balance decision.
CREATE TABLE balances (
  round_id   INTEGER NOT NULL REFERENCES rounds (id),
  method     TEXT    NOT NULL,
  r          REAL,
  objective  REAL,
  before_json TEXT NOT NULL,
  after_json  TEXT NOT NULL,
  PRIMARY KEY (round_id, method)
) WITHOUT ROWID;

-- Per-item failures are values: kept with the reason and the raw output, never silently dropped.
CREATE TABLE failures (
  id          INTEGER PRIMARY KEY,
  round_id    INTEGER REFERENCES rounds (id),
  stage       TEXT NOT NULL,
  item        TEXT NOT NULL,                  -- prompt, candidate or question id, or file:line
  reason      TEXT NOT NULL,
  raw         TEXT,
  attempts    INTEGER NOT NULL DEFAULT 1,
  created_at  TEXT NOT NULL,
  UNIQUE (round_id, stage, item)
);

-- Time per stage per round (and, for remote backends, requests and tokens).
CREATE TABLE stage_runs (
  id          INTEGER PRIMARY KEY,
  round_id    INTEGER NOT NULL REFERENCES rounds (id),
  stage       TEXT    NOT NULL,
  items       INTEGER NOT NULL,
  seconds     REAL    NOT NULL,
  model_seconds REAL  NOT NULL DEFAULT 0,
  started_at  TEXT    NOT NULL
);
