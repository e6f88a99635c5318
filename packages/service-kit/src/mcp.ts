import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Static, TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyReply, FastifyRequest } from 'fastify';

// The Model Context Protocol over Streamable HTTP, served statelessly: each POST carries its own
// credentials and stands alone, so any replica answers and a revoked credential stops at once.

/** A tool: its arguments' JSON Schema (TypeBox, checked before it runs) and what it does. */
export interface McpTool<S extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Reads only (the client may call it without asking the user). */
  readOnly: boolean;
  run(args: Static<S>): Promise<CallToolResult>;
}

/** Declares a tool with its arguments typed by its schema. */
export const mcpTool = <S extends TObject>(tool: McpTool<S>): McpTool => tool as unknown as McpTool;

export const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

/** A failure the caller can act on (not found, refused): a tool result the assistant reads, not a protocol error. */
export const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The code MCP gives a resource that is not there. */
export const RESOURCE_NOT_FOUND = -32002;
/** The code of a refused credential (401, 403): the server's own, as JSON-RPC leaves -32000 to -32099 to servers. */
export const MCP_REFUSED = -32001;

/** A JSON-RPC error answering a request whose id the server never read. */
export const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0' as const, error: { code, message }, id: null });

const PARSE_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Parse error: the body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Parse error: the body is empty; send a JSON-RPC message',
};

/** The answer to a body over the server's limit, which it names. */
export const mcpBodyTooLarge = (bodyLimit: number) => ({
  status: 413,
  body: jsonRpcError(ErrorCode.InvalidRequest, `Request body is too large: this server takes at most ${bodyLimit} bytes`),
});

/**
 * A request refused before its server read it (a body too large or not JSON, an unsupported
 * type...: Fastify's errors with a 4xx status) as the JSON-RPC error an MCP client reads, with the
 * same status; the limit of a body too large named, so that the client knows what to send instead.
 * Undefined for any other failure.
 */
export function mcpRequestError(err: { statusCode?: number; code?: string; message: string }, bodyLimit: number) {
  const status = err.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return mcpBodyTooLarge(bodyLimit);
  const parse = err.code && PARSE_ERRORS[err.code];
  if (parse) return { status, body: jsonRpcError(ErrorCode.ParseError, parse) };
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return { status, body: jsonRpcError(ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json') };
  return { status, body: jsonRpcError(ErrorCode.InvalidRequest, err.message) };
}

/**
 * A family of resources under one URI template: listed all at once (`resources/list`) and read
 * by URI (`resources/read`).
 */
export interface McpResources {
  name: string;
  title: string;
  description: string;
  /** RFC 6570 template every resource's URI matches. */
  uriTemplate: string;
  mimeType: string;
  list(): Promise<Pick<Resource, 'uri' | 'name' | 'title' | 'description'>[]>;
  /** The resource's text, or `undefined` when there is none at that URI (for this caller). */
  read(uri: URL): Promise<string | undefined>;
}

/** What a server offers its caller. */
export interface McpOffer {
  tools: McpTool[];
  resources?: McpResources[];
}

export interface McpServerInfo {
  name: string;
  version: string;
  /** What the server is for, shown to the assistant. */
  instructions?: string;
}

/** Called after each tool call (its audit entry or insights event). */
export type McpCallListener = (call: { tool: string; args: Record<string, unknown>; result: CallToolResult }) => void;

function argumentProblem(tool: McpTool, args: unknown): string | undefined {
  const first = Value.Errors(tool.input, args).First();
  if (!first) return undefined;
  return `${first.path ? `${first.path.slice(1).replaceAll('/', '.')}: ` : ''}${first.message}`;
}

// One JSON Schema validator for every server (it checks the answers to elicitations, which these
// servers never ask for): each server would otherwise build an Ajv of its own, most of what a call cost.
const validator = new AjvJsonSchemaValidator();

function mcpServer(info: McpServerInfo, { tools, resources = [] }: McpOffer, onCall?: McpCallListener): McpServer {
  const mcp = new McpServer(
    { name: info.name, version: info.version },
    { capabilities: { tools: {} }, jsonSchemaValidator: validator, ...(info.instructions ? { instructions: info.instructions } : {}) },
  );
  for (const r of resources)
    mcp.registerResource(
      r.name,
      // A resource without a description has none (the SDK would give it the template's).
      new ResourceTemplate(r.uriTemplate, { list: async () => ({ resources: (await r.list()).map((one) => ({ description: undefined, ...one, mimeType: r.mimeType })) }) }),
      { title: r.title, description: r.description, mimeType: r.mimeType },
      async (uri) => {
        const text = await r.read(uri);
        if (text === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href} (resources/list names every one)`, { uri: uri.href });
        return { contents: [{ uri: uri.href, mimeType: r.mimeType, text }] };
      },
    );
  // Tools keep their TypeBox schemas: the low-level handlers, beside the resources' high-level ones.
  const byName = new Map(tools.map((t) => [t.name, t]));
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.input as never, annotations: { readOnlyHint: t.readOnly } })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const tool = byName.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}": this server has ${[...byName.keys()].join(', ')}`);
    const args = request.params.arguments ?? {};
    const problem = argumentProblem(tool, args);
    if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${name}: ${problem}`);
    const result = await tool.run(args);
    onCall?.({ tool: name, args, result });
    return result;
  });
  return mcp;
}

/**
 * Answers one MCP request with these tools and resources. POST carries JSON-RPC; GET (a server-sent event
 * stream) and DELETE (a session's end) mean nothing without sessions: 405, as the transport allows.
 */
export async function answerMcp(req: FastifyRequest, reply: FastifyReply, info: McpServerInfo, offer: McpOffer, onCall?: McpCallListener): Promise<FastifyReply> {
  if (req.method !== 'POST')
    return reply.code(405).header('allow', 'POST').send(jsonRpcError(ErrorCode.ConnectionClosed, 'Method not allowed: this server is stateless, send JSON-RPC with POST'));
  const server = mcpServer(info, offer, onCall);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // Not closed: the answer is sent whole (JSON, no stream), so closing would only empty maps this
  // request has left empty, and build an error (with its stack) for requests none are waiting on,
  // a tenth of a call's cost; the server and its transport go with the request.
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const response = await transport.handleRequest(new Request(`http://mcp.local${req.url}`, { method: 'POST', headers }), { parsedBody: req.body });
  reply.code(response.status);
  response.headers.forEach((value, key) => void reply.header(key, value));
  return reply.send(await response.text());
}
