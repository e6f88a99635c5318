import Fastify from 'fastify';

// Baseline 1: the cheapest Fastify answer on this machine.
const app = Fastify({ logger: false });
app.get('/v1/orgs/:organizationId', async (req) => ({ object: 'organization', id: (req.params as { organizationId: string }).organizationId, title: 'Bench' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
