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

/** Failures of a call to another service that say "try again", not "this service is broken". */
const PASSED_ON: Partial<Record<GrpcStatus, string>> = {
  [GrpcStatus.UNAVAILABLE]: 'A service this call needs is unavailable',
  [GrpcStatus.DEADLINE_EXCEEDED]: 'A service this call needs did not answer in time',
};

/**
 * A domain error as grpc-js sends it; a call to another service that found it gone or too slow
 * (an instance killed mid-call, a rolling update) as that same status, so the caller can retry;
 * anything else becomes INTERNAL with a generic message.
 */
export function toServiceError(err: unknown): Partial<ServiceError> {
  if (err instanceof DomainError) {
    const metadata = new Metadata();
    metadata.set(ERROR_ID_KEY, err.id);
    return { code: err.code, details: err.message, metadata };
  }
  const passed = isServiceError(err) ? PASSED_ON[err.code] : undefined;
  if (passed) return { code: (err as ServiceError).code, details: passed };
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
