// Calls made together travel together (proto/quire/rpc/v1/batch.proto): the unary calls a client
// makes to one service in the same turn of its event loop go as one gRPC call, each keeping its
// own assertion, deadline and status. A call made alone goes alone, as a plain unary call, so an
// idle process pays nothing; under load one HTTP/2 stream, one set of headers and one pass through
// grpc-js's call layers serve many calls, which is most of what a call costs (bench/README.md,
// rpc-transport).
import {
  Metadata,
  status as GrpcStatus,
  type Client,
  type ClientReadableStream,
  type Deadline,
  type MethodDefinition,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { BatchServiceService, type CallRequest, type CallResponse, type Header } from '@quire/proto/rpc';
import { verifiedCaller, type ServiceIdentity } from './assertion.js';
import type { ServiceName } from './callers.js';
import type { ClientCall } from './client-middleware.js';
import { InvalidArgumentError, serviceError, toServiceError, UnauthenticatedError } from './errors.js';

/** The most calls one batch carries: a bound checked before any of them runs. */
export const MAX_CALLS_PER_BATCH = 64;
/** A request larger than this goes alone: batching saves per-call work, which a large message dwarfs. */
const BATCHED_REQUEST_BYTES = 64 * 1024;
/** After a server answers that it serves no batches (one deployed before them), calls go alone this long. */
const ALONE_AFTER_UNIMPLEMENTED_MS = 60_000;

const BATCH = BatchServiceService.call;

/** What a server does with one call: answers it through `answer`, with an error (a status) or the response; `deadline` is the caller's (ms since the epoch). */
export type RunCall = (request: unknown, metadata: Metadata, answer: (error: Partial<ServiceError> | null, response?: unknown) => void, deadline?: number) => void;

/** A method a server serves, found by its path in a batch. */
export interface Route {
  method: MethodDefinition<unknown, unknown>;
  run: RunCall;
}

/**
 * The server side: runs every inner call as if it had come alone (its assertion verified, then the
 * same handler path), answering each as it finishes. An inner call must be signed by the service
 * that sent the batch: a batch cannot carry another service's calls.
 */
export function serveBatches(routes: ReadonlyMap<string, Route>, identity: ServiceIdentity) {
  return (call: ServerWritableStream<CallRequest, CallResponse>) => {
    const from = verifiedCaller(call.metadata)?.chain.at(-1);
    const deadline = deadlineOf(call.getDeadline());
    const { calls } = call.request;
    if (!from) return void call.emit('error', toServiceError(new UnauthenticatedError('The call carries no verified service assertion')));
    if (calls.length > MAX_CALLS_PER_BATCH) {
      return void call.emit('error', toServiceError(new InvalidArgumentError(`A batch carries at most ${MAX_CALLS_PER_BATCH} calls, not ${calls.length}`)));
    }
    let pending = calls.length;
    if (pending === 0) return void call.end();
    const send = (answer: CallResponse) => {
      if (!call.cancelled) call.write(answer);
      if (--pending === 0) call.end();
    };
    calls.forEach((inner, index) => {
      const route = routes.get(inner.method);
      if (!route) return send(failed(index, { code: GrpcStatus.UNIMPLEMENTED, details: `No method ${inner.method.slice(0, 200)} here` }));
      let request: unknown;
      let metadata: Metadata;
      try {
        metadata = metadataOf(inner.headers);
        request = route.method.requestDeserialize(inner.request);
      } catch {
        return send(failed(index, toServiceError(new InvalidArgumentError(`Call ${index} of the batch is not a valid ${inner.method.slice(0, 200)} call`))));
      }
      identity.authenticate(metadata).then(
        (principal) => {
          if (principal.chain.at(-1) !== from) {
            return send(failed(index, toServiceError(new UnauthenticatedError('A batch carries only calls signed by the service that sent it'))));
          }
          route.run(request, metadata, (error, response) => send(error ? failed(index, error) : succeeded(index, route, response)), deadline);
        },
        (err: unknown) => send(failed(index, toServiceError(err))),
      );
    });
  };
}

function succeeded(index: number, route: Route, response: unknown): CallResponse {
  try {
    return { index, code: GrpcStatus.OK, details: '', response: route.method.responseSerialize(response), trailers: [] };
  } catch {
    // As grpc-js answers a unary call whose response does not encode.
    return failed(index, { code: GrpcStatus.INTERNAL, details: 'Failed to serialize response' });
  }
}

function failed(index: number, error: Partial<ServiceError>): CallResponse {
  const trailers = error.metadata ? headersOf(error.metadata) : [];
  return { index, code: error.code ?? GrpcStatus.UNKNOWN, details: error.details ?? '', response: Buffer.alloc(0), trailers };
}

/** A call's deadline as milliseconds since the epoch; none (grpc-js's Infinity) as undefined. */
export function deadlineOf(deadline: Deadline): number | undefined {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}

interface Pending {
  method: MethodDefinition<unknown, unknown>;
  bytes: Buffer;
  metadata: Metadata;
  timeoutMs: number;
  deadline?: number;
  settled: boolean;
  /** Once: whatever comes after a call's answer (its batch's end, a late error) is ignored. */
  settle(err: ServiceError | null, response?: unknown): void;
}

const asBytes = (bytes: Buffer) => bytes;
/** When a call must be answered: its own deadline, or its time bound counted from now. */
const deadlineFor = (call: Pending) => call.deadline ?? Date.now() + call.timeoutMs;

/**
 * The transport at the end of the client middleware chain, one per channel: `send` resolves with
 * the response or rejects with a `ServiceError`, as grpc-js does for a unary call; calls queued in
 * one turn of the event loop are sent when it ends (`setImmediate`), together when there are
 * several with the same deadline. `alone` sends a call at once, never batched (`unaryCall`).
 */
export class CallBatcher {
  #queue: Pending[] = [];
  #aloneUntil = 0;

  /** `identity` signs each batch for `audience` as itself; the calls inside keep their own assertions. */
  constructor(
    private readonly client: Client,
    private readonly identity: ServiceIdentity,
    private readonly audience: ServiceName,
  ) {}

  readonly send = (call: ClientCall): Promise<unknown> => {
    const bytes = call.method.requestSerialize(call.request);
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        method: call.method,
        bytes,
        metadata: call.metadata,
        timeoutMs: call.timeoutMs,
        deadline: call.deadline,
        settled: false,
        settle(err, response) {
          if (pending.settled) return;
          pending.settled = true;
          if (err) reject(err);
          else resolve(response);
        },
      };
      if (call.alone || bytes.length > BATCHED_REQUEST_BYTES || this.#aloneUntil > Date.now()) return this.#alone(pending);
      if (this.#queue.push(pending) === 1) setImmediate(this.#flush);
    });
  };

  readonly #flush = () => {
    const queue = this.#queue;
    this.#queue = [];
    // Calls serving one request share its deadline; the others their time bound (negative: never an instant).
    const byDeadline = new Map<number, Pending[]>();
    for (const call of queue) {
      const key = call.deadline ?? -call.timeoutMs;
      const same = byDeadline.get(key);
      if (same) same.push(call);
      else byDeadline.set(key, [call]);
    }
    for (const calls of byDeadline.values()) {
      for (let i = 0; i < calls.length; i += MAX_CALLS_PER_BATCH) {
        const batch = calls.slice(i, i + MAX_CALLS_PER_BATCH);
        if (batch.length === 1) this.#alone(batch[0]!);
        else void this.#together(batch);
      }
    }
  };

  #alone(call: Pending): void {
    try {
      this.client.makeUnaryRequest(call.method.path, asBytes, call.method.responseDeserialize, call.bytes, call.metadata, { deadline: deadlineFor(call) }, (err, res) =>
        call.settle(err ?? null, res),
      );
    } catch (err) {
      // grpc-js throws when the channel is closed (a process shutting down): the call fails, the process goes on.
      call.settle(err as ServiceError);
    }
  }

  async #together(calls: Pending[]): Promise<void> {
    let metadata: Metadata;
    try {
      metadata = await this.identity.metadata(this.audience, {});
    } catch (err) {
      return calls.forEach((call) => call.settle(serviceError(GrpcStatus.INTERNAL, err instanceof Error ? err.message : String(err))));
    }
    const request: CallRequest = { calls: calls.map((call) => ({ method: call.method.path, request: call.bytes, headers: headersOf(call.metadata) })) };
    let stream: ClientReadableStream<CallResponse>;
    try {
      stream = this.client.makeServerStreamRequest(BATCH.path, BATCH.requestSerialize, BATCH.responseDeserialize, request, metadata, {
        deadline: deadlineFor(calls[0]!),
      });
    } catch (err) {
      return calls.forEach((call) => call.settle(err as ServiceError));
    }
    let answered = 0;
    stream.on('data', (result: CallResponse) => {
      const call = calls[result.index];
      if (!call) return;
      answered++;
      let outcome: [ServiceError | null, unknown?];
      try {
        outcome =
          result.code === GrpcStatus.OK ? [null, call.method.responseDeserialize(result.response)] : [serviceError(result.code, result.details, metadataOf(result.trailers))];
      } catch {
        outcome = [serviceError(GrpcStatus.INTERNAL, 'The answer could not be decoded')];
      }
      call.settle(...outcome);
    });
    // The status comes before the answers still buffered: a failure is acted on at the end.
    let failure: ServiceError | undefined;
    stream.on('error', (err: ServiceError) => (failure = err));
    stream.on('end', () => {
      if (failure?.code === GrpcStatus.UNIMPLEMENTED && answered === 0) {
        // A server from before batches: the same calls, each alone.
        this.#aloneUntil = Date.now() + ALONE_AFTER_UNIMPLEMENTED_MS;
        return calls.forEach((call) => this.#alone(call));
      }
      for (const call of calls) if (!call.settled) call.settle(failure ?? serviceError(GrpcStatus.INTERNAL, 'The batch ended without this call answered'));
    });
  }
}

function headersOf(metadata: Metadata): Header[] {
  const headers: Header[] = [];
  for (const [key, value] of Object.entries(metadata.getMap())) if (typeof value === 'string') headers.push({ key, value });
  return headers;
}

function metadataOf(headers: Header[]): Metadata {
  const metadata = new Metadata();
  for (const { key, value } of headers) metadata.add(key, value);
  return metadata;
}
