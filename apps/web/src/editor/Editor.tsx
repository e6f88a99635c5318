import { useEffect, useRef, useState } from 'react';
import 'katex/dist/katex.min.css';
import { EditorContent, useEditor, useEditorState, type Editor as TiptapEditor } from '@tiptap/react';
import { fromMarkdown, toMarkdown, type JSONDocument } from '@quire/document';
import { fromEditor, toEditor, type PMNode } from './convert.ts';
import { extensions, HINT_STYLES } from './extensions.ts';
import { filePicker } from './slash.ts';
import type { PageChoice } from './blocks.ts';

export interface EditorProps {
  document: JSONDocument;
  /** Called after each change with a function giving the document (serializing is left until needed). */
  onChange(read: () => JSONDocument): void;
  /** Uploads an image or other file, answering its URL and content ref. */
  uploadFile(file: File): Promise<{ src: string; ref: unknown }>;
  /** The pages a page link can point at. */
  pages?: PageChoice[];
  label: string;
}

// Markdown pasted as plain text (no HTML on the clipboard) is parsed by the document model.
const LOOKS_LIKE_MARKDOWN = /^(?:#{1,6} |[-*+] |\d{1,9}\. |> |```|\{% )/m;

/** The block editor (Tiptap on ProseMirror) with a toolbar, slash commands and a markdown source mode. */
export function Editor({ document, onChange, uploadFile, pages = [], label }: EditorProps) {
  const [source, setSource] = useState<string>();
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  const editor = useEditor({
    extensions: extensions(),
    content: toEditor(document),
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
  const editorRef = useRef<TiptapEditor | null>(null);
  editorRef.current = editor;

  editor.storage.contentRef.pages = pages;
  const inTable = useEditorState({ editor, selector: ({ editor: e }) => e.isActive('table') });

  useEffect(() => {
    filePicker.pick = (_e, kind) => (kind === 'image' ? imageInput : fileInput).current?.click();
    return () => {
      filePicker.pick = undefined;
    };
  }, []);

  const onFile = async (file: File | undefined, kind: 'image' | 'file') => {
    if (!file) return;
    const { src, ref } = await uploadFile(file);
    const node =
      kind === 'image'
        ? { type: 'image', attrs: { src, alt: file.name, ref: JSON.stringify(ref) } }
        : { type: 'file', attrs: { ref: JSON.stringify(ref), name: file.name, caption: '' } };
    editor.chain().focus().insertContent(node).run();
  };
  const picker = (kind: 'image' | 'file') => (
    <input
      ref={kind === 'image' ? imageInput : fileInput}
      type="file"
      accept={kind === 'image' ? 'image/*' : undefined}
      hidden
      aria-label={kind === 'image' ? 'Upload an image' : 'Upload a file'}
      onChange={(e) => void onFile(e.target.files?.[0], kind).finally(() => (e.target.value = ''))}
    />
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
        <button type="button" className="btn small" aria-pressed={source !== undefined} onClick={toggleSource}>
          Markdown source
        </button>
        {picker('image')}
        {picker('file')}
      </div>
      {inTable && source === undefined && (
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
