import { useEffect, useRef, useState, type RefObject } from 'react';
import 'katex/dist/katex.min.css';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { FRAGMENT } from '@quire/editor/yjs';
import { EditorContent, useEditor, useEditorState, type Editor as TiptapEditor } from '@tiptap/react';
import { fromMarkdown, toMarkdown, type JSONDocument } from '@quire/document';
import {
  fromEditor,
  toEditor,
  type PMNode,
  type RefHref,
  extensions,
  HINT_STYLES,
  filePicker,
  apiOperationPicker,
  type UploadKind,
  type RenderReusable,
  COLORS,
  annotationText,
  newAnnotation,
  NO_CHOICES,
  withAnnotationText,
  type Choices,
  type Json,
} from '@quire/editor';
import { ApiOperationDialog, type ApiOperationData } from './ApiOperationDialog.tsx';

export interface EditorProps {
  document: JSONDocument;
  /** Called after each change with a function giving the document (serializing is left until needed). */
  onChange(read: () => JSONDocument): void;
  /** Uploads an image or other file, answering its URL and content ref. */
  uploadFile(file: File): Promise<{ src: string; ref: unknown }>;
  /** What pickers offer (pages, members, files, reusable contents), and reusable content rendered. */
  choices?: Partial<Choices> & { render?: RenderReusable };
  label: string;
  /** Edited together: the page's provider (its Y.Doc is the content) and how this member shows to the others. */
  collab?: { provider: HocuspocusProvider; user: { name: string; color: string } };
  /** Shown, not edited (a reader, or a change request that takes no edits). */
  readOnly?: boolean;
  /** The organization whose OpenAPI specs "Insert API operation" offers. */
  organizationId?: string;
}

