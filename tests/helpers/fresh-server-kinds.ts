// Each test starts its own servers, on ports the OS may have handed an earlier test's server in the same process
// (vitest.config.ts runs a worker's files in one process): the kind detected per base URL is forgotten before each
// test, so a new server is asked afresh (server-kind.ts, forgetServerKinds).
import { beforeEach } from 'vitest';
import { forgetServerKinds } from '../../src/backends/openai/server-kind.js';

beforeEach(() => {
  forgetServerKinds();
});
