import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { ServiceName } from '@quire/service-kit';
import { startScriptFlags, testServiceKeys } from '@quire/service-kit/testing';
import { writeResult } from './results.ts';

// What the HTTP read benchmarks share: starting servers, waiting for them, loading them one after
// the other with autocannon and writing a table of the results beside the pg baseline.

export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const appDir = (app: string) => here(`../../../apps/${app}`);
export const serverScript = (name: string) => here(`../servers/${name}.ts`);

const children: ChildProcess[] = [];
// A benchmark that fails half-way leaves no server behind on its port.
process.on('exit', () => stopAll());

/**
 * Service `app`'s identity settings of this run: the process's test key set, which the services a
 * bench runs in-process (`testIdentity`) and the apps it starts share.
 */
export const identitySettings = (app: ServiceName) => ({ QUIRE_SERVICE_KEY: testServiceKeys().privateKeys[app]!, QUIRE_SERVICE_TRUST: testServiceKeys().trust });

/** Starts a built app as service `app`, with its key of this run. */
export function startApp(app: ServiceName, env: Record<string, string>): ChildProcess {
  // Its built entry (dist/, what deploys), with the node flags its image runs it with.
  return start(`${appDir(app)}/dist/main.js`, { ...identitySettings(app), ...env }, startScriptFlags(appDir(app)));
}

/** Starts a server process: the apps as built (with their start script's `flags`), the baselines through tsx. */
export function start(script: string, env: Record<string, string>, flags: string[] = []): ChildProcess {
  // BENCH_CPU_PROF=<dir>: the apps (built or from source) write a CPU profile there when they stop.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  // BENCH_NODE_FLAGS: flags to try on every built app, after its own.
  const extra = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const execArgv = script.endsWith('.ts') ? ['--import', 'tsx', ...(script.includes('/apps/') ? profile : [])] : [...flags, ...extra, ...profile];
  const child = fork(script, [], { execArgv, env: { ...process.env, ...env }, stdio: 'inherit' });
  child.on('exit', (code) => code && console.error(`${script} exited with ${code}`));
  children.push(child);
  return child;
}

/** The reader from source (tsx) on `port`, over the services at these addresses (and hearing their events under `eventsPrefix`). */
export function startReaderSource(port: number, addresses: { orgs: string; content: string; sites: string; insights: string; eventsPrefix?: string }) {
  const url = `http://127.0.0.1:${port}`;
  const child = start(here('../../../apps/reader/src/main.ts'), {
    ...identitySettings('reader'),
    READER_PORT: String(port),
    QUIRE_READER_URL: url,
    ORGS_URL: addresses.orgs,
    CONTENT_URL: addresses.content,
    SITES_URL: addresses.sites,
    INSIGHTS_URL: addresses.insights,
    ...(addresses.eventsPrefix ? { EVENTS_SUBJECT_PREFIX: addresses.eventsPrefix } : {}),
    LOG_LEVEL: 'warn',
  });
  return { url, child };
}

/** One autocannon run of GETs of `paths` (each connection walking them in turn). */
export function loadPaths(name: string, origin: string, paths: string[], duration: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url: origin, connections, duration, requests: paths.map((path) => ({ method: 'GET', path })) }, (err, r) => {
      if (err) return reject(err);
      resolve({ name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
    });
  });
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux): every thread's,
 * and its main thread's (the JavaScript; the others are libuv's, V8's and native libraries').
 */
export function processCpuMs(pid: number): { all: number; main: number } {
  const ms = (path: string) => {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  };
  return { all: ms(`/proc/${pid}/stat`), main: ms(`/proc/${pid}/task/${pid}/stat`) };
}
/** Starts a process's peak resident memory (VmHWM) again from what it holds now (Linux; root or the process's owner). */
export function resetPeakMemory(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** A process's peak resident memory (VmHWM) since it started or since resetPeakMemory, in MiB. */
export function peakMemoryMiB(pid: number): number {
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kib) / 1024);
}

// USER_HZ: 100 on every Linux build Node supports.
const CLOCK_TICKS = 100;

/**
 * Stops every server started; resolves once they have exited (their ports and databases free for
 * the next run), killing any still running after 15 s.
 */
export function stopAll(): Promise<void> {
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  const exited = Promise.all(running.map((c) => new Promise((resolve) => c.once('exit', resolve))));
  for (const c of running) c.kill('SIGTERM');
  const timer = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), 15_000).unref();
  return exited.then(() => clearTimeout(timer));
}

export async function waitForHttp(url: string, headers: Record<string, string> = {}, timeoutMs = 90_000) {
  for (let i = 0; i < timeoutMs / 200; i++) {
    if (
      await fetch(url, { headers }).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU per answered request of the servers this benchmark started, of PostgreSQL's processes and of the NATS server. */
  cpuMsPerRequest?: { servers: number; postgres: number; nats: number };
}

// A process's CPU so far; 0 once it is gone.
function cpuMs(pid: number): number {
  try {
    return processCpuMs(pid).all;
  } catch {
    return 0;
  }
}

function pidsOf(command: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith(command)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * CPU spent while `run` loads the servers, split between the processes this benchmark started,
 * PostgreSQL and NATS: steadier than throughput on a machine that other work shares, and it says where a
 * request's cost lies. Backends that start or end during the run count for what /proc saw of them.
 */
export async function measureCpu<T>(run: () => Promise<T>): Promise<{ result: T; servers: number; postgres: number; nats: number }> {
  const groups = { servers: () => children.map((c) => c.pid!).filter(Boolean), postgres: () => pidsOf('postgres'), nats: () => pidsOf('nats-server') };
  const snapshot = () => Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, new Map(pids().map((pid) => [pid, cpuMs(pid)]))]));
  const before = snapshot();
  const result = await run();
  const after = snapshot();
  const spent = (name: string) => [...after[name]!].reduce((a, [pid, ms]) => a + ms - (before[name]!.get(pid) ?? 0), 0);
  return { result, servers: spent('servers'), postgres: spent('postgres'), nats: spent('nats') };
}

export function load(name: string, url: string, headers: Record<string, string>, duration: number) {
  return new Promise<LoadResult>((resolve, reject) => {
    autocannon({ url, connections, duration, headers }, (err, r) => {
      if (err) return reject(err);
      resolve({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
    });
  });
}

/**
 * Loads each target in turn (a 2 s warm-up first: JIT, pools, the token cache), prints the table
 * with each result against the target named `baseline`, and writes it to results/<file>.json.
 */
export async function compare(file: string, targets: { name: string; url: string }[], headers: Record<string, string>, baseline: string) {
  const results: LoadResult[] = [];
  for (const t of targets) {
    await load(t.name, t.url, headers, 2);
    const { result, servers, postgres, nats } = await measureCpu(() => load(t.name, t.url, headers, seconds));
    const answered = result.rps * seconds;
    const perRequest = (ms: number) => Math.round((ms / answered) * 1000) / 1000;
    results.push({ ...result, cpuMsPerRequest: { servers: perRequest(servers), postgres: perRequest(postgres), nats: perRequest(nats) } });
  }
  const base = results.find((r) => r.name === baseline)!.rps;
  const table = results.map((r) => ({ ...r, rps: Math.round(r.rps), vsPgBaseline: `${Math.round((r.rps / base) * 100)}%` }));
  console.table(table);
  writeResult(file, { date: new Date().toISOString(), connections, seconds, results: table });
  return results;
}