// Markdown pasted as plain text (no HTML on the clipboard) is parsed by the document model.
const LOOKS_LIKE_MARKDOWN = /^(?:#{1,6} |[-*+] |\d{1,9}\. |> |```|\{% )/m;

/** The block editor (Tiptap on ProseMirror) with a toolbar, slash commands and a markdown source mode. */
export function Editor({ document, onChange, uploadFile, choices = {}, label, collab, readOnly = false, organizationId }: EditorProps) {
  const [source, setSource] = useState<string>();
  const [pickingOperation, setPickingOperation] = useState(false);
  const imageInput = useRef<HTMLInputElement>(null);
  const inlineImageInput = useRef<HTMLInputElement>(null);
  const uploaded = useRef<Choices['files']>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  const all = { ...NO_CHOICES, ...choices };
  // Images show the space's files at their download URLs.
  const href: RefHref = (ref) =>
    ref.kind === 'file' ? (all.files.find((f) => f.id === ref.file)?.url ?? ref.file) : ref.kind === 'url' ? ref.url : ref.kind === 'page' ? ref.page : '';
  const editor = useEditor({
    extensions: collab
      ? [
          ...extensions(all, { history: false }),
          Collaboration.configure({ document: collab.provider.document, field: FRAGMENT }),
          CollaborationCaret.configure({ provider: collab.provider, user: collab.user }),
        ]
      : extensions(all),
    // Edited together, the content is the provider's document.
    ...(collab ? {} : { content: toEditor(document, href) }),
    editable: !readOnly,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true', class: 'document editor' },
      handlePaste(_view, event) {
        const html = event.clipboardData?.getData('text/html');
        const text = event.clipboardData?.getData('text/plain');
        if (html || !text || !LOOKS_LIKE_MARKDOWN.test(text)) return false;
        const nodes = toEditor(fromMarkdown(text)).content ?? [];
        editorRef.current?.chain().focus().insertContent(nodes).run();
        return true;
      },
    },
    onUpdate: ({ editor: e }) => changed.current(() => fromEditor(e.getJSON() as PMNode)),
  });
  // The server may say read-only after the editor opened.
  useEffect(() => editor.setEditable(!readOnly, false), [editor, readOnly]);
  const editorRef = useRef<TiptapEditor | null>(null);
  editorRef.current = editor;

  // Set before the first paint, so that node views show the pages' and members' names.
  editor.storage.choices = { ...all, files: [...all.files, ...uploaded.current] };
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      inTable: e.isActive('table'),
      color: e.getAttributes('color') as { text?: string; background?: string },
      note: e.isActive('annotation') ? String(e.getAttributes('annotation').note) : undefined,
    }),
  });

  useEffect(() => {
    filePicker.pick = (_e, kind) => inputs[kind].current?.click();
    apiOperationPicker.pick = organizationId ? () => setPickingOperation(true) : undefined;
    return () => {
      filePicker.pick = undefined;
      apiOperationPicker.pick = undefined;
    };
  }, [organizationId]);
  const insertOperation = (data: ApiOperationData) => {
    setPickingOperation(false);
    editor
      ?.chain()
      .focus()
      .insertContent({ type: 'gbBlock', attrs: { block: JSON.stringify({ object: 'block', type: 'openapi-operation', isVoid: true, data }) } })
      .run();
  };

  const inputs: Record<UploadKind, RefObject<HTMLInputElement | null>> = { image: imageInput, 'inline-image': inlineImageInput, file: fileInput };
  const onFile = async (file: File | undefined, kind: UploadKind) => {
    if (!file) return;
    const { src, ref } = await uploadFile(file);
    uploaded.current.push({ id: (ref as { file: string }).file, title: file.name, url: src });
    editor.storage.choices.files = [...editor.storage.choices.files, uploaded.current.at(-1)!];
    const node =
      kind === 'image'
        ? { type: 'image', attrs: { src, alt: file.name, ref: JSON.stringify(ref) } }
        : kind === 'inline-image'
          ? { type: 'gbInline', attrs: { inline: JSON.stringify({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref, caption: file.name } }) } }
          : { type: 'file', attrs: { ref: JSON.stringify(ref), name: file.name, caption: '' } };
    editor.chain().focus().insertContent(node).run();
  };
  const PICKERS: Record<UploadKind, { accept?: string; label: string }> = {
    image: { accept: 'image/*', label: 'Upload an image' },
    'inline-image': { accept: 'image/*', label: 'Upload an inline image' },
    file: { label: 'Upload a file' },
  };
  const picker = (kind: UploadKind) => (
    <input
      ref={inputs[kind]}
      type="file"
      accept={PICKERS[kind].accept}
      hidden
      aria-label={PICKERS[kind].label}
      onChange={(e) => void onFile(e.target.files?.[0], kind).finally(() => (e.target.value = ''))}
    />
  );

  const note = state.note === undefined ? undefined : (JSON.parse(state.note) as Json);
  const setNote = (text: string) =>
    editor
      .chain()
      .extendMarkRange('annotation')
      .updateAttributes('annotation', { note: JSON.stringify(withAnnotationText(note ?? {}, text)) })
      .run();
  const colorSelect = (which: 'text' | 'background', label: string) => (
    <select
      aria-label={label}
      value={state.color[which] ?? 'default'}
      disabled={source !== undefined}
      onChange={(e) =>
        editor
          .chain()
          .focus()
          .setColor({ [which]: e.target.value as (typeof COLORS)[number] })
          .run()
      }
    >
      {COLORS.map((c) => (
        <option key={c} value={c}>
          {c === 'default' ? `${label}: none` : c.replace('$', '')}
        </option>
      ))}
    </select>
  );

  const toggleSource = () => {
    if (!editor) return;
    if (source === undefined) setSource(toMarkdown(fromEditor(editor.getJSON() as PMNode)));
    else {
      editor.commands.setContent(toEditor(fromMarkdown(source)), { emitUpdate: true });
      setSource(undefined);
    }
  };

  const run = (name: string, action: (e: TiptapEditor) => void) => (
    <button type="button" className="btn small" onMouseDown={(e) => e.preventDefault()} onClick={() => editor && action(editor)} disabled={source !== undefined}>
      {name}
    </button>
  );

  return (
    <div className="editor-wrap">
      <div className="toolbar" role="toolbar" aria-label="Formatting">
        {run('Bold', (e) => e.chain().focus().toggleBold().run())}
        {run('Italic', (e) => e.chain().focus().toggleItalic().run())}
        {run('Code', (e) => e.chain().focus().toggleCode().run())}
        {run('Heading 2', (e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
        {run('Bulleted list', (e) => e.chain().focus().toggleBulletList().run())}
        {run('Numbered list', (e) => e.chain().focus().toggleOrderedList().run())}
        {run('Code block', (e) => e.chain().focus().toggleCodeBlock().run())}
        {run('Hint', (e) => e.chain().focus().setHint(HINT_STYLES[0]!).run())}
        {run('Image', () => imageInput.current?.click())}
        {run('Inline image', () => inlineImageInput.current?.click())}
        {organizationId && run('Insert API operation', () => setPickingOperation(true))}
        {colorSelect('text', 'Text colour')}
        {colorSelect('background', 'Background colour')}
        {run('Annotate', (e) =>
          e
            .chain()
            .focus()
            .setMark('annotation', { note: JSON.stringify(newAnnotation('')) })
            .run(),
        )}
        <button type="button" className="btn small" aria-pressed={source !== undefined} onClick={toggleSource}>
          Markdown source
        </button>
        {picker('image')}
        {picker('inline-image')}
        {picker('file')}
      </div>
      {pickingOperation && organizationId && <ApiOperationDialog org={organizationId} onInsert={insertOperation} onClose={() => setPickingOperation(false)} />}
      {note && source === undefined && (
        <div className="toolbar" role="toolbar" aria-label="Annotation">
          <label className="grow">
            <span>Note</span>
            <textarea aria-label="Annotation note" rows={2} value={annotationText(note)} onChange={(e) => setNote(e.target.value)} />
          </label>
          {run('Remove annotation', (e) => e.chain().focus().extendMarkRange('annotation').unsetMark('annotation').run())}
        </div>
      )}
      {state.inTable && source === undefined && (
        <div className="toolbar" role="toolbar" aria-label="Table">
          {run('Add row', (e) => e.chain().focus().addRowAfter().run())}
          {run('Remove row', (e) => e.chain().focus().deleteRow().run())}
          {run('Add column', (e) => e.chain().focus().addColumnAfter().run())}
          {run('Remove column', (e) => e.chain().focus().deleteColumn().run())}
          {run('Header row', (e) => e.chain().focus().toggleHeaderRow().run())}
          {run('Remove table', (e) => e.chain().focus().deleteTable().run())}
        </div>
      )}
      {source !== undefined ? (
        <textarea
          className="source"
          aria-label={`${label} (markdown source)`}
          value={source}
          onChange={(e) => {
            const text = e.target.value;
            setSource(text);
            changed.current(() => fromMarkdown(text));
          }}
          rows={24}
        />
      ) : (
        <EditorContent editor={editor} />
      )}
    </div>
  );
}
