import { useActions, useChat } from '../../app/context';
import type { TodoItem } from '../../../../extension/protocol';
import { Icon } from '../../ui/Icon';
import { VisibleText } from '../VisibleText';
import './plan.css';

const STATUS_ICON: Record<TodoItem['status'], string> = { done: 'pass-filled', in_progress: 'arrow-right', pending: 'circle-large-outline' };
const STATUS_LABEL: Record<TodoItem['status'], string> = { done: 'done', in_progress: 'in progress', pending: 'pending' };

/**
 * The model's todo list (todo_write), pinned above the composer while a turn runs and under a plan
 * waiting for approval; folded, it is one line: the count done and the step in progress. The steps
 * are the model's text: their invisible and direction-changing characters show as marked chips.
 */
export function TodoList() {
  const todos = useChat((s) => s.todos);
  const running = useChat((s) => s.running);
  const planReady = useChat((s) => s.planReady);
  const collapsed = useChat((s) => s.todosCollapsed);
  const actions = useActions();
  if (!todos.length || !(running || planReady)) return null;
  const done = todos.filter((t) => t.status === 'done').length;
  const current = todos.find((t) => t.status === 'in_progress');
  return (
    <section className="todo-list" data-testid="todo-list" aria-label="Todo list">
      <button type="button" className="todo-head" aria-expanded={!collapsed} onClick={() => actions.toggleTodos()}>
        <Icon name={collapsed ? 'chevron-right' : 'chevron-down'} />
        <span className="todo-count">
          Todo {done}/{todos.length}
        </span>
        {collapsed && current ? (
          <span className="todo-current">
            <VisibleText text={current.text} />
          </span>
        ) : null}
      </button>
      {collapsed ? null : (
        <ol className="todo-items">
          {todos.map((t, i) => (
            <li key={i} className="todo-item" data-status={t.status}>
              <Icon name={STATUS_ICON[t.status]} />
              <span className="todo-text">
                <VisibleText text={t.text} />
              </span>
              <span className="visually-hidden"> ({STATUS_LABEL[t.status]})</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
