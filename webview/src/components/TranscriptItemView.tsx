import type { ComponentType } from 'react';
import type { TranscriptItem, TranscriptItemKind } from '../state/types';
import { AssistantMessage, ErrorNote, Notice, ToolsLoadedChip, UserMessage } from './Messages';
import { ToolCard } from './tool/ToolCard';

type ItemViews = { [K in TranscriptItemKind]: ComponentType<{ item: Extract<TranscriptItem, { kind: K }> }> };

/** Which component draws which kind of transcript item. */
const itemViews: ItemViews = {
  user: UserMessage,
  assistant: AssistantMessage,
  tool: ToolCard,
  'tools.loaded': ToolsLoadedChip,
  error: ErrorNote,
  notice: Notice,
};

export function TranscriptItemView({ item }: { item: TranscriptItem }) {
  const View = itemViews[item.kind] as ComponentType<{ item: TranscriptItem }>;
  return <View item={item} />;
}
