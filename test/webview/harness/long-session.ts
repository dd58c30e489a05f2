import type { TranscriptEntry } from '../../../extension/protocol';

/**
 * A long stored session as the host replays it: `count` entries cycling through a user
 * prompt, a Markdown answer (some with a code block or a list), and tool calls with results.
 * Entry i's text names it (`Message <i+1>`), so tests can find the first and last.
 */
export function longTranscript(count: number): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (let i = 0; i < count; i++) {
    const n = i + 1;
    const kind = i % 5;
    if (kind === 0) entries.push({ role: 'user', text: `Message ${n}: please look at module ${n % 37} and explain the failing case.` });
    else if (kind === 1 || kind === 4) {
      const extra =
        n % 3 === 0
          ? `\n\n\`\`\`ts\nexport function f${n}(x: number): number {\n  return x * ${n};\n}\n\`\`\``
          : `\n\n- first point about **module ${n % 37}**\n- second point with \`code\`\n- third point`;
      entries.push({ role: 'assistant', text: `Message ${n}: here is what I found. The function returns early when the input is empty.${extra}` });
    } else {
      entries.push({
        role: 'tool',
        callId: `call-${n}`,
        tool: kind === 2 ? 'read_file' : 'grep',
        args: JSON.stringify(kind === 2 ? { path: `src/module-${n % 37}.ts` } : { pattern: `Message ${n}` }),
        title: kind === 2 ? `read src/module-${n % 37}.ts` : `grep /Message ${n}/`,
        summary: `Message ${n}: ${kind === 2 ? 'read' : 'searched'} (42 lines)`,
        result: `Message ${n}\n${'line of output\n'.repeat(10)}`,
        ok: true,
      });
    }
  }
  return entries;
}
