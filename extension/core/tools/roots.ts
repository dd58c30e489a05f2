import * as path from 'node:path';

/** One folder of the workspace as tools see it. */
export interface WorkspaceRoot {
  /** As the host gave it (absolute). */
  path: string;
  /** The folder's name as paths write it (`name/rest`); undefined for a later folder whose name an earlier one took (reached by absolute path only). */
  name?: string;
}

/**
 * The workspace's folders, by their primary (first) folder. Core code carries the primary root as
 * `workspaceRoot` (sessions store it, tools get it in their context); the host, which knows the
 * other folders of a multi-root workspace, registers them here, and path resolution, display,
 * instruction files, skills and the system prompt's environment read them. A primary root nobody
 * registered is a single-folder workspace, which behaves exactly as before.
 */
const registry = new Map<string, WorkspaceRoot[]>();

function usableName(name: string | undefined, p: string): string {
  const n = (name ?? '').trim();
  return n && n !== '.' && n !== '..' && !/[\\/]/.test(n) ? n : path.basename(p);
}

/**
 * Registers the workspace's folders (first = primary, which relative paths resolve against);
 * returns a function that forgets them. Names default to each folder's base name; a name an
 * earlier folder already uses is dropped (that folder is reached by its absolute path).
 */
export function setWorkspaceRoots(folders: ReadonlyArray<{ path: string; name?: string }>): () => void {
  if (folders.length === 0) return () => undefined;
  const taken = new Set<string>();
  const roots = folders.map((f) => {
    const abs = path.resolve(f.path);
    const name = usableName(f.name, abs);
    const free = !taken.has(name);
    taken.add(name);
    return free ? { path: abs, name } : { path: abs };
  });
  const key = path.resolve(folders[0]!.path);
  registry.set(key, roots);
  return () => {
    if (registry.get(key) === roots) registry.delete(key);
  };
}

/** The workspace's folders given its primary root: just that root unless more were registered. */
export function workspaceRootsOf(workspaceRoot: string): readonly WorkspaceRoot[] {
  return registry.get(path.resolve(workspaceRoot)) ?? [{ path: workspaceRoot, name: path.basename(path.resolve(workspaceRoot)) }];
}

/** The folders' paths, primary first. */
export function rootPaths(workspaceRoot: string): string[] {
  return workspaceRootsOf(workspaceRoot).map((r) => r.path);
}

/** True when the workspace has more than one folder. */
export function isMultiRoot(workspaceRoot: string): boolean {
  return workspaceRootsOf(workspaceRoot).length > 1;
}

/** Each workspace folder with the prefix its files' origins carry: '' in a single-folder workspace, `name/` (or the path) in a multi-root one. */
export function workspaceFolderOrigins(workspaceRoot: string): Array<{ path: string; prefix: string }> {
  const roots = workspaceRootsOf(workspaceRoot);
  if (roots.length === 1) return [{ path: workspaceRoot, prefix: '' }];
  return roots.map((r) => ({ path: r.path, prefix: `${r.name ?? r.path}/` }));
}
