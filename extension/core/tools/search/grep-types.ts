/** What grep asks a search backend (ripgrep or the JS fallback); both must give the same answer. */
export interface GrepQuery {
  /** Workspace real root: paths print relative to it, ignore rules start there. */
  root: string;
  /** Real path of the file or folder to search. */
  base: string;
  pattern: string;
  /** Filter on paths relative to the workspace root: `*.ts` (any folder) or `src/**\/*.py`. */
  glob?: string;
  ignoreCase: boolean;
  /** Matches to keep; the rest are only counted. */
  maxResults: number;
  signal: AbortSignal;
}

export interface GrepMatch {
  /** Path relative to the workspace root (posix), or absolute when outside it. */
  file: string;
  line: number;
  text: string;
}

/** Files the JS fallback did not search because they are larger than its per-file limit. */
export interface SkippedLarge {
  count: number;
  /** The first few, as printed. */
  examples: string[];
  limitBytes: number;
}

export type GrepOutcome =
  | {
      ok: true;
      matches: GrepMatch[];
      total: number;
      warning?: string;
      /** Set when the search ended early (deadline or cancel): why, where, and how far it got. The results are partial. */
      stopped?: { reason: 'timeout' | 'cancelled'; message: string };
      skippedLarge?: SkippedLarge;
      /** The search stopped once it had more than maxResults matches: `total` is a lower bound. The JS fallback says how many files it had searched. */
      limitReached?: { searched?: number };
    }
  | { ok: false; badPattern: string };

export type GrepBackend = (q: GrepQuery) => Promise<GrepOutcome>;
