-- rlaifv store, schema version 15: knowledge tools (label.tools, issue 23).
-- What a tool knows of an image, computed once per (tool, image) however many answers use it. `tool` is the tool's
-- id (its name and every setting that changes its output); the record is JSON (src/shapes/knowledge.ts).
CREATE TABLE tool_knowledge (
  tool            TEXT NOT NULL,
  image_id        TEXT NOT NULL REFERENCES images (id),
  knowledge_json  TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  PRIMARY KEY (tool, image_id)
) WITHOUT ROWID;

-- A round with tools stores its verdicts as labels under a verdict set's id (rounds.labeler_model): per question the
-- routed tool's verdict (p_yes/p_no 1/0) or, where the routing says labeler or the tool cannot tell, the labeler's own
-- row copied. So every reader of the round's labels (score, gate, pair, stats, views, exports, eval) reads the verdicts
-- that decided, unchanged, and the labeler's own p(yes)/p(no) stay under its own id.
CREATE TABLE verdict_sets (
  id            TEXT PRIMARY KEY,
  labeler       TEXT NOT NULL,                -- the labeler's own id (its rows in labels)
  tools_json    TEXT NOT NULL,                -- [{name, id}] of the tools
  routing_json  TEXT NOT NULL,                -- claim form -> source
  created_at    TEXT NOT NULL
);

-- Which source decided a label: NULL for the labeler's own rows; in a verdict set, 'labeler' or a tool's name.
ALTER TABLE labels ADD COLUMN source TEXT;
