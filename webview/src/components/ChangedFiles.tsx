import { useActions, useChat } from '../app/context';
import type { ChangedFile } from '../../../extension/protocol';
import { Icon } from '../ui/Icon';
import { LineCounts } from './LineCounts';
import './edits.css';

/** After a turn: the files its auto-approved edits changed, each to open as a diff, keep or undo, and all at once. */
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
  return (
    <li className="changed-file" data-path={file.path}>
      <button type="button" className="open-diff" title={`Open the diff of ${file.path}`} onClick={() => actions.openChange(file.path)}>
        {file.path}
        {file.created ? ' (new)' : ''}
      </button>
      <LineCounts added={file.added} removed={file.removed} />
      <button type="button" aria-label={`Keep ${file.path}`} title="Keep this change" onClick={() => actions.keepChanges(file.path)}>
        Keep
      </button>
      <button type="button" aria-label={`Undo ${file.path}`} title={file.created ? 'Delete the file the agent created' : 'Put the file back as it was before the turn'} onClick={() => actions.undoChanges(file.path)}>
        Undo
      </button>
    </li>
  );
}
