// Error bodies of every shape real servers send reach rlaifv with their text: the OpenAI SDK alone reads only
// `body.error`, so SGLang's flat envelope and FastAPI's `detail` would read "400 status code (no body)".
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import OpenAI from 'openai';
import { errorEnvelope, openaiClient, readableError } from '../../src/backends/openai/client.js';

const FLAT = {
  object: 'error',
  message: 'Requested sample logprobs of 21, which is greater than max allowed: 20',
  type: 'BadRequestError',
  param: null,
  code: 400,
};

describe('readableError', () => {
  test('nested (OpenAI, vLLM ≥ 0.10.1): kept as it is', () => {
    expect(readableError(JSON.stringify({ error: { message: 'm', type: 'BadRequestError', param: null, code: 400 } }))).toEqual({
      error: { message: 'm', type: 'BadRequestError', param: null, code: 400, envelope: 'nested' },
    });
  });
  test('flat (SGLang, vLLM before 0.10.1): moved under error', () => {
    expect(readableError(JSON.stringify(FLAT))).toEqual({ error: { message: FLAT.message, type: 'BadRequestError', param: null, code: 400, envelope: 'flat' } });
  });
  test("FastAPI's detail: a string, or a validation list", () => {
    expect(readableError('{"detail":"Not Found"}')).toEqual({ error: { message: 'Not Found', envelope: 'fastapi' } });
    const list = { detail: [{ type: 'missing', loc: ['body', 'lora_name'], msg: 'Field required', input: {} }] };
    expect(readableError(JSON.stringify(list))!.error.message).toBe('lora_name: Field required');
  });
  test('an error that is a string (TGI, proxies), and text that is not JSON', () => {
    expect(readableError('{"error":"Input validation error","error_type":"validation"}')).toEqual({
      error: { message: 'Input validation error', type: 'validation', envelope: 'flat' },
    });
    expect(readableError('<html>502 Bad Gateway</html>')).toBeNull();
  });
});

describe('through the SDK, against a real server', () => {
  let server: http.Server;
  let url = '';
  const bodies: Record<string, [number, string]> = {
    '/v1/nested/chat/completions': [400, JSON.stringify({ error: { message: FLAT.message, type: 'BadRequestError', param: null, code: 400 } })],
    '/v1/flat/chat/completions': [400, JSON.stringify(FLAT)],
    '/v1/fastapi/chat/completions': [404, '{"detail":"Not Found"}'],
    '/v1/text/chat/completions': [502, '<html>502 Bad Gateway</html>'],
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const [status, body] = bodies[req.url ?? ''] ?? [404, '{"detail":"Not Found"}'];
      req.resume();
      res.writeHead(status, { 'content-type': body.startsWith('<') ? 'text/html' : 'application/json' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const call = async (shape: string) => {
    const c = await openaiClient(`${url}/${shape}`, null);
    try {
      await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    } catch (e) {
      return e as InstanceType<typeof OpenAI.APIError>;
    }
    throw new Error('no error');
  };

  test.each(['nested', 'flat'])('%s: the message is the server\'s text', async (shape) => {
    const e = await call(shape);
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.message).toBe(`400 ${FLAT.message}`);
    expect(errorEnvelope(e)).toBe(shape);
  });

  test('fastapi: a 404 says Not Found and is told apart from a model the server does not serve', async () => {
    const e = await call('fastapi');
    expect(e).toBeInstanceOf(OpenAI.NotFoundError);
    expect(e.message).toBe('404 Not Found');
    expect(errorEnvelope(e)).toBe('fastapi');
  });

  test('a plain SDK client reads none of the flat text (what rlaifv saw before)', async () => {
    const c = new OpenAI({ baseURL: `${url}/flat`, apiKey: 'x', maxRetries: 0 });
    const e = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((x: Error) => x);
    expect((e as Error).message).toBe('400 status code (no body)');
  });

  test('a text body is left as text', async () => {
    const e = await call('text');
    expect(e.status).toBe(502);
    expect(e.message).toContain('502 Bad Gateway');
    expect(errorEnvelope(e)).toBeNull();
  });
});
