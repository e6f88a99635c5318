import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

// Baseline of the reader benchmark: one process sending the same HTML files from disk.
const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root: process.env.STATIC_ROOT! });
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
