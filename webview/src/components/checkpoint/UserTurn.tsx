import { memo } from 'react';
import type { UserItem } from '../../state/types';
import { UserMessage } from '../Messages';
import { RestoreAction } from './RestoreAction';

/** A user message with its restore action, once the host has numbered it (a sent message waits for `turn.start`). */
export const UserTurn = memo(function UserTurn({ item }: { item: UserItem }) {
  return <UserMessage item={item} action={item.turn === undefined ? undefined : <RestoreAction itemId={item.id} turn={item.turn} />} />;
});
