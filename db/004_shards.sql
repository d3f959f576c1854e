-- rlaifv store, schema version 4: shards. Every store knows its own id (so a merge can tell shards apart and merging
-- one twice changes nothing) and, when it holds a shard, which one.
CREATE TABLE store_info (
  key    TEXT PRIMARY KEY,
  value  TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO store_info (key, value) VALUES ('store_id', lower(hex(randomblob(16))));

-- Shard stores merged into this one.
CREATE TABLE merges (
  store_id   TEXT PRIMARY KEY,               -- the shard store's store_id
  file       TEXT NOT NULL,                  -- where it was merged from
  shard      TEXT,                           -- "i/n" when the store was a shard
  rounds     TEXT NOT NULL,                  -- JSON list of the round ids merged
  merged_at  TEXT NOT NULL
) WITHOUT ROWID;
