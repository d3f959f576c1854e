-- rlaifv store, schema version 5: streaming rounds read their work a slice of prompts at a time, by the prompts' input order.
CREATE INDEX round_prompts_ordinal ON round_prompts (round_id, ordinal);
