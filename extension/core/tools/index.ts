import { askUserTool } from './core/ask-user';
import { editFileTool } from './core/edit-file';
import { executeCodeTool } from './core/execute-code';
import { globTool } from './core/glob';
import { grepTool } from './core/grep';
import { listDirTool } from './fs/list-dir';
import { readFileTool } from './core/read-file';
import { setModeTool } from './core/set-mode';
import { shellTool } from './core/shell';
import { skillViewTool } from './core/skill-view';
import { todoWriteTool } from './todo/todo-write';
import { writeFileTool } from './core/write-file';
import { gitCommitTool } from './git/git-commit';
import { gitDiffTool } from './git/git-diff';
import { gitLogTool } from './git/git-log';
import { gitStatusTool } from './git/git-status';
import { viewImageTool } from './core/view-image';
import { memoryTool } from './memory/memory-tool';
import { mediaTools } from './media/index';
import type { AnyTool } from './types';
import { createBrowserTools } from './browser/index';
import { sharedBrowserManager } from '../browser/index';

/**
 * The one list every built-in tool is registered through (in the order eager tools are sent).
 * delegate_task and tool_search are added by their own modules.
 */
export function createBuiltinTools(): AnyTool[] {
  return [
    readFileTool,
    viewImageTool,
    writeFileTool,
    editFileTool,
    shellTool,
    executeCodeTool,
    grepTool,
    globTool,
    askUserTool,
    skillViewTool,
    setModeTool,
    listDirTool,
    gitStatusTool,
    gitDiffTool,
    gitLogTool,
    gitCommitTool,
    memoryTool,
    todoWriteTool,
    ...mediaTools,
    ...createBrowserTools(sharedBrowserManager()),
  ] as AnyTool[];
}
