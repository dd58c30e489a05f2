import { useState } from 'react';
import { useActions, useChat } from '../app/context';
import type { ChangedFile, ChangedHunk } from '../../../extension/protocol';
import { Icon } from '../ui/Icon';
import { LineCounts } from './LineCounts';
import { VisibleText } from './VisibleText';
import './edits.css';

/** After a turn: the files its auto-approved edits changed, each to open as a diff, keep or undo (whole or hunk by hunk), and all at once. */
export function ChangedFiles() {
  const files = useChat((s) => s.changes);
  const running = useChat((s) => s.running);
  const actions = useActions();
  if (!files.length || running) return null;
  const many = files.length > 1;
  return (
    <section className="changed-files" aria-label="Files changed this turn">
      <div className="changed-files-head">
        <Icon name="diff" />
        <span className="title">
          {files.length} file{many ? 's' : ''} changed
        </span>
        <button type="button" onClick={() => actions.keepChanges()}>
          Keep all
        </button>
        <button type="button" onClick={() => actions.undoChanges()}>
          Undo all
        </button>
      </div>
      <ul>
        {files.map((f) => (
          <ChangedFileRow key={f.path} file={f} />
        ))}
      </ul>
    </section>
  );
}

function ChangedFileRow({ file }: { file: ChangedFile }) {
  const actions = useActions();
  const [open, setOpen] = useState(false);
  const hunks = file.hunks ?? [];
  return (
    <li className="changed-file" data-path={file.path}>
      {hunks.length ? (
        <button
          type="button"
          className="toggle-hunks"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the ${hunks.length} hunk${hunks.length > 1 ? 's' : ''} of ${file.path}`}
          title={open ? 'Hide the hunks' : 'Show the hunks, to keep or undo one at a time'}
          onClick={() => setOpen(!open)}
        >
          <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        </button>
      ) : null}
      <button type="button" className="open-diff" title={`Open the diff of ${file.path}`} onClick={() => actions.openChange(file.path)}>
        <VisibleText text={file.path} />
        {file.created ? ' (new)' : ''}
      </button>
      <LineCounts added={file.added} removed={file.removed} />
      <button type="button" aria-label={`Keep ${file.path}`} title="Keep this change" onClick={() => actions.keepChanges(file.path)}>
        Keep
      </button>
      <button type="button" aria-label={`Undo ${file.path}`} title={file.created ? 'Delete the file the agent created' : 'Put the file back as it was before the turn'} onClick={() => actions.undoChanges(file.path)}>
        Undo
      </button>
      {open && hunks.length ? (
        <ul className="hunks" aria-label={`Hunks of ${file.path}`}>
          {hunks.map((h) => (
            <HunkRow key={h.key} path={file.path} hunk={h} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** One hunk: where it starts, its removed and added lines (marked − and +), Keep and Undo. */
function HunkRow({ path, hunk }: { path: string; hunk: ChangedHunk }) {
  const actions = useActions();
  const where = `line ${hunk.line} of ${path}`;
  return (
    <li className="hunk" data-key={hunk.key}>
      <div className="hunk-head">
        <span className="hunk-line">Line {hunk.line}</span>
        <LineCounts added={hunk.added.length} removed={hunk.removed.length} />
        <button type="button" aria-label={`Keep the hunk at ${where}`} title="Keep this hunk" onClick={() => actions.keepHunk(path, hunk.key)}>
          Keep
        </button>
        <button type="button" aria-label={`Undo the hunk at ${where}`} title="Put this hunk's old lines back" onClick={() => actions.undoHunk(path, hunk.key)}>
          Undo
        </button>
      </div>
      <pre className="hunk-lines">
        {hunk.removed.map((l, i) => (
          <div key={`r${i}`} className="removed-line">
            {'− '}
            <VisibleText text={l} />
          </div>
        ))}
        {hunk.added.map((l, i) => (
          <div key={`a${i}`} className="added-line">
            {'+ '}
            <VisibleText text={l} />
          </div>
        ))}
        {hunk.cut ? <div className="cut-lines">{`… ${hunk.cut} more line${hunk.cut > 1 ? 's' : ''} in the diff`}</div> : null}
      </pre>
    </li>
  );
}
