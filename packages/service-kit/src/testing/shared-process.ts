import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminUrl } from './index.js';

// A process that test runs share (the stack of services): the first run that asks starts it, each
// run holds a lease (a connection to it) for as long as it tests, and it stops itself `graceMs`
// after the last lease ends. A run that is killed ends its lease with it: nothing is left running.
// The lease sockets are named in a pointer file, `<name>.json` in the temporary folder, which is
// read and rewritten under a PostgreSQL advisory lock so that two runs never start two processes.

export interface Lease<T> {
  /** What the process told of itself (addresses, keys). */
  info: T;
  /** Ends the lease. */
  release(): void;
}

const STARTUP_MS = 240_000;

/**
 * A lease on the process `script` serves for `name` (started with node and tsx, under `env`, if
 * none serves yet). Its output goes to `<name>.log` in the temporary folder.
 */
export async function leaseSharedProcess<T>(name: string, script: string, env: NodeJS.ProcessEnv): Promise<Lease<T>> {
  const pointer = join(tmpdir(), `${name}.json`);
  const lock = new pg.Client({ connectionString: adminUrl() });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const running = await attach<T>(readSocket(pointer));
    if (running) return running;
    const socket = join(tmpdir(), `${name}-${randomBytes(4).toString('hex')}.sock`);
    const logPath = join(tmpdir(), `${name}.log`);
    const log = openSync(logPath, 'w');
    const child = spawn(process.execPath, ['--import', 'tsx', script, socket], { detached: true, stdio: ['ignore', log, log], env });
    closeSync(log);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it served; ${logPath}:\n${readFileSync(logPath, 'utf8').slice(-4000)}`))),
    );
    const deadline = Date.now() + STARTUP_MS;
    for (;;) {
      const lease = await Promise.race([attach<T>(socket), exited]);
      if (lease) {
        child.unref();
        writeFileSync(pointer, JSON.stringify({ socket }));
        return lease;
      }
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`${script} did not serve within ${STARTUP_MS / 1000} s; see ${logPath}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await lock.end();
  }
}

function readSocket(pointer: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(pointer, 'utf8')) as { socket?: string }).socket;
  } catch {
    return undefined;
  }
}

/** A lease at `socket`: the process's first line, or undefined when nothing serves there (or it is stopping). */
function attach<T>(socket: string | undefined): Promise<Lease<T> | undefined> {
  if (!socket) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    let received = '';
    connection.on('data', (chunk) => {
      received += chunk.toString();
      const end = received.indexOf('\n');
      if (end < 0) return;
      connection.removeAllListeners('data');
      // The connection is the lease: it must not keep the run's process alive.
      connection.unref();
      resolve({ info: JSON.parse(received.slice(0, end)) as T, release: () => connection.destroy() });
    });
    connection.once('error', () => resolve(undefined));
    connection.once('close', () => resolve(undefined));
  });
}

/**
 * The process side: tells each lease `info` on `socket`, and runs `stop` then exits once no lease
 * has been held for `graceMs` (from the start too: a process nobody leases does not stay).
 */
export function serveLeases(socket: string, info: unknown, graceMs: number, stop: () => Promise<void>): void {
  let leases = 0;
  let idle = setTimeout(exit, graceMs);
  const server = createServer((connection) => {
    leases++;
    clearTimeout(idle);
    connection.on('error', () => {});
    connection.once('close', () => {
      if (--leases === 0) idle = setTimeout(exit, graceMs);
    });
    connection.write(`${JSON.stringify(info)}\n`);
  });
  server.listen(socket);
  let exiting = false;
  async function exit() {
    if (exiting) return;
    exiting = true;
    // No new lease from here: a run that connects now finds it closed and starts another process.
    server.close();
    await stop();
    process.exit(0);
  }
  process.once('SIGTERM', exit);
  process.once('SIGINT', exit);
}
