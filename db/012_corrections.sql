-- rlaifv store, schema version 12: correction pairs (pair.corrections). A corrected answer is a candidate of the
-- round like a sampled one, so it is divided, labeled and scored by the same stages; it is told apart by corrects_id
-- (the sampled answer it corrects) and has a negative sample_index. Every figure about the policy's own samples
-- (eval, stats, truth-free figures, generation's completeness) reads only candidates with corrects_id IS NULL.
ALTER TABLE candidates ADD COLUMN corrects_id TEXT REFERENCES candidates (id);
-- The editor that wrote it: 'drop', 'overwrite' (see src/feedback/corrections.ts).
ALTER TABLE candidates ADD COLUMN editor TEXT;
-- The edit list: [{sentence, old, new, claim_ids, source_id}], sentence = the original's sentence index, new = null
-- when the sentence was dropped, source_id = the sibling answer a replacement came from.
ALTER TABLE candidates ADD COLUMN edits_json TEXT;
CREATE INDEX candidates_corrects ON candidates (corrects_id) WHERE corrects_id IS NOT NULL;

-- What a pair is: 'rank' (two sampled answers ranked by the feedback) or 'correction' (a corrected answer over its
-- original), and for a correction the editor that wrote its chosen side.
ALTER TABLE pairs ADD COLUMN kind TEXT NOT NULL DEFAULT 'rank' CHECK (kind IN ('rank', 'correction'));
ALTER TABLE pairs ADD COLUMN editor TEXT;

-- The views: v_answers and v_rounds count the policy's sampled answers only; v_pairs gains each pair's kind, editor
-- and (a correction's) edit list; v_corrections lists the corrected answers with their originals.
DROP VIEW v_answers;
CREATE VIEW v_answers AS
SELECT
  c.round_id          AS round,
  c.prompt_id,
  c.id                AS answer_id,
  c.sample_index,
  c.seed,
  c.model_id,
  p.question          AS instruction,
  i.path              AS image_path,
  c.text,
  c.words,
  c.finish_reason,
  c.prompt_tokens,
  c.completion_tokens,
  d.candidate_id IS NOT NULL AS divided,
  d.truncated,
  COALESCE(s.n_claims, d.n_claims) AS n_claims,
  s.n_judged,
  s.n_rejected,
  s.rej_c,
  s.rej_p,
  c.created_at
FROM candidates c
JOIN prompts p ON p.id = c.prompt_id
JOIN images i ON i.id = p.image_id
LEFT JOIN divisions d ON d.candidate_id = c.id
LEFT JOIN scores s ON s.candidate_id = c.id
WHERE c.corrects_id IS NULL;

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
  pr.gate_kept,
  pr.kind,
  pr.editor,
  ch.edits_json       AS edits_json
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
  (SELECT COUNT(*) FROM candidates c WHERE c.round_id = r.id AND c.corrects_id IS NULL) AS answers,
  (SELECT COUNT(*) FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = r.id AND c.corrects_id IS NULL) AS claims,
  (SELECT COUNT(*) FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
     JOIN labels l ON l.question_id = cl.question_id AND l.labeler = r.labeler_model
   WHERE c.round_id = r.id AND c.corrects_id IS NULL AND l.p_yes IS NOT NULL AND l.p_no IS NOT NULL
     AND CASE WHEN r.accept_rule = 'paper' THEN l.p_no > l.p_yes ELSE NOT (l.p_yes > l.p_no) END) AS rejected_claims,
  CASE WHEN r.feedback_method = 'divide'
    THEN (SELECT COUNT(*) FROM scores s JOIN candidates c ON c.id = s.candidate_id WHERE s.round_id = r.id AND s.rej_c IS NOT NULL AND c.corrects_id IS NULL)
    ELSE (SELECT COUNT(*) FROM answer_scores a WHERE a.round_id = r.id AND a.method = r.feedback_method AND a.value IS NOT NULL)
  END AS scored_answers,
  (SELECT COUNT(*) FROM pairs p WHERE p.round_id = r.id AND p.method = r.pair_method) AS pairs,
  (SELECT COUNT(*) FROM pairs p WHERE p.round_id = r.id AND p.method = r.pair_method AND p.balance_kept = 1 AND p.gate_kept IS NOT 0)
                      AS pairs_kept,
  (SELECT b.r FROM balances b WHERE b.round_id = r.id AND b.method = r.pair_method) AS balance_r,
  (SELECT COUNT(*) FROM failures f WHERE f.round_id = r.id) AS failures,
  (SELECT SUM(sr.seconds) FROM stage_runs sr WHERE sr.round_id = r.id) AS seconds
FROM rounds r;

CREATE VIEW v_corrections AS
SELECT
  c.round_id          AS round,
  c.prompt_id,
  c.id                AS answer_id,
  c.corrects_id       AS original_id,
  c.editor,
  c.edits_json,
  o.text              AS original,
  c.text,
  so.n_rejected       AS original_n_rejected,
  s.n_claims,
  s.n_rejected
FROM candidates c
JOIN candidates o ON o.id = c.corrects_id
LEFT JOIN scores s ON s.candidate_id = c.id
LEFT JOIN scores so ON so.candidate_id = o.id
WHERE c.corrects_id IS NOT NULL;
