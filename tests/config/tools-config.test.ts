// label.tools and label.routing in the config: named errors, the routing file read into the config (so it is stored
// with the round and in its hash), and rounds without tools keeping their hash.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { configHash, loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { tempDir } from '../helpers/paths.js';

function load(label: unknown, files: Record<string, unknown> = {}): Config {
  const dir = tempDir();
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ label }));
  return loadConfig(file).config;
}

test('no tools and no routing hash as a config from before label.tools', () => {
  const c = loadConfig(undefined, { db: '/tmp/h.sqlite' }).config;
  const { tools: _t, routing: _r, ...label } = c.label;
  expect(configHash(c)).toBe(configHash({ ...c, label } as Config));
});

test('a routing file is read into the config, and the table changes the hash', () => {
  const tools = [{ type: 'shapes-segmenter', name: 'masks' }];
  const a = load({ tools, routing: 'r.json' }, { 'r.json': { routing: { count: 'masks' }, forms: {} } });
  expect(a.label.routing).toEqual({ count: 'masks' });
  expect(a.label.tools).toEqual([{ type: 'shapes-segmenter', name: 'masks', shape_heuristic: false }]);
  const b = load({ tools, routing: { count: 'labeler' } });
  expect(configHash(a)).not.toBe(configHash(b));
});

test('mistakes name the field and what is allowed', () => {
  const tools = [{ type: 'shapes-segmenter', name: 'masks' }];
  expect(() => load({ tools, routing: { count: 'detector' } })).toThrow(/label\.routing\.count: "detector" is not a tool of label\.tools; allowed: labeler, masks/);
  expect(() => load({ tools: [...tools, ...tools] })).toThrow(/label\.tools\.1\.name: "masks" is used by two tools/);
  expect(() => load({ routing: { count: 'labeler' } })).toThrow(/label\.routing: a routing table needs label\.tools/);
  expect(() => load({ tools, routing: 'missing.json' })).toThrow(/label\.routing: cannot read the routing file .*missing\.json/);
  expect(() => load({ tools, routing: 'r.json' }, { 'r.json': { forms: {} } })).toThrow(/has no valid "routing" object/);
  expect(() => load({ tools, routing: { counting: 'masks' } })).toThrow(/unknown key "counting" in label\.routing \(allowed: exists, not_exists, count,/);
  expect(() => load({ tools: [{ type: 'segmenter' }] })).toThrow(/label\.tools\.0\.type/);
});
