/**
 * Session exports. JSON is the whole stored record (session, every message verbatim, tool calls,
 * usage, events, and delegated child sessions the same way); Markdown is for reading: the turns
 * with tool calls and their full results in fences.
 */
import type { Database } from 'sql.js';
import type { ContentPart, Message } from '../conversation/messages';
import * as q from './queries';
import type { ContentReader } from './queries';
import type { EventRecord, SessionRecord, StoredMessage, ToolCallRecord, UsageRecord } from './types';

export interface SessionTranscript {
  session: SessionRecord;
  messages: StoredMessage[];
  toolCalls: ToolCallRecord[];
  usage: UsageRecord[];
  events: EventRecord[];
  children: SessionTranscript[];
}

export function sessionTranscript(db: Database, id: string, readContent: ContentReader): SessionTranscript {
  const session = q.getSession(db, id);
  if (!session) throw new Error(`state.db: no session ${id}`);
  return {
    session,
    messages: q.getStoredMessages(db, id, readContent),
    toolCalls: q.getToolCalls(db, id),
    usage: q.getUsage(db, id),
    events: q.getEvents(db, id),
    children: q.childSessions(db, id).map((c) => sessionTranscript(db, c.id, readContent)),
  };
}

export function exportJson(db: Database, id: string, readContent: ContentReader, exportedAt: number): string {
  return JSON.stringify({ format: 'snowpea.session', version: 1, exported: exportedAt, ...sessionTranscript(db, id, readContent) }, null, 2);
}

/** A fence longer than any backtick run inside `text`, so the content shows exactly. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function partsText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : `[image: ${p.name}, ${p.width}x${p.height}]`)).join('\n\n');
}

function messageMd(m: Message): string {
  if (m.role === 'user' && m.compaction) {
    const c = m.compaction;
    const how = c.trigger === 'fallback' ? 'older rounds omitted' : `summary by ${c.model}`;
    return `### Conversation compacted (${c.trigger}): ${c.tokensBefore} → ${c.tokensAfter} tokens, ${c.rounds} round${c.rounds === 1 ? '' : 's'}, ${how}\n\nLater requests carry this in place of the messages before it (the transcript here keeps them all):\n\n${fenced(partsText(m.content), 'markdown')}`;
  }
  if (m.role === 'user') {
    return `### ${m.attachedBy ? `Attached by ${m.attachedBy}` : 'User'}\n\n${partsText(m.content)}`;
  }
  if (m.role === 'assistant') {
    const out = ['### Assistant'];
    if (m.content) out.push(m.content);
    // The title is the tool card's heading, kept with the call when it was made (tools/card-summary.ts).
    for (const c of m.toolCalls ?? []) out.push(`**Tool call** \`${c.name}\` (\`${c.id}\`)${c.title && c.title !== c.name ? `: ${c.title}` : ''}\n\n${fenced(prettyArgs(c.arguments), 'json')}`);
    return out.join('\n\n');
  }
  const status = m.ok ? 'ok' : `error${m.errorCode ? ` \`${m.errorCode}\`` : ''}`;
  return `**Result** of \`${m.toolName}\` (\`${m.toolCallId}\`): ${status}\n\n${fenced(m.content, 'text')}`;
}

function tokensLine(usage: UsageRecord[]): string | null {
  if (!usage.length) return null;
  const sum = (k: 'prompt' | 'completion' | 'cached') => usage.reduce((n, u) => n + u[k], 0);
  return `- Tokens: ${sum('prompt')} prompt (${sum('cached')} cached), ${sum('completion')} completion over ${usage.length} round(s)`;
}

export function exportMarkdown(db: Database, id: string, readContent: ContentReader): string {
  const t = sessionTranscript(db, id, readContent);
  const s = t.session;
  const iso = (ms: number) => new Date(ms).toISOString();
  const head = [
    `# ${s.title}`,
    '',
    `- Session: \`${s.id}\`${s.parentId ? ` (delegated from \`${s.parentId}\`)` : ''}`,
    `- Workspace: \`${s.workspaceRoot}\``,
    `- Mode: ${s.mode}; role: ${s.role}`,
    `- Created: ${iso(s.created)}; updated: ${iso(s.updated)}`,
  ];
  if (s.loadedTools.length) head.push(`- Loaded tools: ${s.loadedTools.join(', ')}`);
  const tokens = tokensLine(t.usage);
  if (tokens) head.push(tokens);
  const body: string[] = [];
  let turn: number | null = null;
  for (const m of t.messages) {
    if (m.turn !== turn) body.push(`## Turn ${(turn = m.turn)}`);
    body.push(messageMd(m.message));
  }
  if (t.children.length) {
    body.push('## Delegated sessions');
    body.push(t.children.map((c) => `- \`${c.session.id}\`: ${c.session.title} (${c.messages.length} messages)`).join('\n'));
  }
  return `${head.join('\n')}\n\n${body.join('\n\n')}\n`;
}
