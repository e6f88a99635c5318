import Fastify from 'fastify';
import pg from 'pg';

// Baseline 2: one process reading the same rows as the full path (the organization joined with
// the caller's membership) straight from PostgreSQL, with the token checked against a hash in memory.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID!;
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/v1/orgs/:organizationId', async (req, reply) => {
  const { rows } = await pool.query(
    `SELECT o.*, m.role AS "callerRole" FROM "Member" m JOIN "Organization" o ON o.id = m."organizationId"
     WHERE m."organizationId" = $1 AND m."userId" = $2`,
    [(req.params as { organizationId: string }).organizationId, userId],
  );
  if (rows.length === 0) return reply.code(404).send({ error: { code: 404, message: 'Organization not found' } });
  const o = rows[0];
  return { object: 'organization', id: o.id, title: o.title, createdAt: o.createdAt, emailDomains: o.emailDomains, defaultRole: o.defaultRole, role: o.callerRole };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
