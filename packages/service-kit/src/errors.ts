import { status as GrpcStatus, Metadata, type ServiceError } from '@grpc/grpc-js';

/**
 * Typed domain errors. Services throw these; the gRPC layer turns them into status codes and the
 * gateway turns those into HTTP. `id` is a stable machine id for logs and clients.
 */
export class DomainError extends Error {
  constructor(
    readonly code: GrpcStatus,
    readonly id: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidArgumentError extends DomainError {
  constructor(message: string, id = 'invalid_argument') {
    super(GrpcStatus.INVALID_ARGUMENT, id, message);
  }
}
export class UnauthenticatedError extends DomainError {
  constructor(message = 'Authentication required: send Authorization: Bearer <token>', id = 'unauthenticated') {
    super(GrpcStatus.UNAUTHENTICATED, id, message);
  }
}
export class PermissionDeniedError extends DomainError {
  constructor(message: string, id = 'permission_denied') {
    super(GrpcStatus.PERMISSION_DENIED, id, message);
  }
}
export class NotFoundError extends DomainError {
  constructor(message: string, id = 'not_found') {
    super(GrpcStatus.NOT_FOUND, id, message);
  }
}
export class AlreadyExistsError extends DomainError {
  constructor(message: string, id = 'already_exists') {
    super(GrpcStatus.ALREADY_EXISTS, id, message);
  }
}
export class ConflictError extends DomainError {
  constructor(message: string, id = 'conflict') {
    super(GrpcStatus.ABORTED, id, message);
  }
}
export class FailedPreconditionError extends DomainError {
  constructor(message: string, id = 'failed_precondition') {
    super(GrpcStatus.FAILED_PRECONDITION, id, message);
  }
}
export class ResourceExhaustedError extends DomainError {
  constructor(message: string, id = 'resource_exhausted') {
    super(GrpcStatus.RESOURCE_EXHAUSTED, id, message);
  }
}

const ERROR_ID_KEY = 'x-quire-error-id';
export const INTERNAL_MESSAGE = 'Internal error';

/**
 * The one rule for a failed call to another service. These answers were given on purpose (bad
 * input, not found, refused, conflict, over a limit): they say something to whoever asked, so they
 * pass on as they are, code and message.
 */
const RELAYED = new Set<GrpcStatus>([
  GrpcStatus.INVALID_ARGUMENT,
  GrpcStatus.OUT_OF_RANGE,
  GrpcStatus.NOT_FOUND,
  GrpcStatus.ALREADY_EXISTS,
  GrpcStatus.PERMISSION_DENIED,
  GrpcStatus.UNAUTHENTICATED,
  GrpcStatus.FAILED_PRECONDITION,
  GrpcStatus.ABORTED,
  GrpcStatus.RESOURCE_EXHAUSTED,
]);
/** A service gone or too slow (an instance killed mid-call, a rolling update) passes on as such, so the caller can retry; what went wrong where stays here. */
const RETRYABLE: Partial<Record<GrpcStatus, string>> = {
  [GrpcStatus.UNAVAILABLE]: 'A service this call needs is unavailable',
  [GrpcStatus.DEADLINE_EXCEEDED]: 'A service this call needs did not answer in time',
};

/**
 * What the caller learns of another service's failure: a refusal as it is, a service away as
 * UNAVAILABLE or DEADLINE_EXCEEDED, anything else (INTERNAL, UNKNOWN, UNIMPLEMENTED...) as INTERNAL;
 * `hidden` says the details were kept back (the client middleware logs them).
 */
export function relayedStatus(err: Pick<ServiceError, 'code' | 'details'>): { code: GrpcStatus; details: string; hidden: boolean } {
  if (RELAYED.has(err.code)) return { code: err.code, details: err.details, hidden: false };
  const retry = RETRYABLE[err.code];
  if (retry) return { code: err.code, details: retry, hidden: err.details !== retry };
  return { code: GrpcStatus.INTERNAL, details: INTERNAL_MESSAGE, hidden: err.details !== INTERNAL_MESSAGE || err.code !== GrpcStatus.INTERNAL };
}

/** An error answered on purpose, here (a domain error) or by another service (a relayed refusal): the call changed nothing. */
export const isRefusal = (err: unknown): boolean => err instanceof DomainError || (isServiceError(err) && RELAYED.has(err.code));

/**
 * A domain error as grpc-js sends it; another service's failure as `relayedStatus` says; anything
 * else becomes INTERNAL with a generic message.
 */
export function toServiceError(err: unknown): Partial<ServiceError> {
  if (err instanceof DomainError) {
    const metadata = new Metadata();
    metadata.set(ERROR_ID_KEY, err.id);
    return { code: err.code, details: err.message, metadata };
  }
  if (isServiceError(err)) {
    const { code, details } = relayedStatus(err);
    return { code, details };
  }
  return { code: GrpcStatus.INTERNAL, details: INTERNAL_MESSAGE };
}

const HTTP_FOR_GRPC: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.OUT_OF_RANGE]: 400,
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.ABORTED]: 409,
  [GrpcStatus.FAILED_PRECONDITION]: 412,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
};

/** A failure as grpc-js gives a unary call's callback. */
export function serviceError(code: GrpcStatus, details: string, metadata = new Metadata()): ServiceError {
  return Object.assign(new Error(`${code} ${GrpcStatus[code]}: ${details}`), { code, details, metadata });
}

export function isServiceError(err: unknown): err is ServiceError {
  return typeof err === 'object' && err !== null && 'code' in err && 'details' in err && 'metadata' in err;
}

/**
 * HTTP status and the message safe to show for a failed gRPC call or a domain error raised in
 * the gateway itself: internal details never leave.
 */
export function httpErrorFor(err: ServiceError | DomainError): { statusCode: number; message: string } {
  const statusCode = HTTP_FOR_GRPC[err.code] ?? 500;
  if (statusCode === 500) return { statusCode, message: INTERNAL_MESSAGE };
  if (statusCode === 503) return { statusCode, message: 'Service unavailable, try again' };
  if (statusCode === 504) return { statusCode, message: 'The service did not answer in time' };
  return { statusCode, message: err instanceof DomainError ? err.message : err.details };
}
