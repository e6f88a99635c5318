import { databaseUrlDefault } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import { openStore } from '@quire/orgs/store';
import { addMember, createOrganization, createToken, createUser } from '@quire/orgs/admin';
import { gitSyncQueue } from './lib/deployed.ts';
import { compare, serverScript, start, startApp, stopAll, waitForHttp, type LoadResult } from './lib/load.ts';

// Authenticated GET /v1/spaces/{id} through gateway -> content (gRPC; content asks orgs for the
// caller's membership) -> PostgreSQL, against one Fastify process reading the space and membership
// rows with pg. Content answers with its copies of review's counters and git-sync's link: review
// and git-sync run beside it (they own those copies) but are not asked on a read.

const orgsUrl = process.env.ORGS_DATABASE_URL ?? databaseUrlDefault('orgs');
const contentUrl = process.env.CONTENT_DATABASE_URL ?? databaseUrlDefault('content');
const reviewUrl = process.env.REVIEW_DATABASE_URL ?? databaseUrlDefault('review');
const gitSyncUrl = process.env.GIT_SYNC_DATABASE_URL ?? databaseUrlDefault('git-sync');

const { store, close } = openStore(orgsUrl, 2);
const tag = Date.now().toString(36);
const owner = await createUser(store, `bench-space-${tag}@example.com`, 'Bench');
const reader = await createUser(store, `bench-space-reader-${tag}@example.com`, 'Bench Reader');
const org = await createOrganization(store, `Bench spaces ${tag}`, owner.email);
await addMember(store, org.id, reader.email, Role.ROLE_READ);
const [{ token: ownerToken }, { token }] = [await createToken(store, owner.email), await createToken(store, reader.email)];
await close();

try {
  start(serverScript('space-direct'), { PORT: '18182', ORGS_DATABASE_URL: orgsUrl, CONTENT_DATABASE_URL: contentUrl, BENCH_USER_ID: reader.id });
  startApp('orgs', { ORGS_PORT: '51151', DATABASE_URL: orgsUrl, LOG_LEVEL: 'warn' });
  startApp('content', {
    CONTENT_PORT: '51152',
    ORGS_URL: '127.0.0.1:51151',
    REVIEW_URL: '127.0.0.1:51153',
    GIT_SYNC_URL: '127.0.0.1:51156',
    DATABASE_URL: contentUrl,
    LOG_LEVEL: 'warn',
    CONTENT_BLOB_DIR: '/tmp/quire-bench-blobs',
  });
  startApp('review', { REVIEW_PORT: '51153', ORGS_URL: '127.0.0.1:51151', CONTENT_URL: '127.0.0.1:51152', DATABASE_URL: reviewUrl, LOG_LEVEL: 'warn' });
  startApp('git-sync', {
    GIT_SYNC_PORT: '51156',
    CONTENT_URL: '127.0.0.1:51152',
    DATABASE_URL: gitSyncUrl,
    ...gitSyncQueue(),
    LOG_LEVEL: 'warn',
  });
  startApp('gateway', {
    PORT: '18180',
    ORGS_URL: '127.0.0.1:51151',
    CONTENT_URL: '127.0.0.1:51152',
    REVIEW_URL: '127.0.0.1:51153',
    GIT_SYNC_URL: '127.0.0.1:51156',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  await waitForHttp(`http://127.0.0.1:18180/v1/orgs/${org.id}`, { authorization: `Bearer ${ownerToken}` });
  const created = await fetch(`http://127.0.0.1:18180/v1/orgs/${org.id}/spaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Bench space' }),
  });
  const space = (await created.json()) as { id: string };
  const path = `/v1/spaces/${space.id}`;
  const headers = { authorization: `Bearer ${token}` };
  for (const url of ['http://127.0.0.1:18182/healthz', `http://127.0.0.1:18180${path}`]) await waitForHttp(url, headers);
  const results = await compare(
    'space-read',
    [
      { name: 'fastify + pg', url: `http://127.0.0.1:18182${path}` },
      { name: 'gateway -> content -> pg', url: `http://127.0.0.1:18180${path}` },
    ],
    headers,
    'fastify + pg',
  );
  const [base, full] = results as [LoadResult, LoadResult];
  console.log(`full path: ${Math.round((full.rps / base.rps) * 100)}% of the single-process pg baseline (target >= 50%), p99 ${full.p99} ms (target < 50 ms)`);
} finally {
  await stopAll();
}
