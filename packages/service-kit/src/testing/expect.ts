import type { status } from '@grpc/grpc-js';
import { expect } from 'vitest';

// Apart from index.ts: that one is also loaded by vitest's globalSetup, where `expect` is not.

/** The call fails with this gRPC status (and a message matching `message`, when given). */
export function rejects(call: Promise<unknown>, code: status, message?: RegExp) {
  return expect(call).rejects.toMatchObject({ code, ...(message ? { details: expect.stringMatching(message) } : {}) });
}
