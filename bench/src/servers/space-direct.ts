import Fastify from 'fastify';
import pg from 'pg';

// Baseline for GET /v1/spaces/{id}: one process reading the rows the full path reads (the space
// from the content database, the caller's membership from the orgs database) straight with pg.
const content = new pg.Pool({ connectionString: process.env.CONTENT_DATABASE_URL, max: 10 });
const orgs = new pg.Pool({ connectionString: process.env.ORGS_DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID!;
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/v1/spaces/:spaceId', async (req, reply) => {
  const { rows } = await content.query(`SELECT * FROM "Space" WHERE id = $1 AND "deletedAt" IS NULL`, [(req.params as { spaceId: string }).spaceId]);
  const s = rows[0];
  const member = s && (await orgs.query(`SELECT role FROM "Member" WHERE "organizationId" = $1 AND "userId" = $2`, [s.organizationId, userId])).rows[0];
  if (!member) return reply.code(404).send({ error: { code: 404, message: 'Space not found' } });
  return {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    editMode: s.editMode,
    organization: s.organizationId,
    revision: s.revisionId,
    defaultLevel: null,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    permissions: { view: true, edit: member.role !== 'read' },
  };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
