#!/usr/bin/env node
// The floor under figure 10's burst: an HTTP server that reads and parses each /get_reward body as rlaifv serve does
// and answers at once with OpenRLHF's reply shape (one reward of 0), no scoring. The same client against it measures
// what sending N concurrent requests costs on this machine alone, in the same run.
//
//   node scripts/bench/noop-reward.mjs
// Prints {"port": N} on its first stdout line when listening; SIGTERM ends it.
import http from 'node:http';

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const n = Array.isArray(body.query) ? body.query.length : 0;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ rewards: new Array(n).fill(0), scores: new Array(n).fill(0), extra_logs: {} }));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => process.exit(0));
