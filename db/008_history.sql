-- rlaifv store, schema version 8: multi-turn prompts. The earlier turns of a conversation ([{role, content}], user
-- first, alternating, the image in the first user turn) as JSON; NULL for a single-turn prompt. `question` stays the
-- last user turn, the one the policy answers.
ALTER TABLE prompts ADD COLUMN history_json TEXT;
