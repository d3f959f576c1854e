// Stages run out of order store nothing premature: score waits for labels, pair waits for scores.
import { describe, expect, test } from 'vitest';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { openDb } from '../../src/store/index.js';
import { createBackends, ingestPrompts, runStages, selectRound } from '../../src/pipeline/round.js';
import { tempDir } from '../helpers/paths.js';

describe('stage order', () => {
  test('score before label scores nothing; pair before score pairs nothing; in order they complete', async () => {
    const { config } = loadConfig(undefined, { db: path.join(tempDir(), 'o.sqlite'), samples: 3, workers: 2 });
    const backends = createBackends(config);
    const db = openDb(config.db);
    try {
      const ids = { policy: backends.generator.id, labeler: backends.labeler.id, divider: backends.divider.id };
      const round = selectRound(db, config, 'next', ids);
      await ingestPrompts(db, round, config, { limit: 3 });
      const count = (t: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
      await runStages(db, round, config, backends, ['generate', 'divide', 'score', 'pair']);
      expect(count('candidates')).toBe(9);
      expect(count('scores')).toBe(0);
      expect(count('pairings')).toBe(0);
      await runStages(db, round, config, backends, ['label', 'pair']);
      expect(count('pairings')).toBe(0);
      await runStages(db, round, config, backends, ['score', 'pair']);
      expect(count('scores')).toBe(9);
      expect(count('pairings')).toBe(3);
    } finally {
      db.close();
      await backends.close();
    }
  });
});
