// An endpoint that rests after failures in a row must wake the requests waiting for it when the rest ends, whatever
// the clock reads between two looks at it. The lost wake-up this guards against stalled a whole round for good (once in
// a whole-suite run: docs/testing.md, "A stalled fault round"): the wake timer fired one millisecond before the rest
// ended (timers run on libuv's clock, not Date.now()), the pool saw the endpoint still resting and woke nobody, then
// looked at the clock again to set the next timer, found the rest over and set none. Nothing was in flight, so nothing
// ever woke the waiters, and every later request queued behind them.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { EndpointPool } from '../../src/backends/openai/endpoints.js';
import type { ServerSettings } from '../../src/backends/openai/settings.js';

const settings = {
  model: 'm',
  base_urls: ['http://127.0.0.1:9/v1'],
  server: 'vllm',
  max_in_flight: 4,
  timeout_ms: 20_000,
  max_retries: 5,
  min_backoff_ms: 20,
  max_backoff_ms: 40,
  rest_after_failures: 3,
  rest_ms: 300,
} as unknown as ServerSettings;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Three requests fail once each (a dropped connection: retried), so the endpoint rests for rest_ms while their retries
 * wait for it. Just before the wake timer fires, the scripted clock is set to the rest's end, or (`race`) to one
 * millisecond before it, ticking over to the end right after its next reading. A fourth request is sent a minute of the
 * clock later. Resolves with the requests done within about 1 s of real time.
 */
async function restThenWake(race: boolean): Promise<number[]> {
  const start = 1_000_000_000_000;
  let clock = start;
  let tickTo: number | null = null;
  vi.spyOn(Date, 'now').mockImplementation(() => {
    const now = clock;
    if (tickTo !== null) {
      clock = tickTo;
      tickTo = null;
    }
    return now;
  });
  const pool = new EndpointPool('generate', settings);
  const attempts = new Map<number, number>();
  const request = (i: number) =>
    pool.request(async () => {
      const n = (attempts.get(i) ?? 0) + 1;
      attempts.set(i, n);
      if (n === 1 && i < 3) throw new Error('other side closed');
      return { value: i };
    });
  const done: number[] = [];
  for (const i of [0, 1, 2]) void request(i).then((v) => done.push(v));
  // The three failures came at `start` (the scripted clock stands still), so the rest ends at start + rest_ms; the
  // retries (20-40 ms of backoff) wait for it by now, and the wake timer fires at about 300 ms of real time.
  await sleep(250);
  const restEnd = start + settings.rest_ms;
  if (race) {
    clock = restEnd - 1;
    tickTo = restEnd;
  } else {
    clock = restEnd;
  }
  await sleep(300);
  clock = start + 60_000;
  void request(3).then((v) => done.push(v));
  await sleep(500);
  return done.sort();
}

describe('an endpoint that rested wakes the requests waiting for it', () => {
  test('the clock at the rest\'s end when the wake timer fires', async () => {
    expect(await restThenWake(false)).toEqual([0, 1, 2, 3]);
  });

  test('the clock one ms short of it at the timer, and past it at the next reading: still woken, and so are later requests', async () => {
    expect(await restThenWake(true)).toEqual([0, 1, 2, 3]);
  });
});

describe('with several endpoints, waiters go to the first one back', () => {
  test('an endpoint back from a short rest takes the waiters at once, while another still rests for longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const A = 'http://127.0.0.1:9/v1';
      const B = 'http://127.0.0.1:10/v1';
      const pool = new EndpointPool('generate', { ...settings, base_urls: [A, B], max_in_flight: 2, max_retries: 30, rest_ms: 1_000 } as ServerSettings);
      const failing = new Set<string>();
      let next = 0;
      const done: number[] = [];
      const send = (n: number) => {
        for (let k = 0; k < n; k++) {
          const i = next++;
          void pool.request(async (_http, _shape, endpoint) => {
            if (failing.has(endpoint)) throw new Error('other side closed');
            return { value: i };
          }).then((v) => done.push(v));
        }
      };
      const settle = async (ms: number) => {
        for (let t = 0; t < ms; t += 10) await vi.advanceTimersByTimeAsync(10);
      };
      // A fails three times in a row twice: it rests 1 s, then 2 s (its rest doubles while it keeps failing).
      failing.add(A);
      send(4);
      await settle(300);
      await settle(1_000);
      send(4);
      await settle(300);
      expect(done).toHaveLength(8); // B served them all
      // Now B fails three times in a row (rests 1 s) while six requests wait: A rests for another 1.7 s or so.
      failing.clear();
      failing.add(B);
      send(6);
      await settle(200);
      failing.clear(); // B is fine after its rest (A is never asked again before its own rest ends)
      expect(done).toHaveLength(8);
      await settle(1_000); // past B's rest, still inside A's
      expect(done).toHaveLength(14);
    } finally {
      vi.useRealTimers();
    }
  });
});
