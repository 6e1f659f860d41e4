// What a user would pick instead (issue 25): HTTP Toolkit's capture engine,
// mockttp, run as HTTP Toolkit's UI uses it. It answers 200 to any request and
// keeps every completed request with its body in memory, as the UI receives
// them through the `request` event (nothing durable). recordTraffic is off
// because the `request` listener already keeps each one: with both it would
// keep every request twice.
import { getLocal, type CompletedRequest } from 'mockttp';
import { answerParent } from './bench-child.ts';

const server = getLocal({ recordTraffic: false });
const captured: CompletedRequest[] = [];
// mockttp has no host option: it listens on every interface, as HTTP Toolkit does;
// the benchmark sends to 127.0.0.1 only (load.ts refuses any other address).
await server.start(0);
await server.on('request', (req) => {
  captured.push(req);
});
const answer = '{"success":true}';
// With headers given, mockttp writes exactly those: without a length the answer would
// run until the connection closes, and a keep-alive client would never see its end.
await server.forAnyRequest().thenReply(200, answer, {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(answer)),
});

answerParent(
  { url: `http://127.0.0.1:${server.port}/webhook/mockttp` },
  {
    /** Requests captured with their bodies, and the bytes of those bodies: proof it kept them. */
    captured: async () => ({
      requests: captured.length,
      bodyBytes: captured.reduce((n, r) => n + r.body.buffer.length, 0),
    }),
    stop: () => server.stop(),
  },
);
