import { parseDocument } from 'yaml';
import { z } from 'zod';
import type { CustomAgent } from './custom-agent';
import { clipDescription, validAgentName } from './names';
import { mapTools } from './tool-map';
import { ROO_MODES_FILE } from './sources';

/** A tool group: `read`, or `["edit", { fileRegex, description }]`. */
const groupSchema = z.union([z.string(), z.tuple([z.string(), z.object({ fileRegex: z.string().optional(), description: z.string().optional() }).loose()])]);

/** One of Roo Code's custom modes, as `.roomodes` holds it (unknown keys are ignored). */
const modeSchema = z
  .object({
    slug: z.string(),
    name: z.string().optional(),
    roleDefinition: z.string().optional(),
    whenToUse: z.string().optional(),
    description: z.string().optional(),
    customInstructions: z.string().optional(),
    groups: z.array(groupSchema).optional(),
  })
  .loose();

const fileSchema = z.object({ customModes: z.array(z.unknown()) }).loose();

const oneLine = (s: string | undefined) => s?.replace(/\s+/g, ' ').trim() || undefined;

/**
 * Roo Code's `.roomodes` (YAML, or JSON, which YAML reads too) as custom agents named by slug:
 * the role definition and custom instructions are the agent's instructions, `whenToUse` (else the
 * description or name) its description, and its tool groups its tools. An edit group limited by
 * `fileRegex` gives no write tools (Snowpea does not check file patterns), and says so.
 * A mode that does not fit is left out, with the reason, and the others are kept.
 */
export function rooModes(text: string, o: { file: string; onSkip?: (why: string) => void }): CustomAgent[] {
  const doc = parseDocument(text, { schema: 'core', resolveKnownTags: false, prettyErrors: false, logLevel: 'silent' });
  let value: unknown;
  try {
    value = doc.errors.length ? undefined : doc.toJS();
  } catch {
    value = undefined;
  }
  const file = fileSchema.safeParse(value);
  if (!file.success) {
    o.onSkip?.(`agents not read: ${ROO_MODES_FILE} is not YAML or JSON with a customModes list${doc.errors[0] ? ` (${doc.errors[0].message})` : ''}`);
    return [];
  }
  const out: CustomAgent[] = [];
  file.data.customModes.forEach((raw, i) => {
    const m = modeSchema.safeParse(raw);
    const origin = `${ROO_MODES_FILE} (mode ${i + 1}${m.success ? `: ${m.data.slug}` : ''})`;
    const issue = m.success ? undefined : m.error.issues[0];
    if (!m.success) return o.onSkip?.(`agent not listed: ${origin}: ${issue ? `${issue.path.join('.') || 'the mode'}: ${issue.message}` : 'not a mode'}`);
    const mode = m.data;
    if (!validAgentName(mode.slug)) return o.onSkip?.(`agent not listed: ${origin}: its slug is not an agent name`);
    const notes: string[] = [];
    const groups: string[] = [];
    for (const g of mode.groups ?? []) {
      if (typeof g === 'string') groups.push(g);
      else if (g[0] === 'edit' && g[1].fileRegex !== undefined) notes.push(`edit limited to files matching ${g[1].fileRegex}: no write tools (Snowpea does not check file patterns)`);
      else groups.push(g[0]);
    }
    const mapped = mapTools(groups, 'roo');
    if (mapped.unknown.length) notes.push(`tool groups Snowpea does not have, left out: ${mapped.unknown.join(', ')}`);
    out.push({
      name: mode.slug,
      description: clipDescription(oneLine(mode.whenToUse) ?? oneLine(mode.description) ?? oneLine(mode.name)) ?? '',
      instructions: [mode.roleDefinition, mode.customInstructions].filter((s): s is string => !!s?.trim()).map((s) => s.trim()).join('\n\n'),
      tools: mapped.allowed,
      origin,
      file: o.file,
      scope: 'workspace',
      format: 'roo',
      notes,
    });
  });
  return out;
}
