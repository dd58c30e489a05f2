import type { ComponentType } from 'react';
import type { TranscriptItem, TranscriptItemKind } from '../state/types';
import { AssistantMessage, ErrorNote, Notice, ToolsLoadedChip } from './Messages';
import { UserTurn } from './checkpoint/UserTurn';
import { ToolCard } from './tool/ToolCard';
import { CompactionDivider } from './compaction/CompactionDivider';

type ItemViews = { [K in TranscriptItemKind]: ComponentType<{ item: Extract<TranscriptItem, { kind: K }> }> };

/** Which component draws which kind of transcript item. */
const itemViews: ItemViews = {
  user: UserTurn,
  assistant: AssistantMessage,
  tool: ToolCard,
  'tools.loaded': ToolsLoadedChip,
  error: ErrorNote,
  notice: Notice,
  compaction: CompactionDivider,
};

export function TranscriptItemView({ item }: { item: TranscriptItem }) {
  const View = itemViews[item.kind] as ComponentType<{ item: TranscriptItem }>;
  return <View item={item} />;
}
