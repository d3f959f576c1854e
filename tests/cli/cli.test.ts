// The built `rlaifv` command end to end: a small round, then `stats --json`.
import { describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';

const rlaifv = (...args: string[]) => runCliSync(args, { cwd: tempDir() });

describe('rlaifv CLI', () => {
  test('run then stats --json report the same round', () => {
    const db = path.join(tempDir(), 'cli.sqlite');
    const run = rlaifv('run', '--db', db, '--limit', '3', '--samples', '4', '--workers', '2');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/round 1 \(done\)/);
    for (const stage of ['generate', 'divide', 'label', 'score', 'pair']) expect(run.stdout).toMatch(new RegExp(`\\n  ${stage}\\s`));
    const s = rlaifv('stats', '--db', db, '--json');
    expect(s.status, s.stderr).toBe(0);
    const stats = JSON.parse(s.stdout);
    for (const k of ['round', 'prompts', 'candidates', 'claims', 'questions', 'labeled', 'rejected_claims', 'pairs', 'pairs_after_balance', 'failures']) {
      expect(stats).toHaveProperty(k);
    }
    expect(stats.prompts).toBe(3);
    expect(stats.candidates).toBe(12);
    // The report of that round: one HTML file; an unknown round is exit 2 naming the latest one.
    const out = path.join(tempDir(), 'r.html');
    const rep = rlaifv('report', '--db', db, '--out', out);
    expect(rep.status, rep.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('id="rlaifv-data"');
    const missing = rlaifv('report', '--db', db, '--round', '99', '--out', out);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/round 99/i);
  });

  test('a config with an unknown key names the key and what is allowed', () => {
    const dir = tempDir();
    const cfg = path.join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ generate: { samples: 10, temprature: 0.7 } }));
    const r = rlaifv('run', '--config', cfg);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown key "temprature" in generate \(allowed: backend, samples, temperature, top_p, max_new_tokens\)/);
  });

  test('a wrongly typed field is named', () => {
    const cfg = path.join(tempDir(), 'bad.json');
    writeFileSync(cfg, JSON.stringify({ pair: { diff: 'one' } }));
    const r = rlaifv('run', '--config', cfg);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/field pair\.diff/);
  });

  test('a bad flag value says what is allowed', () => {
    const r = rlaifv('run', '--limit', 'ten');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--limit must be a whole number/);
  });
});
