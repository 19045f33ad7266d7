// A note affordance for one target (a hop, a finding, an object): its notes with edit and delete, and
// "Add note". Edits go through the notes slice (undo/redo, autosave). NoteBadge is the count shown on
// hop rows, finding cards and the inspector's header.
import { useEffect, useRef, useState } from 'react';
import { Pencil, StickyNote, Trash2 } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import { notesOn, type Note, type NoteTarget } from './model.ts';

export function NoteBadge({ count, testId = 'note-badge' }: { count: number; testId?: string }) {
  if (!count) return null;
  return (
    <span className="note-badge" title={`${count} note${count === 1 ? '' : 's'}`} aria-label={`${count} note${count === 1 ? '' : 's'}`} data-testid={testId}>
      <StickyNote size={11} aria-hidden />
      {count}
    </span>
  );
}

function NoteEditor({ initial, onSave, onCancel, placeholder }: { initial: string; onSave(text: string): void; onCancel(): void; placeholder: string }) {
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  return (
    <div className="unote-editor">
      <textarea
        ref={ref}
        className="input unote-text"
        value={text}
        rows={3}
        maxLength={20_000}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSave(text);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          }
        }}
        aria-label="Note"
        data-testid="note-input"
      />
      <div className="unote-editor-actions">
        <span className="muted">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> save · <kbd>Esc</kbd> cancel
        </span>
        <button type="button" className="btn small" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn small primary" onClick={() => onSave(text)} disabled={!text.trim() && !initial} data-testid="note-save">
          Save note
        </button>
      </div>
    </div>
  );
}

function NoteItem({ n }: { n: Note }) {
  const editing = useApp((s) => s.noteEditing === n.id);
  const setEditing = useApp((s) => s.setNoteEditing);
  const editNote = useApp((s) => s.editNote);
  const deleteNote = useApp((s) => s.deleteNote);
  if (editing) {
    return (
      <li className="unote editing">
        <NoteEditor
          initial={n.text}
          placeholder="Empty saves as deleted"
          onSave={(t) => {
            editNote(n.id, t);
            setEditing(undefined);
          }}
          onCancel={() => setEditing(undefined)}
        />
      </li>
    );
  }
  return (
    <li className="unote" data-testid="note">
      <div className="unote-body">{n.text}</div>
      <div className="unote-meta">
        <span className="muted" title={`created ${n.createdAt}`}>
          {n.updatedAt !== n.createdAt ? 'edited ' : ''}
          {new Date(n.updatedAt).toLocaleString()}
        </span>
        <button type="button" className="btn ghost small icon" onClick={() => setEditing(n.id)} aria-label="Edit this note" title="Edit" data-testid="note-edit">
          <Pencil size={12} aria-hidden />
        </button>
        <button type="button" className="btn ghost small icon" onClick={() => deleteNote(n.id)} aria-label="Delete this note" title="Delete (Ctrl+Z brings it back)" data-testid="note-delete">
          <Trash2 size={12} aria-hidden />
        </button>
      </div>
    </li>
  );
}

/** The notes on one target and the way to add one. `what` names the target in the placeholder. */
export function NotesFor({ target, what, className = '' }: { target: NoteTarget; what: string; className?: string }) {
  const doc = useApp((s) => s.notes);
  const editingKey = useApp((s) => s.noteEditing);
  const setEditing = useApp((s) => s.setNoteEditing);
  const addNote = useApp((s) => s.addNote);
  const list = notesOn(doc, target);
  const newKey = `new:${target.ref}`;
  const adding = editingKey === newKey;
  if (!doc) return null;
  return (
    <div className={`unotes ${className}`} data-testid="notes-for" data-ref={target.ref}>
      {list.length > 0 && (
        <ul className="unote-list" aria-label={`Notes on ${what}`}>
          {list.map((n) => (
            <NoteItem key={n.id} n={n} />
          ))}
        </ul>
      )}
      {adding ? (
        <NoteEditor
          initial=""
          placeholder={`A note on ${what}: what you see, what you suspect. It goes into the report.`}
          onSave={(t) => {
            addNote(target, t);
            setEditing(undefined);
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <button type="button" className="btn small ghost unote-add" onClick={() => setEditing(newKey)} data-testid="note-add" title={`Add a note on ${what}`}>
          <StickyNote size={12} aria-hidden /> {list.length ? 'Add another note' : 'Add note'}
        </button>
      )}
    </div>
  );
}
