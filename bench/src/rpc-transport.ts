import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { OrgsServiceClient, OrgsServiceService, type GetOrganizationRequest, type Organization, type OrgsServiceServer } from '@quire/proto/orgs';
import { createClient, createLogger, implement, loadServiceIdentity, promiseClient, startGrpcServer, unaryCall, type Handlers } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import { identitySettings, processCpuMs } from './lib/load.ts';
import { writeResult } from './lib/results.ts';

// What the gateway -> service hop costs in CPU, by transport: the same unary call (orgs'
// GetOrganization messages, encoded by the generated code; the signed assertion, verified by the
// server, the request id, client address and user agent as headers) over grpc-js as the services
// run it (service-kit's client and server, calls made together sent as one batch), over grpc-js
// with every call alone (as before batches), over Node's http2 with the gRPC framing and nothing
// else (the floor of any gRPC client in Node), and as a protobuf POST over HTTP/1.1 keep-alive. The server waits 1 ms before answering, standing in for
// the query. 50 calls in flight, BENCH_SECONDS (5) each after a 2 s warm-up; CPU per call of the
// client (this process) and of the server (a child), from /proc.

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const inFlight = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WAIT_MS = 1;
const method = OrgsServiceService.getOrganization;
const organization: Organization = {
  id: 'org_0123456789abcdef',
  title: 'Bench organization',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  emailDomains: ['example.com'],
  type: 'business',
  defaultRole: Role.ROLE_READ,
  sso: false,
  ai: false,
  inviteLinks: true,
  plan: 'free',
};

if (process.argv[2] === 'serve') {
  // This run's keys, handed down by the client process.
  const identity = loadServiceIdentity('orgs', process.env);
  const wait = () => new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  // The plain servers check the assertion as the interceptor does (a cache hit after the first call).
  const answer = (assertion: unknown, reply: (body: Buffer) => void) =>
    void identity
      .verify(String(assertion).slice(7))
      .then(wait)
      .then(() => reply(method.responseSerialize(organization)));
  const handlers: Partial<Handlers<OrgsServiceServer>> = {
    getOrganization: async () => {
      await wait();
      return organization;
    },
  };
  const grpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    identity,
    log: createLogger('bench', 'silent'),
    services: [
      {
        definition: OrgsServiceService,
        implementation: implement(handlers as Handlers<OrgsServiceServer>, createLogger('bench', 'silent')),
        name: 'quire.orgs.v1.OrgsService',
      },
    ],
  });
  const h2 = http2.createServer();
  h2.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      method.requestDeserialize(Buffer.concat(chunks).subarray(5));
      answer(headers.authorization, (body) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(framed(body));
      });
    });
  });
  const h1 = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      method.requestDeserialize(Buffer.concat(chunks));
      answer(req.headers.authorization, (body) => res.writeHead(200, { 'content-type': 'application/proto', 'content-length': body.length }).end(body));
    });
  });
  const listen = (s: http.Server | http2.Http2Server) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
  process.send!({ grpc: grpc.port, h2: await listen(h2), h1: await listen(h1) });
} else {
  const server = fork(fileURLToPath(import.meta.url), ['serve'], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...identitySettings('orgs') } });
  const ports = await new Promise<{ grpc: number; h2: number; h1: number }>((resolve) => server.once('message', (m) => resolve(m as never)));
  const identity = loadServiceIdentity('gateway', identitySettings('gateway'));
  const caller = () => ({ userId: 'usr_0123456789abcdef', requestId: randomUUID(), ip: '127.0.0.1', userAgent: 'autocannon/8.0.0' });
  // The plain clients send what the deployed one does: the metadata service-kit builds.
  const headers = async () => (await identity.metadata('orgs', caller())).getMap() as Record<string, string>;
  const request: GetOrganizationRequest = { organizationId: organization.id };

  const grpcClient = createClient(OrgsServiceClient, `127.0.0.1:${ports.grpc}`);
  const orgs = promiseClient(grpcClient, OrgsServiceService, { identity, audience: 'orgs' });
  const viaGrpc = () => orgs.getOrganization(request, caller());
  const viaGrpcAlone = () => unaryCall(grpcClient, grpcClient.getOrganization, request, caller(), { identity, audience: 'orgs' });

  const session = http2.connect(`http://127.0.0.1:${ports.h2}`);
  const viaH2 = async () => {
    const sent = await headers();
    return new Promise<Organization>((resolve, reject) => {
      const req = session.request({ ':method': 'POST', ':path': method.path, 'content-type': 'application/grpc', te: 'trailers', ...sent });
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(method.responseDeserialize(Buffer.concat(chunks).subarray(5))));
      req.on('error', reject);
      req.end(framed(method.requestSerialize(request)));
    });
  };

  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const viaH1 = async () => {
    const sent = await headers();
    return new Promise<Organization>((resolve, reject) => {
      const body = method.requestSerialize(request);
      const req = http.request(
        { agent, host: '127.0.0.1', port: ports.h1, method: 'POST', path: method.path, headers: { 'content-type': 'application/proto', 'content-length': body.length, ...sent } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(method.responseDeserialize(Buffer.concat(chunks))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };

  const run = async (call: () => Promise<Organization>, ms: number) => {
    let calls = 0;
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (Date.now() < end) {
          await call();
          calls++;
        }
      }),
    );
    return calls;
  };
  const results = [];
  try {
    for (const [name, call] of [
      ['grpc-js through service-kit, calls batched (as deployed)', viaGrpc],
      ['grpc-js, every call alone', viaGrpcAlone],
      ['node http2, gRPC framing', viaH2],
      ['HTTP/1.1 keep-alive, protobuf body', viaH1],
    ] as const) {
      await run(call, 2000);
      const [client, served] = [processCpuMs(process.pid).all, processCpuMs(server.pid!).all];
      const calls = await run(call, seconds * 1000);
      const perCall = (ms: number) => Math.round((ms / calls) * 1000) / 1000;
      results.push({
        name,
        callsPerSecond: Math.round(calls / seconds),
        cpuMsPerCall: { client: perCall(processCpuMs(process.pid).all - client), server: perCall(processCpuMs(server.pid!).all - served) },
      });
    }
  } finally {
    grpcClient.close();
    session.close();
    agent.destroy();
    server.kill();
  }
  console.table(results.map((r) => ({ name: r.name, callsPerSecond: r.callsPerSecond, clientMs: r.cpuMsPerCall.client, serverMs: r.cpuMsPerCall.server })));
  writeResult('rpc-transport', { date: new Date().toISOString(), inFlight, seconds, serverWaitMs: WAIT_MS, results });
}

/** A gRPC length-prefixed message: uncompressed flag, 4-byte big-endian length, the bytes. */
function framed(message: Buffer): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}
