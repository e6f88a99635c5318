import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { ConflictError, httpErrorFor, INTERNAL_MESSAGE, InvalidArgumentError, NotFoundError, toServiceError } from './errors.js';

describe('errors across the wire', () => {
  it('sends a domain error with its code, message and id, and hides anything else', () => {
    const sent = toServiceError(new ConflictError('The organization must keep at least one admin', 'last_admin'));
    expect(sent).toMatchObject({ code: status.ABORTED, details: 'The organization must keep at least one admin' });
    expect((sent.metadata as Metadata).get('x-quire-error-id')).toEqual(['last_admin']);
    expect(toServiceError(new Error('connection string postgres://secret@db'))).toEqual({ code: status.INTERNAL, details: INTERNAL_MESSAGE });
  });

  it('passes on an upstream service that is gone or too slow as such (503/504 at the gateway), its details hidden', () => {
    const upstream = (code: status) =>
      Object.assign(new Error('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.0.0.7:50051'), {
        code,
        details: 'connect ECONNREFUSED 10.0.0.7:50051',
        metadata: new Metadata(),
      });
    expect(toServiceError(upstream(status.UNAVAILABLE))).toEqual({ code: status.UNAVAILABLE, details: 'A service this call needs is unavailable' });
    expect(toServiceError(upstream(status.DEADLINE_EXCEEDED))).toEqual({ code: status.DEADLINE_EXCEEDED, details: 'A service this call needs did not answer in time' });
    // A failure that is not a refusal is this service's problem to report, not to relay.
    expect(toServiceError(upstream(status.INTERNAL))).toEqual({ code: status.INTERNAL, details: INTERNAL_MESSAGE });
    expect(toServiceError(upstream(status.UNIMPLEMENTED))).toEqual({ code: status.INTERNAL, details: INTERNAL_MESSAGE });
  });

  it('passes on a refusal of an upstream service (not found, refused, bad input, conflict, over a limit) as it is', () => {
    const refusal = (code: status) => Object.assign(new Error('x'), { code, details: `space "s1": refused (${code})`, metadata: new Metadata() });
    for (const code of [status.NOT_FOUND, status.INVALID_ARGUMENT, status.PERMISSION_DENIED, status.FAILED_PRECONDITION, status.ALREADY_EXISTS, status.RESOURCE_EXHAUSTED]) {
      expect(toServiceError(refusal(code))).toEqual({ code, details: `space "s1": refused (${code})` });
    }
  });

  it('maps gRPC codes to the HTTP statuses the API answers, without internal details', () => {
    const wire = (code: status, details: string) => Object.assign(new Error(details), { code, details, metadata: new Metadata() });
    expect(httpErrorFor(wire(status.INVALID_ARGUMENT, 'title: too short'))).toEqual({ statusCode: 400, message: 'title: too short' });
    expect(httpErrorFor(wire(status.NOT_FOUND, 'Team not found'))).toEqual({ statusCode: 404, message: 'Team not found' });
    expect(httpErrorFor(wire(status.ALREADY_EXISTS, 'taken')).statusCode).toBe(409);
    expect(httpErrorFor(wire(status.FAILED_PRECONDITION, 'x')).statusCode).toBe(412);
    expect(httpErrorFor(wire(status.RESOURCE_EXHAUSTED, 'x')).statusCode).toBe(429);
    expect(httpErrorFor(wire(status.UNAVAILABLE, 'connect ECONNREFUSED 10.0.0.1'))).toEqual({ statusCode: 503, message: 'Service unavailable, try again' });
    expect(httpErrorFor(wire(status.UNKNOWN, 'stack trace'))).toEqual({ statusCode: 500, message: INTERNAL_MESSAGE });
    expect(httpErrorFor(new InvalidArgumentError('limit: must be at most 1000'))).toEqual({ statusCode: 400, message: 'limit: must be at most 1000' });
    expect(httpErrorFor(new NotFoundError('Organization not found')).statusCode).toBe(404);
  });
});
