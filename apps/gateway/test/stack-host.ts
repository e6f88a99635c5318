import { prepareTemplates, serveLeases, testServiceKeys } from '@quire/service-kit/testing';
import { addressesOf, STACK_SERVICES, startStack } from './stack.ts';

// The test runs' shared stack of services, in a process of its own (global-setup.ts leases it):
// it serves its addresses and the service keys its services trust on the socket it is given, and
// stops, sweeping its databases and streams, a minute after the last run lets go of it.

const socket = process.argv[2];
if (!socket) throw new Error('usage: stack-host.ts <socket path>');
const sweep = await prepareTemplates(...STACK_SERVICES);
const stack = await startStack();
serveLeases(socket, { stack: addressesOf(stack), serviceKeys: testServiceKeys() }, 60_000, async () => {
  await stack.stop();
  await sweep();
});
