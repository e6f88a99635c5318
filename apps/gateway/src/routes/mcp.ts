import type { FastifyPluginAsync } from 'fastify';
import { answerMcp, jsonRpcError, MCP_REFUSED, mcpRequestError } from '@quire/service-kit/mcp';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { EventSink } from '@quire/service-kit/nats';
import type { Authenticator } from '../credentials.ts';
import { apiAs } from '../mcp/api.ts';
import { readTools, writeTools, type ToolContext } from '../mcp/tools.ts';
import { identify } from '../plugins/auth.ts';
import { apiError } from '../plugins/errors.ts';
import type { Sessions } from '../sessions.ts';

const INSTRUCTIONS =
  "Quire's documentation of the organizations you belong to. Find spaces with listSpaces, search with searchDocumentation, read pages with getPage. " +
  'With a write token, propose edits in a change request (createChangeRequest, writePage, comment): nothing is written to a space directly.';

/** Arguments an audit entry keeps of a call: ids and the query, never page bodies. */
const AUDITED = ['organizationId', 'spaceId', 'changeRequestId', 'pageId', 'path', 'query', 'subject'];

/**
 * The organization's MCP server (`/mcp`, Streamable HTTP): for members, with an API token (or
 * the session). Read tokens get the read tools; write tokens also those that open and edit change
 * requests. Every call is in the audit log of the organization it touched.
 */
const mcp: FastifyPluginAsync<{ authenticator: Authenticator; sessions: Sessions; events: EventSink; version: string }> = async (
  app,
  { authenticator, sessions, events, version },
) => {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    // Every failure as JSON-RPC, which is what an MCP client reads: a body the server could not
    // take (naming the limit of one too large), a refused credential, a failure of the API's.
    errorHandler: (err, req, reply) => {
      const fault = mcpRequestError(err, req.routeOptions.bodyLimit);
      if (fault) return reply.code(fault.status).send(fault.body);
      const { statusCode, message } = apiError(err, req);
      if (statusCode === 401) void reply.header('www-authenticate', 'Bearer');
      const code = statusCode === 401 || statusCode === 403 ? MCP_REFUSED : statusCode < 500 ? ErrorCode.InvalidRequest : ErrorCode.InternalError;
      return reply.code(statusCode).send(jsonRpcError(code, message));
    },
    handler: async (req, reply) => {
      const { readOnly } = await identify(req, authenticator, sessions);
      const ctx: ToolContext = { api: apiAs(app, req), touched: new Set() };
      const tools = readOnly ? readTools(ctx) : [...readTools(ctx), ...writeTools(ctx)];
      return answerMcp(req, reply, { name: 'quire', version, instructions: INSTRUCTIONS }, { tools }, ({ tool, args, result }) => {
        const details = { tool, succeeded: !result.isError, ...Object.fromEntries(AUDITED.filter((k) => args[k] !== undefined).map((k) => [k, args[k]])) };
        const target = typeof args.spaceId === 'string' ? { type: 'space', id: args.spaceId } : undefined;
        for (const organizationId of ctx.touched) void events.emit(req.caller, { entity: 'mcp', verb: 'called', organizationId, ...(target ? { target } : {}), details });
        ctx.touched.clear();
      });
    },
  });
};

export default mcp;
