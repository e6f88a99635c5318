import { databaseUrlDefault } from '@quire/service-kit';
import { openStore } from '@quire/orgs/store';
import { createOrganization, createToken, createUser } from '@quire/orgs/admin';
import { ARGON2_OPTIONS } from '@quire/orgs/passwords';
import { connections, load, seconds, startApp, stopAll, waitForHttp, type LoadResult } from './lib/load.ts';
import { writeResult } from './lib/results.ts';

// Sign-in throughput at the chosen argon2id cost (POST /auth/sign-in through gateway ->
// orgs -> argon2id -> PostgreSQL, each sign-in a new session), and GET /v1/user authenticated by
// the session cookie against the same request with a bearer token, in the same run.

const databaseUrl = process.env.ORGS_DATABASE_URL ?? databaseUrlDefault('orgs');
const password = 'bench password 0123';
const { store, close } = openStore(databaseUrl, 2);
const tag = Date.now().toString(36);
const user = await createUser(store, `bench-signin-${tag}@example.com`, 'Bench', password);
await createOrganization(store, `Bench ${tag}`, user.email);
const { token } = await createToken(store, user.email);
await close();

const base = 'http://127.0.0.1:18190';
try {
  startApp('orgs', { ORGS_PORT: '51161', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  startApp('gateway', {
    PORT: '18190',
    ORGS_URL: '127.0.0.1:51161',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '100000000',
    SIGN_IN_FAILURES_PER_ACCOUNT: '100000000',
    SIGN_IN_FAILURES_PER_ADDRESS: '100000000',
  });
  await waitForHttp(`${base}/v1/user`, { authorization: `Bearer ${token}` });

  // Sign-in: a few concurrent clients for `seconds` (argon2id is CPU-bound: more clients only queue).
  const signIn = () => fetch(`${base}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password }) });
  const times: number[] = [];
  let cookie = '';
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        const res = await signIn();
        if (res.status !== 204) throw new Error(`sign-in answered ${res.status}`);
        cookie = res.headers.get('set-cookie')!.split(';')[0]!;
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const signInResult = { rps: times.length / seconds, p50: times[times.length >> 1]!, p99: times[Math.floor(times.length * 0.99)]! };

  // Cookie against bearer on GET /v1/user, alternated twice each so drift of the machine shows.
  const targets: { name: string; headers: Record<string, string> }[] = [
    { name: 'bearer', headers: { authorization: `Bearer ${token}` } },
    { name: 'cookie', headers: { cookie } },
  ];
  for (const t of targets) await load(t.name, `${base}/v1/user`, t.headers, 2);
  const runs: LoadResult[] = [];
  for (let round = 0; round < 2; round++) for (const t of targets) runs.push(await load(t.name, `${base}/v1/user`, t.headers, seconds));
  const avg = (name: string) => {
    const rs = runs.filter((r) => r.name === name);
    return {
      rps: rs.reduce((a, r) => a + r.rps, 0) / rs.length,
      p50: rs.reduce((a, r) => a + r.p50, 0) / rs.length,
      p99: Math.max(...rs.map((r) => r.p99)),
      errors: rs.reduce((a, r) => a + r.errors + r.non2xx, 0),
    };
  };
  const [bearer, byCookie] = [avg('bearer'), avg('cookie')];
  const result = {
    date: new Date().toISOString(),
    argon2id: ARGON2_OPTIONS,
    signIn: { clients: 4, seconds, ...signInResult },
    getUser: { connections, seconds, rounds: 2, bearer, cookie: byCookie, cookieVsBearerRps: `${Math.round((byCookie.rps / bearer.rps) * 100)}%` },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`cookie auth: ${Math.round((byCookie.rps / bearer.rps) * 100)}% of bearer throughput (target >= 90%)`);
  writeResult('sign-in', result);
} finally {
  await stopAll();
}
