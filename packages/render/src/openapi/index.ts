// An OpenAPI operation as Quire draws it: read and upgraded (spec.ts), its schemas as trees
// (schema.ts), drawn as HTML (operation.ts, styles.ts) or markdown (markdown.ts). The reader's
// pages and the editor's preview share it.
export { newDrawn, descriptionHtml, type Drawn } from './fields.ts';
export { operationMarkdown } from './markdown.ts';
export { noticeHtml, operationHtml, type ConsoleTarget } from './operation.ts';
export { codeSamples, securityHeaders } from './samples.ts';
export { schemaTree } from './schema.ts';
export { findOperation, isObj, METHODS, parseSpec, resolve, specOf, SpecError, type Obj, type Operation, type Spec } from './spec.ts';
export { OPENAPI_CSS } from './styles.ts';
