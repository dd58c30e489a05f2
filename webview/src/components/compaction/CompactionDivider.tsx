import { memo } from 'react';
import { useActions } from '../../app/context';
import { Markdown } from '../../markdown/Markdown';
import type { CompactionItem } from '../../state/types';
import { Icon } from '../../ui/Icon';
import { compactionDetail, compactionLabel } from './compaction-format';
import './compaction.css';

/**
 * Where the conversation was compacted: a divider line with the request's size before and after;
 * it opens to the summary later requests carry (Markdown), or says which rounds the fallback omitted.
 * A live compaction and a replayed one look the same.
 */
export const CompactionDivider = memo(function CompactionDivider({ item }: { item: CompactionItem }) {
  const actions = useActions();
  return (
    <div className="compaction" data-kind="compaction" data-trigger={item.trigger} data-expanded={item.expanded ? 'true' : 'false'}>
      <button type="button" className="compaction-line" aria-expanded={!!item.expanded} onClick={() => actions.toggleCompaction(item.id)}>
        <span className="compaction-rule" aria-hidden="true" />
        <Icon name="fold" />
        <span className="compaction-label">{compactionLabel(item)}</span>
        <Icon name={item.expanded ? 'chevron-up' : 'chevron-down'} />
        <span className="compaction-rule" aria-hidden="true" />
      </button>
      {item.expanded ? (
        <div className="compaction-body" role="region" aria-label="Summary of the earlier conversation">
          <p className="compaction-detail">{compactionDetail(item)}</p>
          {item.focus ? <p className="compaction-focus">Asked to keep: {item.focus}</p> : null}
          {item.summary ? <Markdown text={item.summary} /> : null}
        </div>
      ) : null}
    </div>
  );
});
