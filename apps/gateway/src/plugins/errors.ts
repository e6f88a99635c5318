import fp from 'fastify-plugin';
import type { FastifyError, FastifyRequest } from 'fastify';
import { DomainError, httpErrorFor, isServiceError, INTERNAL_MESSAGE } from '@quire/service-kit';

/** `message` for a failed validation: the field at fault first, e.g. `body.title: must NOT have fewer than 2 characters`. */
function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const context = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'request');
  const params = first.params as Record<string, unknown>;
  let path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (typeof params.missingProperty === 'string') path = path ? `${path}.${params.missingProperty}` : params.missingProperty;
  let message = first.message ?? 'is not valid';
  if (Array.isArray(params.allowedValues)) message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return path ? `${context}.${path}: ${message}` : `${context}: ${message}`;
}

/** A failure as the API says it: its status and message (a 5xx logged, its message never shown). */
export function apiError(err: FastifyError, req: FastifyRequest): { statusCode: number; message: string } {
  if (err.validation) return { statusCode: 400, message: validationMessage(err) };
  if (isServiceError(err) || err instanceof DomainError) {
    const answer = httpErrorFor(err);
    if (answer.statusCode >= 500) req.log.error({ err }, 'service call failed');
    return answer;
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return { statusCode: err.statusCode, message: err.message };
  req.log.error({ err }, 'request failed');
  return { statusCode: 500, message: INTERNAL_MESSAGE };
}

/** The one error handler: every failure answers `{error: {code, message}}`, as GitBook's API does. */
export default fp(async (app) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const { statusCode, message } = apiError(err, req);
    void reply
      .code(statusCode)
      .type('application/json')
      .send({ error: { code: statusCode, message } });
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: { code: 404, message: `No route ${req.method} ${req.url.split('?')[0]}` } });
  });
});
