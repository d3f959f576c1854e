// The `db` of the embedded default config (under the working directory), read by the schema and by `storePath`,
// which must not load the schema.
export const DEFAULT_DB = 'db/rlaifv.sqlite';
