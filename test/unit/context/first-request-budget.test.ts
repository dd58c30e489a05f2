/**
 * The fixed cost every session pays: the first request's system prompt and tools block with the
 * default tools, counted with the o200k tokenizer (bench/first-request.ts, which `npm run bench`
 * reports too). Issue 30: it stays within 1,600 tokens; a new core tool pays for itself or goes deferred.
 */
import assert from 'node:assert/strict';
import { firstRequestTokens } from '../../../bench/first-request';

const BUDGET = 1_600;

describe('first request budget (issue 30)', function () {
  this.timeout(60_000);

  it(`a default session's first request (system + tools) stays within ${BUDGET} tokens`, async () => {
    const r = await firstRequestTokens();
    const heaviest = Object.entries(r.perTool).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([n, t]) => `${n} ${t}`).join(', ');
    assert.ok(r.total <= BUDGET, `the first request costs ${r.total} tokens (system ${r.system}, tools ${r.tools}; heaviest: ${heaviest}), over the ${BUDGET}-token budget`);
  });
});
