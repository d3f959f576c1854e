-- rlaifv store, schema version 18: claim spans (issue 29). Numbered 18, not 15: 015 is the tools migration already
-- on main, and 016/017 are other work of the same wave.
-- Where each claim's source text sits in its answer: characters [span_start, span_end) of the candidate's text, as
-- the divider gave them (the rules divider's own span, or its sentence located in the answer). NULL for a claim the
-- divider rewrote so that it is not in the answer, and for rows stored before this migration (export --spans then
-- locates the sentence as it did before).
ALTER TABLE claims ADD COLUMN span_start INTEGER;
ALTER TABLE claims ADD COLUMN span_end INTEGER;

-- v_claims again, with the spans beside the claim.
DROP VIEW v_claims;
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
  cl.span_start,
  cl.span_end,
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
