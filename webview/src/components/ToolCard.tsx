import { memo } from 'react';
import type { ToolItem, ToolStatus } from '../state/types';
import { Icon } from './Icon';
import { argsPreview } from './tool-args';
import './tool-card.css';

const statusIcons: Record<ToolStatus, { icon: string; spin?: boolean; label: string }> = {
  running: { icon: 'loading', spin: true, label: 'running' },
  ok: { icon: 'check', label: 'done' },
  error: { icon: 'error', label: 'failed' },
  stopped: { icon: 'circle-slash', label: 'stopped' },
};

/** One compact line per tool call: status, tool name, and its summary (or its arguments while it runs). */
export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const status = statusIcons[item.status];
  const line = item.summary || argsPreview(item.args);
  return (
    <div className="tool-card" data-kind="tool" data-status={item.status} data-call-id={item.callId} title={item.args || undefined}>
      <Icon name={status.icon} spin={status.spin ?? false} className="tool-status" />
      <span className="visually-hidden">{status.label}: </span>
      <span className="tool-name">{item.tool}</span>
      <span className="tool-summary">{line}</span>
      {item.errorCode ? <span className="tool-error-code">{item.errorCode}</span> : null}
    </div>
  );
});
