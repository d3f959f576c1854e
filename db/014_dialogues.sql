-- rlaifv store, schema version 14: refinement dialogues (pair.corrections "refine", FIRE's student/teacher layout).
-- A dialogue starts from one sampled answer with rejected claims. Each turn, the teacher's comment (built from the
-- labeler's verdicts on the previous answer) is given to the policy, which answers again; the revision is a candidate
-- of the round (corrects_id = the sampled answer, editor 'refine') and goes through divide, label and score like any
-- answer, so its verdicts are the stored claims and labels. The dialogue ends when no claim is rejected, at
-- pair.refine.max_turns, where the conversation no longer fits the policy's context, or when a revision cannot be
-- judged (no claims, an unlabeled claim) or generated.
CREATE TABLE dialogue_turns (
  revision_id  TEXT    PRIMARY KEY REFERENCES candidates (id),
  source_id    TEXT    NOT NULL REFERENCES candidates (id),
  round_id     INTEGER NOT NULL REFERENCES rounds (id),
  turn         INTEGER NOT NULL CHECK (turn >= 1),
  level        TEXT    NOT NULL CHECK (level IN ('simple', 'detailed')),
  -- The teacher's score of the answer this turn revises (round(10 × (1 − rejected share))), and its whole comment.
  score        INTEGER,
  feedback     TEXT    NOT NULL,
  -- Who spoke: 'verdicts' (the teacher's turn built from the labeler's verdicts) or the served teacher's id
  -- (pair.refine.teacher, FIRE's A15 prompt, on prompts with a reference answer).
  teacher      TEXT    NOT NULL DEFAULT 'verdicts',
  created_at   TEXT    NOT NULL,
  UNIQUE (source_id, turn)
);
CREATE INDEX dialogue_turns_round ON dialogue_turns (round_id);

-- One row per finished dialogue: how many revisions it has, why it ended, and the revision that is the `refine`
-- editor's chosen side (the last one without a rejected claim, else the last with the fewest; null: no revision).
CREATE TABLE dialogues (
  source_id   TEXT    PRIMARY KEY REFERENCES candidates (id),
  round_id    INTEGER NOT NULL REFERENCES rounds (id),
  level       TEXT    NOT NULL CHECK (level IN ('simple', 'detailed')),
  turns       INTEGER NOT NULL CHECK (turns >= 0),
  end_reason  TEXT    NOT NULL CHECK (end_reason IN ('clean', 'max_turns', 'context', 'unjudged', 'failed')),
  chosen_id   TEXT    REFERENCES candidates (id),
  created_at  TEXT    NOT NULL
);
CREATE INDEX dialogues_round ON dialogues (round_id);

-- Each dialogue turn with its revision's verdicts: the view an analyst reads a dialogue from.
CREATE VIEW v_dialogues AS
SELECT
  t.round_id          AS round,
  o.prompt_id,
  t.source_id,
  t.turn,
  t.level,
  t.score,
  t.feedback,
  t.teacher,
  t.revision_id,
  c.text              AS revision,
  s.n_claims,
  s.n_rejected,
  d.end_reason,
  d.chosen_id = t.revision_id AS chosen
FROM dialogue_turns t
JOIN candidates o ON o.id = t.source_id
JOIN candidates c ON c.id = t.revision_id
LEFT JOIN scores s ON s.candidate_id = t.revision_id
LEFT JOIN dialogues d ON d.source_id = t.source_id;

-- The loop's SFT step on a round's dialogues (loop.sft_trainer, FIRE's student training) and its per-round correction
-- rate (loop.eval_feedback): the dialogues file the step trained on, how many dialogues it holds, the checkpoint the
-- SFT step wrote (the DPO trainer starts from it), and the correction-rate figures of the round's checkpoint.
ALTER TABLE loop_rounds ADD COLUMN dialogues_file TEXT;
ALTER TABLE loop_rounds ADD COLUMN dialogues INTEGER;
ALTER TABLE loop_rounds ADD COLUMN sft_checkpoint TEXT;
ALTER TABLE loop_rounds ADD COLUMN feedback_json TEXT;

-- loop_commands.step gains 'sft' (SQLite cannot change a CHECK: the table is rebuilt with its rows).
CREATE TABLE loop_commands_new (
  id           INTEGER PRIMARY KEY,
  loop_id      INTEGER NOT NULL REFERENCES loops (id),
  idx          INTEGER NOT NULL,
  step         TEXT    NOT NULL CHECK (step IN ('train', 'deploy', 'sft')),
  command      TEXT    NOT NULL,
  exit_code    INTEGER,
  reason       TEXT,
  stderr_tail  TEXT,
  seconds      REAL    NOT NULL,
  started_at   TEXT    NOT NULL
);
INSERT INTO loop_commands_new SELECT id, loop_id, idx, step, command, exit_code, reason, stderr_tail, seconds, started_at FROM loop_commands;
DROP TABLE loop_commands;
ALTER TABLE loop_commands_new RENAME TO loop_commands;
CREATE INDEX loop_commands_round ON loop_commands (loop_id, idx, id);
