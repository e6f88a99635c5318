import { paragraph, text as textNode } from '@quire/document';

// What a field is, and the helpers the fields of inlines, blocks and tables share (fields.ts,
// fields-table.ts).

/** Something the space offers to point at: a page, a member, a file, a reusable content. */
export interface Choice {
  id: string;
  title: string;
}
export interface FileChoice extends Choice {
  /** Where the browser loads it from. */
  url: string;
}
/** What the editor can offer in its pickers, from the change request and the organization. */
export interface Choices {
  pages: Choice[];
  users: Choice[];
  files: FileChoice[];
  reusableContents: Choice[];
}
export const NO_CHOICES: Choices = { pages: [], users: [], files: [], reusableContents: [] };

/** A model node as JSON (its `data`, `fragments`…). */
export type Json = Record<string, unknown>;

export interface Field {
  label: string;
  read(value: Json): string;
  write(value: Json, text: string): Json;
  /** A select's options (value, label); a text input without. */
  options?: (value: Json, choices: Choices) => [string, string][];
  multiline?: boolean;
  /** Why the field cannot be edited here: its control is then read-only, described by this. */
  readOnly?: string;
  /** Why `text` cannot be written, if so: nothing is written and the reason is shown. */
  check?: (text: string) => string | undefined;
}

/** A button that changes the node's JSON: `apply` answers the new JSON, or undefined where it does not apply (the button is then disabled). */
export interface Action {
  label: string;
  apply(value: Json): Json | undefined;
}
export type Control = Field | Action;

export const dataOf = (value: Json) => (value.data ?? {}) as Json;

/** `data[key]` as text; an empty text removes the key when `optional`. */
export function dataField(label: string, key: string, extra: Partial<Field> & { optional?: boolean } = {}): Field {
  const { optional, ...rest } = extra;
  return {
    label,
    read: (v) => (dataOf(v)[key] === undefined ? '' : String(dataOf(v)[key])),
    write: (v, text) => {
      const data = { ...dataOf(v) };
      if (optional && text === '') delete data[key];
      else data[key] = text;
      return { ...v, data };
    },
    ...rest,
  };
}

export const pick = (values: string[]) => () => values.map((v): [string, string] => [v, v || 'Default']);

/** A paragraph of one plain run of text. */
export const plainParagraph = (text: string): Json => paragraph([textNode(text)]);
