-- rlaifv store, schema version 2: deliveries of pairs to consumers (exactly-once `rlaifv pull`) and the analyst
-- views (`rlaifv sql`). Views only read the tables of version 1; they add no data.

-- One successful pull: what was written where. An empty pull (no new pairs) is recorded too, with n_pairs 0.
CREATE TABLE deliveries (
  id          INTEGER PRIMARY KEY,
  consumer    TEXT    NOT NULL,
  format      TEXT    NOT NULL,                 -- trl, llamafactory, openrlhf, rlaifv
  container   TEXT    NOT NULL,                 -- jsonl, json, parquet
  target      TEXT    NOT NULL,                 -- absolute path of the delivered file, or '-' for stdout
  selector    TEXT    NOT NULL,                 -- the --round asked for: a number, 'latest' or 'all'
  n_pairs     INTEGER NOT NULL,
  bytes       INTEGER NOT NULL,
  sha256      TEXT    NOT NULL,                 -- of the delivered bytes, to check a file against its record
  created_at  TEXT    NOT NULL
);
CREATE INDEX deliveries_consumer ON deliveries (consumer, id);

-- Which pair went to which consumer, once: the primary key makes a second delivery of a pair to the same consumer
-- impossible, also when two pulls for one consumer race (the later commit fails and delivers nothing).
CREATE TABLE delivered_pairs (
  consumer     TEXT    NOT NULL,
  pair_id      TEXT    NOT NULL REFERENCES pairs (id),
  delivery_id  INTEGER NOT NULL REFERENCES deliveries (id),
  position     INTEGER NOT NULL,                -- 0-based row of the pair in the delivered file
  PRIMARY KEY (consumer, pair_id)
) WITHOUT ROWID;
CREATE INDEX delivered_pairs_delivery ON delivered_pairs (delivery_id, position);

-- Analyst views. Naming: `round` is the round id, `instruction` the prompt's question (so it is never confused with a
-- claim's yes/no `question`), `answer_id` a sampled answer (a candidates row), `image_path` the image as first seen.

-- Every sampled answer with its division and score.
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
LEFT JOIN scores s ON s.candidate_id = c.id;

-- Every claim with its yes/no question, the round's labeler's p(yes)/p(no) and the verdict under the round's accept
-- rule (feedback/verdict.ts): 'scripts' rejects unless p_yes > p_no (a tie is rejected); 'paper' rejects iff
-- p_no > p_yes. `rejected` is NULL while the claim has no usable label (none yet, unscored, or failed).
CREATE VIEW v_claims AS
SELECT
  c.round_id          AS round,
  c.prompt_id,
  cl.candidate_id     AS answer_id,
  c.sample_index,
  cl.idx,
  cl.id               AS claim_id,
  cl.sentence,
  cl.claim,
  cl.question_id,
  q.text              AS question,
  p.question          AS instruction,
  i.path              AS image_path,
  r.labeler_model     AS labeler,
  l.p_yes,
  l.p_no,
  l.bound_used,
  r.accept_rule,
  CASE
    WHEN l.p_yes IS NULL OR l.p_no IS NULL THEN NULL
    WHEN r.accept_rule = 'paper' THEN l.p_no > l.p_yes
    ELSE NOT (l.p_yes > l.p_no)
  END                 AS rejected,
  (SELECT f.reason FROM failures f WHERE f.round_id = c.round_id AND f.stage = 'label' AND f.item = cl.question_id)
                      AS label_failure
FROM claims cl
JOIN candidates c ON c.id = cl.candidate_id
JOIN rounds r ON r.id = c.round_id
JOIN questions q ON q.id = cl.question_id
JOIN prompts p ON p.id = c.prompt_id
JOIN images i ON i.id = q.image_id
LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = r.labeler_model;

-- Every pair with both answers' texts and scores. `kept` = what `rlaifv export` and `rlaifv pull` deliver: the pair is
-- of the round's score method and survived length balance (balance_kept = 1).
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
  (pr.balance_kept IS 1 AND pr.method = r.score_method) AS kept,
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
  pr.created_at
FROM pairs pr
JOIN rounds r ON r.id = pr.round_id
JOIN prompts p ON p.id = pr.prompt_id
JOIN images i ON i.id = p.image_id
JOIN candidates ch ON ch.id = pr.chosen_id
JOIN candidates rj ON rj.id = pr.rejected_id
LEFT JOIN scores sc ON sc.candidate_id = pr.chosen_id
LEFT JOIN scores sr ON sr.candidate_id = pr.rejected_id
LEFT JOIN round_prompts rp ON rp.round_id = pr.round_id AND rp.prompt_id = pr.prompt_id;

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
  r.score_method      AS method,
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
  (SELECT COUNT(*) FROM scores s WHERE s.round_id = r.id AND s.rej_c IS NOT NULL) AS scored_answers,
  (SELECT COUNT(*) FROM pairs p WHERE p.round_id = r.id AND p.method = r.score_method) AS pairs,
  (SELECT COUNT(*) FROM pairs p WHERE p.round_id = r.id AND p.method = r.score_method AND p.balance_kept = 1)
                      AS pairs_kept,
  (SELECT b.r FROM balances b WHERE b.round_id = r.id AND b.method = r.score_method) AS balance_r,
  (SELECT COUNT(*) FROM failures f WHERE f.round_id = r.id) AS failures,
  (SELECT SUM(sr.seconds) FROM stage_runs sr WHERE sr.round_id = r.id) AS seconds
FROM rounds r;

-- The length-balance decision per round and method: mean lengths (whitespace words) before and after.
CREATE VIEW v_balances AS
SELECT
  b.round_id          AS round,
  b.method,
  b.r,
  b.objective,
  json_extract(b.before_json, '$.n')           AS pairs_before,
  json_extract(b.before_json, '$.avgChosen')   AS avg_chosen_words_before,
  json_extract(b.before_json, '$.avgRejected') AS avg_rejected_words_before,
  json_extract(b.after_json, '$.n')            AS pairs_after,
  json_extract(b.after_json, '$.avgChosen')    AS avg_chosen_words_after,
  json_extract(b.after_json, '$.avgRejected')  AS avg_rejected_words_after
FROM balances b;

-- Deliveries, and which pair is which row of which delivered file.
CREATE VIEW v_deliveries AS
SELECT
  d.id                AS delivery,
  d.consumer,
  d.format,
  d.container,
  d.target,
  d.selector,
  d.n_pairs           AS pairs,
  (SELECT group_concat(x.round_id, ',') FROM (
     SELECT DISTINCT p.round_id FROM delivered_pairs dp JOIN pairs p ON p.id = dp.pair_id
     WHERE dp.delivery_id = d.id ORDER BY p.round_id) x) AS rounds,
  d.bytes,
  d.sha256,
  d.created_at
FROM deliveries d;

CREATE VIEW v_delivered_pairs AS
SELECT
  dp.consumer,
  dp.delivery_id      AS delivery,
  dp.position,
  dp.pair_id,
  p.round_id          AS round,
  p.prompt_id,
  d.created_at        AS delivered_at
FROM delivered_pairs dp
JOIN deliveries d ON d.id = dp.delivery_id
JOIN pairs p ON p.id = dp.pair_id;
