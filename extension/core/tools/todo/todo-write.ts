import { z } from 'zod';
import { MAX_TODOS, todoItemSchema, type TodoItem } from '../../conversation/events';
import { defineTool, errorResult, okResult } from '../types';
import { TOOL } from '../names';

/** The whole list, each call: small on purpose (every loaded tool's schema is paid for each round). */
const input = z.strictObject({
  todos: z.array(todoItemSchema).max(MAX_TODOS),
});

/** What the model is told back: counts, not the list it just sent (cheap tokens). */
export function todoAck(todos: readonly TodoItem[]): string {
  if (!todos.length) return 'todo list cleared';
  const n = (status: TodoItem['status']) => todos.filter((t) => t.status === status).length;
  return `todo list saved: ${n('done')} done, ${n('in_progress')} in progress, ${n('pending')} pending`;
}

export const todoWriteTool = defineTool({
  name: TOOL.todo_write,
  // Changes nothing in the workspace: offered in plan mode, where the plan is written as this list.
  traits: { readOnly: true, repeat: 'plain', subagents: false, images: false },
  group: 'todo',
  permission: 'read',
  deferred: true,
  summary: 'Keep a todo list of the task\'s steps, shown to the user.',
  description: 'Replace your todo list (the user sees it). For tasks of 3+ steps; update statuses as you go.',
  input,
  describeCall: (a) => {
    const current = a.todos.find((t) => t.status === 'in_progress');
    return current ? `todo: ${current.text}` : `todo: ${a.todos.length} item${a.todos.length === 1 ? '' : 's'}`;
  },
  async run(args, ctx) {
    if (!ctx.setTodos) return errorResult('unavailable', 'todo_write is not available here (a delegated task keeps no todo list); carry on without it.');
    ctx.setTodos(args.todos);
    return okResult(todoAck(args.todos));
  },
});
