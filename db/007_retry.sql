-- rlaifv store, schema version 7: failed items retried within their round (`rlaifv run --retry-failed`).
-- A failure stays as history: `retried_at` is set when a run takes the item up again. Open failures (retried_at
-- NULL) block their item as before; an item that fails again reopens its row (latest reason, attempts + 1).
ALTER TABLE failures ADD COLUMN retried_at TEXT;
CREATE INDEX failures_open ON failures (round_id, stage) WHERE retried_at IS NULL;
