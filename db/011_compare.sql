-- rlaifv store, schema version 11: `rlaifv compare` and the loop's held-out win rates.
-- One served judge's verdict on two answers shown in one order: first_id as "Response A", second_id as "Response B".
-- Both orders of a pair are separate rows, so position bias is measured (a pair whose verdict flips with the order is
-- a tie). A verdict is kept once given, so a rerun never asks the judge again; `judge` names the model and the prompt.
-- The truth and claims judges are computed from what the store already holds and are not stored.
CREATE TABLE compare_verdicts (
  judge        TEXT    NOT NULL,
  first_id     TEXT    NOT NULL REFERENCES candidates (id),
  second_id    TEXT    NOT NULL REFERENCES candidates (id),
  winner       TEXT    NOT NULL CHECK (winner IN ('first', 'second')),
  reply        TEXT    NOT NULL,             -- the judge's reply (and, when it took one, the extraction prompt's reply)
  attempts     INTEGER NOT NULL,             -- requests it took: 1, or 2 with the extraction prompt
  created_at   TEXT    NOT NULL,
  PRIMARY KEY (judge, first_id, second_id)
) WITHOUT ROWID;

-- A loop round's held-out win rates (its checkpoint's evaluation round against the previous round's and the start's,
-- judged by loop.judge): {judge, vs_previous, vs_start}, each a comparison's figures; null until computed.
ALTER TABLE loop_rounds ADD COLUMN win_rates_json TEXT;

-- Checkpoint selection (loop.select: best): every candidate the trainer left, with its validation figure and which
-- was kept: [{checkpoint, sha256, eval_id, rejected_claim_rate, selected}]; null with loop.select: last.
ALTER TABLE loop_rounds ADD COLUMN select_json TEXT;

-- ConvBench's multi-turn ablation of a round's checkpoint on loop.ablation_prompts (no, true and its own earlier
-- turns): the figures as `multiturn_ablation` reports them; null when not configured or not yet run.
ALTER TABLE loop_rounds ADD COLUMN ablation_json TEXT;
