import { describe, expect, it } from 'vitest';
import { specOperations } from './openapi.ts';

describe('operations of a spec, summed up', () => {
  it('OpenAPI 3: parameters of the path and the operation (references followed), body media types, responses', () => {
    const ops = specOperations({
      openapi: '3.0.3',
      paths: {
        '/pets/{id}': {
          parameters: [{ $ref: '#/components/parameters/Id' }],
          patch: {
            summary: 'Change a pet',
            description: 'First line.\nMore.',
            parameters: [{ name: 'dryRun', in: 'query' }],
            requestBody: { content: { 'application/json': {}, 'application/xml': {} } },
            responses: { '200': {}, '404': {} },
          },
        },
      },
      components: { parameters: { Id: { name: 'id', in: 'path', required: true } } },
    });
    expect(ops).toEqual([
      {
        method: 'patch',
        path: '/pets/{id}',
        summary: 'Change a pet',
        operationId: '',
        description: 'First line.',
        parameters: [
          { name: 'id', in: 'path', required: true },
          { name: 'dryRun', in: 'query', required: false },
        ],
        body: ['application/json', 'application/xml'],
        responses: ['200', '404'],
      },
    ]);
  });

  it('Swagger 2.0: the body parameter is the body, with what the operation consumes; nothing from what is no spec', () => {
    const [op] = specOperations({
      swagger: '2.0',
      consumes: ['application/json'],
      paths: { '/pets': { post: { parameters: [{ name: 'pet', in: 'body' }], responses: { '201': {} } } } },
    });
    expect(op).toMatchObject({ method: 'post', parameters: [], body: ['application/json'], responses: ['201'] });
    expect(specOperations({ hello: 1 })).toEqual([]);
    expect(specOperations(null)).toEqual([]);
  });
});
