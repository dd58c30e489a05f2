/**
 * Every built-in tool's name, once. Code outside a tool's own file refers to a tool through this
 * table (`TOOL.read_file`) or through the traits in its definition, never through a string literal;
 * a definition's `name` is a ToolName (from here, or an MCP tool's `mcp__server__tool`), so a tool
 * named outside the table does not compile; test/unit/architecture/tool-names.test.ts checks that
 * every entry has its tool.
 */
export const BUILTIN_TOOL_NAMES = [
  'read_file',
  'view_image',
  'write_file',
  'edit_file',
  'shell',
  'execute_code',
  'grep',
  'glob',
  'ask_user',
  'delegate_task',
  'skill_view',
  'set_mode',
  'tool_search',
  'todo_write',
  'list_dir',
  'git_status',
  'git_diff',
  'git_log',
  'git_commit',
  'memory',
  'media_image_generate',
  'media_image_edit',
  'media_image_transform',
  'media_speech',
  'media_transcribe',
  'browser_navigate',
  'browser_click',
  'browser_type',
  'browser_press',
  'browser_scroll',
  'browser_snapshot',
  'browser_screenshot',
  'browser_console',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];
/** An MCP server's tool as the model sees it (mcp/names.ts builds it). */
export type McpToolName = `mcp__${string}`;
export type ToolName = BuiltinToolName | McpToolName;

export const TOOL = Object.fromEntries(BUILTIN_TOOL_NAMES.map((n) => [n, n])) as { readonly [K in BuiltinToolName]: K };
