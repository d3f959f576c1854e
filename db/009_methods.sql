-- rlaifv store, schema version 9: feedback methods side by side (src/methods/).
-- A round's feedback method: 'divide' (claims, yes/no labels, REJ-C/REJ-P in `scores`), 'holistic', 'dpo-reward' or
-- 'oracle' (their per-answer scores and evidence in `answer_scores`). Every round before this version was 'divide'.
ALTER TABLE rounds ADD COLUMN feedback_method TEXT NOT NULL DEFAULT 'divide';
-- The method whose pairs a round delivers (pairs.method): REJ-C/REJ-P for divide, else the method's own name.
ALTER TABLE rounds ADD COLUMN pair_method TEXT GENERATED ALWAYS AS
  (CASE feedback_method WHEN 'divide' THEN score_method ELSE feedback_method END) VIRTUAL;

-- One answer's score under a method other than divide: higher is better; NULL value when the method gave no score.
-- `scorer` names the model(s) and prompt that scored; `evidence_json` is what the score came from (the judge's replies,
-- p(yes), the two log-probs, the truth's verdicts).
CREATE TABLE answer_scores (
  candidate_id   TEXT    NOT NULL REFERENCES candidates (id),
  method         TEXT    NOT NULL,
  round_id       INTEGER NOT NULL REFERENCES rounds (id),
  scorer         TEXT    NOT NULL,
  value          REAL,
  evidence_json  TEXT    NOT NULL,
  created_at     TEXT    NOT NULL,
  PRIMARY KEY (candidate_id, method)
) WITHOUT ROWID;
CREATE INDEX answer_scores_round ON answer_scores (round_id, method);

-- A pair's judged confidence and the quality gate's decision (NULL: no gate ran). A dropped pair stays stored.
ALTER TABLE pairs ADD COLUMN confidence REAL;
ALTER TABLE pairs ADD COLUMN gate_kept INTEGER;

-- Views that named the round's score method as its pair method now use pair_method.
DROP VIEW v_pairs;
CREATE VIEW v_pairs AS
SELECT
  pr.id               AS pair_id,
  pr.round_id         AS round,
  pr.method,
  pr.prompt_id,
  rp.ordinal          AS prompt_ordinal,
  p.question          AS instruction,
  i.path              AS image_path,
  i.id                AS image_id,
  pr.chosen_id,
  pr.rejected_id,
  ch.text             AS chosen,
  rj.text             AS rejected,
  pr.chosen_score,
  pr.rejected_score,
  pr.margin,
  pr.chosen_words,
  pr.rejected_words,
  pr.balance_kept,
  (pr.balance_kept IS 1 AND pr.gate_kept IS NOT 0 AND pr.method = r.pair_method) AS kept,
  sc.n_claims         AS chosen_n_claims,
  sc.n_rejected       AS chosen_n_rejected,
  sc.rej_c            AS chosen_rej_c,
  sc.rej_p            AS chosen_rej_p,
  sr.n_claims         AS rejected_n_claims,
  sr.n_rejected       AS rejected_n_rejected,
  sr.rej_c            AS rejected_rej_c,
  sr.rej_p            AS rejected_rej_p,
  ch.sample_index     AS chosen_sample_index,
  rj.sample_index     AS rejected_sample_index,
  r.policy_model,
  r.labeler_model,
  p.meta_json,
  p.source            AS prompt_source,
  pr.created_at,
  r.feedback_method,
  pr.confidence,
  pr.gate_kept
FROM pairs pr
JOIN rounds r ON r.id = pr.round_id
JOIN prompts p ON p.id = pr.prompt_id
JOIN images i ON i.id = p.image_id
JOIN candidates ch ON ch.id = pr.chosen_id
JOIN candidates rj ON rj.id = pr.rejected_id
LEFT JOIN scores sc ON sc.candidate_id = pr.chosen_id
LEFT JOIN scores sr ON sr.candidate_id = pr.rejected_id
LEFT JOIN round_prompts rp ON rp.round_id = pr.round_id AND rp.prompt_id = pr.prompt_id;

DROP VIEW v_rounds;
-- One row per round: its settings and the counts `rlaifv stats` prints (rejected claims under the round's rule).
CREATE VIEW v_rounds AS
SELECT
  r.id                AS round,
  r.status,
  r.policy_model,
  r.labeler_model,
  r.divider,
  r.seed,
  r.accept_rule,
  r.pair_method       AS method,
  r.feedback_method,
  r.config_hash,
  r.started_at,
  r.finished_at,
  (SELECT COUNT(*) FROM round_prompts rp WHERE rp.round_id = r.id) AS prompts,
  (SELECT COUNT(*) FROM candidates c WHERE c.round_id = r.id) AS answers,
  (SELECT COUNT(*) FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = r.id) AS claims,
  (SELECT COUNT(*) FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
     JOIN labels l ON l.question_id = cl.question_id AND l.labeler = r.labeler_model
   WHERE c.round_id = r.id AND l.p_yes IS NOT NULL AND l.p_no IS NOT NULL
     AND CASE WHEN r.accept_rule = 'paper' THEN l.p_no > l.p_yes ELSE NOT (l.p_yes > l.p_no) END) AS rejected_claims,
  CASE WHEN r.feedback_method = 'divide'
    THEN (SELECT COUNT(*) FROM scores s WHERE s.round_id = r.id AND s.rej_c IS NOT NULL)
    ELSE (SELECT COUNT(*) FROM answer_scores a WHERE a.round_id = r.id AND a.method = r.feedback_method AND a.value IS NOT NULL)
  END AS scored_answers,
  (SELECT COUNT(*) FROM pairs p WHERE p.round_id = r.id AND p.method = r.pair_method) AS pairs,
  (SELECT COUNT(*) FROM pairs p WHERE p.round_id = r.id AND p.method = r.pair_method AND p.balance_kept = 1 AND p.gate_kept IS NOT 0)
                      AS pairs_kept,
  (SELECT b.r FROM balances b WHERE b.round_id = r.id AND b.method = r.pair_method) AS balance_r,
  (SELECT COUNT(*) FROM failures f WHERE f.round_id = r.id) AS failures,
  (SELECT SUM(sr.seconds) FROM stage_runs sr WHERE sr.round_id = r.id) AS seconds
FROM rounds r;


-- The quality gate's top-up: extra samples a prompt got because it was left without a kept pair (0: none).
ALTER TABLE round_prompts ADD COLUMN extra_samples INTEGER NOT NULL DEFAULT 0;
