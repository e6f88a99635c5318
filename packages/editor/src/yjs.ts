import { getSchema } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { prosemirrorJSONToYXmlFragment, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { Doc } from 'yjs';
import type { JSONDocument } from '@quire/document';
import { fromEditor, toEditor, type PMNode } from './convert.ts';
import { extensions } from './extensions.ts';

// A page's document as a Y.Doc: the editor's ProseMirror JSON in the XML fragment Tiptap's
// Collaboration extension binds to, so the server and every browser hold the same tree.

/** The Y.Doc field the editor binds to (the Collaboration extension's `field`). */
export const FRAGMENT = 'default';

let schema: Schema | undefined;
/** The editor's schema, made once: the same extension list the web app edits with. */
export const editorSchema = () => (schema ??= getSchema(extensions()));

/** Makes the Y.Doc hold `document`: filled when empty, else changed where it differs (a diff, so that what is unchanged keeps its CRDT items). */
export function writeDocument(ydoc: Doc, document: JSONDocument): Doc {
  prosemirrorJSONToYXmlFragment(editorSchema(), toEditor(document), ydoc.getXmlFragment(FRAGMENT));
  return ydoc;
}

/** `document` as an editor holding it would save it (the schema's defaults and normalization applied). */
export function asEdited(document: JSONDocument): JSONDocument {
  const ydoc = new Doc();
  writeDocument(ydoc, document);
  return readDocument(ydoc);
}

/** The Y.Doc's content as GitBook's JSONDocument (what the fragment holds that the schema does not take is dropped by ProseMirror). */
export function readDocument(ydoc: Doc): JSONDocument {
  return fromEditor(yXmlFragmentToProseMirrorRootNode(ydoc.getXmlFragment(FRAGMENT), editorSchema()).toJSON() as PMNode);
}
